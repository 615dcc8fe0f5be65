"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import {
  type BankAccount,
  type BankAccountKind,
  bankAccountKinds,
  bankAccountSchema,
  createBankAccountBodySchema,
  usAccountTypes,
} from "@salelink/contracts/payouts";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useContractForm } from "@/components/ui/use-contract-form.ts";
import { ApiError, api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";
import { bankErrorKeyOf } from "./bank-account-errors.ts";

/** The holder field's id: the "add a bank account" next steps put the focus there. */
export const BANK_FORM_FIRST_FIELD = "bank-holder";

/** A request from elsewhere on the page ("add an account in GBP"): the kind that takes that currency. */
export interface BankFormRequest {
  currency: Currency;
  /** Changes with every request, so that asking twice for the same currency focuses again. */
  at: number;
}

/** The kind of account (and an IBAN's currency) that is paid in a currency. */
export function kindForCurrency(currency: Currency): { kind: BankAccountKind; ibanCurrency: "EUR" | "CHF" } {
  if (currency === "GBP") return { kind: "gb", ibanCurrency: "EUR" };
  if (currency === "USD") return { kind: "us", ibanCurrency: "EUR" };
  return { kind: "iban", ibanCurrency: currency === "CHF" ? "CHF" : "EUR" };
}

interface BankFormValues {
  kind: BankAccountKind;
  holderName: string;
  iban: string;
  bic: string;
  currency: "EUR" | "CHF";
  sortCode: string;
  routingNumber: string;
  accountNumber: string;
  accountType: string;
}

const blank: BankFormValues = {
  kind: "iban",
  holderName: "",
  iban: "",
  bic: "",
  currency: "EUR",
  sortCode: "",
  routingNumber: "",
  accountNumber: "",
  accountType: "checking",
};

/** Only the chosen kind's fields go in the request: the contract is a union on `kind`. */
function toBody(v: BankFormValues): unknown {
  const holderName = v.holderName;
  switch (v.kind) {
    case "gb":
      return { kind: "gb", holderName, sortCode: v.sortCode, accountNumber: v.accountNumber };
    case "us":
      return {
        kind: "us",
        holderName,
        routingNumber: v.routingNumber,
        accountNumber: v.accountNumber,
        accountType: v.accountType,
      };
    default: {
      const bic = v.bic.trim();
      return {
        kind: "iban",
        holderName,
        iban: v.iban,
        bic: bic === "" ? undefined : bic,
        currency: v.currency,
      };
    }
  }
}

/**
 * The spec's "create IBAN section", since issue 23 for three kinds of accounts: an IBAN (the 30
 * countries, or Switzerland in francs or euros), a British sort code and account number, an American
 * routing and account number. Checked here with the API's contract.
 */
export function BankAccountForm({
  onCreated,
  request,
}: {
  onCreated: (account: BankAccount) => void;
  request?: BankFormRequest | null;
}) {
  const t = useTranslations("payouts");
  const { form, register, errors, pending, onSubmit } = useContractForm<BankFormValues, unknown>({
    defaultValues: blank,
    schema: createBankAccountBodySchema,
    toBody,
    message: (field, code, contractText) => {
      const key = bankErrorKeyOf(field, code, contractText, form.getValues("kind"));
      return key ? t(`errors.${key}`) : t("bankAddFailed");
    },
    // The API words its refusals in the page's language: shown as they come.
    failed: (err) => (err instanceof ApiError && err.body ? err.body.message : t("bankAddFailed")),
    submit: async (body) => {
      const account = await api("/profile/bank-accounts", {
        method: "POST",
        body,
        schema: bankAccountSchema,
      });
      form.reset({ ...blank, kind: form.getValues("kind") });
      toast.success(t("bankAdded"), { description: account.ibanMasked });
      onCreated(account);
    },
  });
  const kind = form.watch("kind");
  // Another kind's messages name fields no longer shown.
  useEffect(() => {
    if (kind) form.clearErrors();
  }, [kind, form]);

  useEffect(() => {
    if (!request) return;
    const { kind: wanted, ibanCurrency } = kindForCurrency(request.currency);
    form.setValue("kind", wanted);
    if (wanted === "iban") form.setValue("currency", ibanCurrency);
    form.clearErrors();
    document.getElementById(BANK_FORM_FIRST_FIELD)?.focus();
  }, [request, form]);

  const code = { autoComplete: "off", spellCheck: false, className: "bank-code-input" } as const;

  return (
    <form
      className="card stack bank-form"
      method="post"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="bank-form-title"
    >
      <h3 id="bank-form-title">{t("addTitle")}</h3>
      <fieldset className="bank-kinds">
        <legend>{t("kindLegend")}</legend>
        {bankAccountKinds.map((k) => (
          <div key={k} className="bank-kind">
            <input
              type="radio"
              id={`bank-kind-${k}`}
              value={k}
              aria-describedby={`bank-kind-${k}-hint`}
              {...register("kind")}
            />
            <span>
              <label htmlFor={`bank-kind-${k}`}>{t(`kinds.${k}`)}</label>
              <small id={`bank-kind-${k}-hint`} className="muted">
                {t(`kindHints.${k}`)}
              </small>
            </span>
          </div>
        ))}
      </fieldset>
      <Field
        {...register("holderName")}
        id={BANK_FORM_FIRST_FIELD}
        label={t("holderName")}
        hint={t("holderNameHint")}
        autoComplete="name"
        maxLength={140}
        error={errors.holderName}
      />
      {kind === "iban" && (
        <>
          <Field
            {...register("iban")}
            {...code}
            id="bank-iban"
            label={t("iban")}
            hint={t("ibanHint")}
            autoCapitalize="characters"
            error={errors.iban}
          />
          <Field
            {...register("bic")}
            {...code}
            id="bank-bic"
            label={t("bic")}
            hint={t("bicHint")}
            autoCapitalize="characters"
            maxLength={14}
            error={errors.bic}
          />
          <div className="field">
            <label htmlFor="bank-currency">{t("ibanCurrency")}</label>
            <select
              id="bank-currency"
              {...register("currency")}
              aria-invalid={Boolean(errors.currency)}
              aria-describedby={errors.currency ? "bank-currency-error" : "bank-currency-hint"}
            >
              <option value="EUR">{t("currencyEur")}</option>
              <option value="CHF">{t("currencyChf")}</option>
            </select>
            <small id="bank-currency-hint" className="muted">
              {t("ibanCurrencyHint")}
            </small>
            {errors.currency && (
              <small id="bank-currency-error" className="field-error">
                {errors.currency}
              </small>
            )}
          </div>
        </>
      )}
      {kind === "gb" && (
        <>
          <Field
            {...register("sortCode")}
            {...code}
            id="bank-sort-code"
            label={t("sortCode")}
            hint={t("sortCodeHint")}
            inputMode="numeric"
            maxLength={8}
            error={errors.sortCode}
          />
          <Field
            {...register("accountNumber")}
            {...code}
            id="bank-account-number"
            label={t("accountNumber")}
            hint={t("gbAccountNumberHint")}
            inputMode="numeric"
            maxLength={10}
            error={errors.accountNumber}
          />
        </>
      )}
      {kind === "us" && (
        <>
          <Field
            {...register("routingNumber")}
            {...code}
            id="bank-routing"
            label={t("routingNumber")}
            hint={t("routingNumberHint")}
            inputMode="numeric"
            maxLength={11}
            error={errors.routingNumber}
          />
          <Field
            {...register("accountNumber")}
            {...code}
            id="bank-account-number"
            label={t("accountNumber")}
            hint={t("usAccountNumberHint")}
            inputMode="numeric"
            maxLength={20}
            error={errors.accountNumber}
          />
          <fieldset
            className="bank-kinds"
            aria-describedby={errors.accountType ? "bank-type-error" : undefined}
          >
            <legend>{t("accountType")}</legend>
            {usAccountTypes.map((type) => (
              <label key={type} className="bank-kind">
                <input type="radio" value={type} {...register("accountType")} />
                <span>{t(`accountTypes.${type}`)}</span>
              </label>
            ))}
            {errors.accountType && (
              <small id="bank-type-error" className="field-error">
                {errors.accountType}
              </small>
            )}
          </fieldset>
        </>
      )}
      <p className="muted bank-paid-in">{t("paidIn", { currency: paidIn(kind, form.watch("currency")) })}</p>
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="actions">
        <SubmitButton pending={pending} label={t("addSubmit")} pendingLabel={t("adding")} />
      </div>
    </form>
  );
}

const paidIn = (kind: BankAccountKind, ibanCurrency: "EUR" | "CHF"): Currency =>
  kind === "gb" ? "GBP" : kind === "us" ? "USD" : ibanCurrency;
