"use client";

import {
  type BankAccount,
  bankAccountSchema,
  createBankAccountBodySchema,
} from "@salelink/contracts/payouts";
import { useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { ApiError, api } from "@/lib/api.ts";
import { apiFieldErrors, type FieldErrors, topLevelErrors } from "@/lib/form-errors.ts";
import { toast } from "@/lib/toast.ts";
import { bankErrorKeysOf } from "./bank-account-errors.ts";

/** The holder field's id: the "add a bank account" next step puts the focus there. */
export const BANK_FORM_FIRST_FIELD = "bank-holder";

/** The spec's "create IBAN section": holder, IBAN and optional BIC, checked here with the API's contract. */
export function BankAccountForm({ onCreated }: { onCreated: (account: BankAccount) => void }) {
  const t = useTranslations("payouts");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const f = new FormData(form);
    const bic = String(f.get("bic") ?? "").trim();
    const parsed = createBankAccountBodySchema.safeParse({
      holderName: String(f.get("holderName") ?? ""),
      iban: String(f.get("iban") ?? ""),
      bic: bic === "" ? undefined : bic,
    });
    if (!parsed.success) {
      const keys = bankErrorKeysOf(parsed.error);
      const next: FieldErrors = {};
      for (const [field, key] of Object.entries(keys)) next[field] = t(`errors.${key}`);
      setErrors(next);
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const account = await api("/profile/bank-accounts", {
        method: "POST",
        body: parsed.data,
        schema: bankAccountSchema,
      });
      form.reset();
      toast.success(t("bankAdded"), { description: account.ibanMasked });
      onCreated(account);
    } catch (err) {
      // The API words its refusals in the page's language: shown as they come.
      const fieldErrors = topLevelErrors(apiFieldErrors(err));
      const fallback = err instanceof ApiError && err.body ? err.body.message : t("bankAddFailed");
      setErrors(Object.keys(fieldErrors).length > 0 ? fieldErrors : { form: fallback });
    } finally {
      setPending(false);
    }
  }

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
        name="holderName"
        id={BANK_FORM_FIRST_FIELD}
        label={t("holderName")}
        hint={t("holderNameHint")}
        autoComplete="name"
        maxLength={140}
        error={errors.holderName}
      />
      <Field
        name="iban"
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
        name="bic"
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
