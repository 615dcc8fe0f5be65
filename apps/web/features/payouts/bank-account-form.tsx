"use client";

import {
  type BankAccount,
  bankAccountSchema,
  createBankAccountBodySchema,
} from "@salelink/contracts/payouts";
import { useTranslations } from "next-intl";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useContractForm } from "@/components/ui/use-contract-form.ts";
import { ApiError, api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";
import { bankErrorKeyOf } from "./bank-account-errors.ts";

/** The holder field's id: the "add a bank account" next step puts the focus there. */
export const BANK_FORM_FIRST_FIELD = "bank-holder";

/** The spec's "create IBAN section": holder, IBAN and optional BIC, checked here with the API's contract. */
export function BankAccountForm({ onCreated }: { onCreated: (account: BankAccount) => void }) {
  const t = useTranslations("payouts");
  const { form, register, errors, pending, onSubmit } = useContractForm({
    defaultValues: { holderName: "", iban: "", bic: "" },
    schema: createBankAccountBodySchema,
    toBody: ({ bic, ...rest }) => ({ ...rest, bic: bic.trim() === "" ? undefined : bic.trim() }),
    message: (field, code, contractText) => {
      const key = bankErrorKeyOf(field, code, contractText);
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
      form.reset();
      toast.success(t("bankAdded"), { description: account.ibanMasked });
      onCreated(account);
    },
  });

  return (
    <form
      className="card stack bank-form"
      method="post"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="bank-form-title"
    >
      <h3 id="bank-form-title">{t("addTitle")}</h3>
      <Field
        {...register("holderName")}
        id={BANK_FORM_FIRST_FIELD}
        label={t("holderName")}
        hint={t("holderNameHint")}
        autoComplete="name"
        maxLength={140}
        error={errors.holderName}
      />
      <Field
        {...register("iban")}
        id="bank-iban"
        label={t("iban")}
        hint={t("ibanHint")}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        className="bank-code-input"
        error={errors.iban}
      />
      <Field
        {...register("bic")}
        id="bank-bic"
        label={t("bic")}
        hint={t("bicHint")}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={14}
        className="bank-code-input"
        error={errors.bic}
      />
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
