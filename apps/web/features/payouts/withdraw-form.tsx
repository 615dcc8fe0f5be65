"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import {
  type BankAccount,
  type PayoutEligibility,
  payoutRequestBodySchema,
  payoutSchema,
} from "@salelink/contracts/payouts";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { ApiError, api } from "@/lib/api.ts";
import { apiFieldErrors, type FieldErrors, topLevelErrors } from "@/lib/form-errors.ts";
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
  const [bankAccountId, setBankAccountId] = useState(accounts?.at(-1)?.id ?? "");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);

  const money = (minor: number, c: Currency = currency) => formatMoney(minor, c, locale);
  const available = availableIn(currency);
  const blocked = eligibility.blockers.length > 0;
  // The chosen account may have been deleted since: fall back to the newest.
  const chosen = accounts?.find((a) => a.id === bankAccountId) ?? accounts?.at(-1) ?? null;

  function chooseCurrency(next: Currency) {
    setCurrency(next);
    setAmount(minorToInput(availableIn(next), next, locale));
    setErrors({});
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (blocked) return;
    const minor = parseAmount(amount, currency);
    const next: FieldErrors = {};
    if (minor === null || minor <= 0) next.amount = t("errors.amount");
    else if (minor > available) next.amount = t("errors.amountOver", { available: money(available) });
    else if (minor < eligibility.minimum) {
      next.amount = t("errors.amountUnder", { minimum: money(eligibility.minimum) });
    }
    if (!chosen) next.bankAccountId = t("errors.bankAccount");
    const parsed = payoutRequestBodySchema.safeParse({
      bankAccountId: chosen?.id,
      currency,
      amount: minor ?? undefined,
    });
    if (Object.keys(next).length > 0 || !parsed.success) {
      setErrors(Object.keys(next).length > 0 ? next : { form: t("withdrawFailed") });
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const payout = await api("/profile/payout", {
        method: "POST",
        body: parsed.data,
        schema: payoutSchema,
      });
      toast.success(t("requested"), {
        description: t("requestedHint", {
          amount: money(payout.amount, payout.currency),
          iban: payout.bankAccount.ibanMasked,
        }),
      });
      onRequested();
    } catch (err) {
      const { amount: amountError, bankAccountId: bankError, ...other } = topLevelErrors(apiFieldErrors(err));
      if (amountError || bankError || Object.keys(other).length > 0) {
        // Only the amount and the account have a field here; anything else shows under the form.
        const form = Object.values(other)[0];
        setErrors({
          ...(amountError ? { amount: amountError } : {}),
          ...(bankError ? { bankAccountId: bankError } : {}),
          ...(form ? { form } : {}),
        });
      } else {
        setErrors({ form: err instanceof ApiError && err.body ? err.body.message : t("withdrawFailed") });
        if (err instanceof ApiError && [403, 404, 409].includes(err.status)) onRefused();
      }
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="stack withdraw-form" method="post" onSubmit={onSubmit} noValidate>
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
            {accounts && accounts.length > 0 ? (
              accounts.map((a) => (
                <option key={a.id} value={a.id}>
                  {`${a.ibanMasked} · ${a.holderName}`}
                </option>
              ))
            ) : (
              <option value="">{t("noBankAccount")}</option>
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
