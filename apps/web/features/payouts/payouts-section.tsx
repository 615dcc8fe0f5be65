"use client";

import {
  type BankAccount,
  bankAccountListSchema,
  payoutEligibilitySchema,
} from "@salelink/contracts/payouts";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { BANK_FORM_FIRST_FIELD, type BankFormRequest } from "./bank-account-form.tsx";
import { BankAccounts } from "./bank-accounts.tsx";
import { NextSteps, PayoutLimits } from "./payout-limits.tsx";
import { Transfers } from "./transfers.tsx";
import { WithdrawForm } from "./withdraw-form.tsx";
import "./payouts.css";

/**
 * The payouts page's way out (the wallet's until issue 23): withdraw (with what stands in the way and the limits that apply), the bank
 * accounts money goes to, and the payouts so far. A withdrawal moves the wallet's balances too: they
 * are read again.
 */
export function PayoutsSection({ request = null }: { request?: BankFormRequest | null }) {
  const t = useTranslations("payouts");
  const queryClient = useQueryClient();
  const {
    data: eligibility,
    failed: eligibilityFailed,
    reload: reloadEligibility,
    updatedAt: eligibilityRead,
  } = useApiQuery(queryKeys.payoutEligibility, "/profile/payout", payoutEligibilitySchema);
  const bankAccounts = useApiQuery(queryKeys.bankAccounts, "/profile/bank-accounts", bankAccountListSchema);
  const accounts = bankAccounts.data?.items ?? null;

  const invalidate = (queryKey: readonly string[]) => void queryClient.invalidateQueries({ queryKey });
  function setAccounts(update: (items: BankAccount[]) => BankAccount[]) {
    queryClient.setQueryData<{ items: BankAccount[] }>(queryKeys.bankAccounts, (list) =>
      list ? { ...list, items: update(list.items) } : list,
    );
  }

  function focusBankForm() {
    document.getElementById(BANK_FORM_FIRST_FIELD)?.focus();
  }

  return (
    <>
      <section className="wallet-section" aria-labelledby="payouts-withdraw">
        <h2 id="payouts-withdraw">{t("withdrawTitle")}</h2>
        <p className="muted">{t("withdrawIntro")}</p>
        {eligibilityFailed ? (
          <div role="alert" className="wallet-error">
            <p className="field-error">{t("eligibilityLoadFailed")}</p>
            <button type="button" className="btn btn-ghost btn-sm" onClick={reloadEligibility}>
              {t("retry")}
            </button>
          </div>
        ) : eligibility === null ? (
          <p aria-busy="true" className="muted loading">
            {t("eligibilityLoading")}
          </p>
        ) : (
          <div className="payout-grid">
            <div className="card stack payout-withdraw">
              {eligibility.blockers.length > 0 && (
                <NextSteps eligibility={eligibility} onAddBankAccount={focusBankForm} />
              )}
              <WithdrawForm
                key={eligibilityRead}
                eligibility={eligibility}
                accounts={accounts}
                onRequested={() => {
                  invalidate(queryKeys.payoutEligibility);
                  invalidate(queryKeys.transfers);
                  invalidate(queryKeys.wallet);
                }}
                onRefused={() => invalidate(queryKeys.payoutEligibility)}
              />
            </div>
            <PayoutLimits eligibility={eligibility} />
          </div>
        )}
      </section>
      <BankAccounts
        request={request}
        accounts={accounts}
        failed={bankAccounts.failed}
        onRetry={bankAccounts.reload}
        onCreated={(account) => {
          setAccounts((list) => [...list, account]);
          // A first account lifts the "bank account" blockers, the withdrawal's and the schedule's.
          invalidate(queryKeys.payoutEligibility);
          invalidate(queryKeys.payoutSchedule);
        }}
        onDeleted={(id) => {
          setAccounts((list) => list.filter((a) => a.id !== id));
          invalidate(queryKeys.payoutEligibility);
        }}
      />
      <Transfers />
    </>
  );
}
