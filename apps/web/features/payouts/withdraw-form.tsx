"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import {
  type BankAccount,
  type PayoutEligibility,
  payoutRequestBodySchema,
  payoutSchema,
} from "@salelink/contracts/payouts";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useContractForm } from "@/components/ui/use-contract-form.ts";
import { ApiError, api } from "@/lib/api.ts";
import { apiFieldErrors, type FieldErrors } from "@/lib/form-errors.ts";
import { formatMoney, minorToInput, parseAmount } from "@/lib/money.ts";
import { toast } from "@/lib/toast.ts";
import { payoutCurrencies } from "./payout-currencies.ts";
import { withdrawHint } from "./withdraw-hint.ts";

/**
 * The spec's "bank withdraw": an amount (all that is available, to start with) from one balance to
 * one of my bank accounts. Shown but closed while anything stands in the way, saying why.
 */
export function WithdrawForm({
  eligibility,
  accounts,
  onRequested,
  onRefused,
}: {
  eligibility: PayoutEligibility;
  /** null while loading or when they could not be loaded. */
  accounts: BankAccount[] | null;
  onRequested: () => void;
  /** The API saw something this page did not (a payout requested elsewhere…): read the rules again. */
  onRefused: () => void;
}) {
  const t = useTranslations("payouts");
  const locale = useLocale();
  const { options, preferred } = payoutCurrencies(eligibility);
  const [currency, setCurrency] = useState<Currency>(preferred);
  const availableIn = (c: Currency) => options.find((b) => b.currency === c)?.amount ?? 0;
  const [amount, setAmount] = useState(() => minorToInput(availableIn(preferred), preferred, locale));
  const [bankAccountId, setBankAccountId] = useState(
    accounts?.filter((a) => a.currency === preferred).at(-1)?.id ?? "",
  );

  const money = (minor: number, c: Currency = currency) => formatMoney(minor, c, locale);
  const available = availableIn(currency);
  const blocked = eligibility.blockers.length > 0;
  // Each payout is in one currency, to an account paid in it (issue 23).
  const usable = accounts?.filter((a) => a.currency === currency) ?? null;
  // The chosen account may have been deleted since: fall back to the newest.
  const chosen = usable?.find((a) => a.id === bankAccountId) ?? usable?.at(-1) ?? null;

  function chooseCurrency(next: Currency) {
    setCurrency(next);
    setAmount(minorToInput(availableIn(next), next, locale));
    form.clearErrors();
  }

  /** The rules the contract cannot know: what this balance holds, the minimum, an account chosen. */
  function check(): FieldErrors {
    const minor = parseAmount(amount, currency);
    const next: FieldErrors = {};
    if (minor === null || minor <= 0) next.amount = t("errors.amount");
    else if (minor > available) next.amount = t("errors.amountOver", { available: money(available) });
    else if (minor < eligibility.minimum) {
      next.amount = t("errors.amountUnder", { minimum: money(eligibility.minimum) });
    }
    if (!chosen) next.bankAccountId = t("errors.bankAccount");
    return next;
  }

  const { form, errors, pending, onSubmit } = useContractForm({
    defaultValues: {},
    schema: payoutRequestBodySchema,
    toBody: () => ({
      bankAccountId: chosen?.id,
      currency,
      amount: parseAmount(amount, currency) ?? undefined,
    }),
    // Only the amount and the account have a field here; anything else shows under the form.
    fieldOf: (path) => (path === "amount" || path === "bankAccountId" ? path : "form"),
    message: (field) =>
      field === "amount"
        ? t("errors.amount")
        : field === "bankAccountId"
          ? t("errors.bankAccount")
          : t("withdrawFailed"),
    check,
    failed: (err) => (err instanceof ApiError && err.body ? err.body.message : t("withdrawFailed")),
    onFailure: (err) => {
      const named = Object.keys(apiFieldErrors(err)).length > 0;
      if (!named && err instanceof ApiError && [403, 404, 409].includes(err.status)) onRefused();
      return undefined;
    },
    submit: async (body) => {
      const payout = await api("/profile/payout", {
        method: "POST",
        body,
        schema: payoutSchema,
      });
      toast.success(t("requested"), {
        description: t("requestedHint", {
          amount: money(payout.amount, payout.currency),
          iban: payout.bankAccount.ibanMasked,
        }),
      });
      onRequested();
    },
  });

  return (
    <form
      className="stack withdraw-form"
      method="post"
      onSubmit={(event) => (blocked ? event.preventDefault() : onSubmit(event))}
      noValidate
    >
      <fieldset disabled={blocked || pending} className="stack">
        <legend className="sr-only">{t("withdrawTitle")}</legend>
        {options.length > 1 ? (
          <div className="field">
            <label htmlFor="withdraw-balance">{t("balance")}</label>
            <select
              id="withdraw-balance"
              value={currency}
              onChange={(e) => chooseCurrency(e.target.value as Currency)}
            >
              {options.map((b) => (
                <option key={b.currency} value={b.currency}>
                  {t("balanceOption", { currency: b.currency, amount: money(b.amount, b.currency) })}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <p className="withdraw-available">
            {t("availableNow")} <strong>{money(available)}</strong>
          </p>
        )}
        <Field
          name="amount"
          id="withdraw-amount"
          label={t("amount", { currency })}
          hint={withdrawHint(t, eligibility.minimum, available, money)}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          inputMode="decimal"
          autoComplete="off"
          error={errors.amount}
        />
        <div className="field">
          <label htmlFor="withdraw-bank">{t("toBankAccount")}</label>
          <select
            id="withdraw-bank"
            value={chosen?.id ?? ""}
            onChange={(e) => setBankAccountId(e.target.value)}
            aria-invalid={Boolean(errors.bankAccountId)}
            aria-describedby={errors.bankAccountId ? "withdraw-bank-error" : undefined}
          >
            {usable && usable.length > 0 ? (
              usable.map((a) => (
                <option key={a.id} value={a.id}>
                  {`${a.ibanMasked} · ${a.holderName}`}
                </option>
              ))
            ) : (
              <option value="">
                {accounts && accounts.length > 0 ? t("noAccountIn", { currency }) : t("noBankAccount")}
              </option>
            )}
          </select>
          {errors.bankAccountId && (
            <small id="withdraw-bank-error" className="field-error">
              {errors.bankAccountId}
            </small>
          )}
        </div>
      </fieldset>
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      {blocked && (
        <p id="payout-blocked-why" className="muted withdraw-why">
          {t("blockedWhy")}
        </p>
      )}
      <div className="actions">
        <SubmitButton
          pending={pending}
          disabled={blocked}
          label={t("withdrawSubmit")}
          pendingLabel={t("withdrawing")}
        />
      </div>
    </form>
  );
}
