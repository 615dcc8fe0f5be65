"use client";

import {
  type BankAccount,
  bankAccountListSchema,
  type PayoutEligibility,
  payoutEligibilitySchema,
} from "@salelink/contracts/payouts";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import { api } from "@/lib/api.ts";
import { BANK_FORM_FIRST_FIELD } from "./bank-account-form.tsx";
import { BankAccounts } from "./bank-accounts.tsx";
import { NextSteps, PayoutLimits } from "./payout-limits.tsx";
import { Transfers } from "./transfers.tsx";
import { WithdrawForm } from "./withdraw-form.tsx";
import "./payouts.css";

/**
 * The wallet's way out: withdraw (with what stands in the way and the limits that apply), the bank
 * accounts money goes to, and the payouts so far. `onChange` tells the wallet its balances moved.
 */
export function PayoutsSection({ onChange }: { onChange: () => void }) {
  const t = useTranslations("payouts");
  const [eligibility, setEligibility] = useState<PayoutEligibility | null>(null);
  const [eligibilityFailed, setEligibilityFailed] = useState(false);
  /** Counts the reads of the rules: the withdraw form starts afresh from each one. */
  const [reads, setReads] = useState(0);
  const [accounts, setAccounts] = useState<BankAccount[] | null>(null);
  const [accountsFailed, setAccountsFailed] = useState(false);
  const [transfersVersion, setTransfersVersion] = useState(0);

  const loadEligibility = useCallback((signal?: AbortSignal) => {
    setEligibilityFailed(false);
    api("/profile/payout", { schema: payoutEligibilitySchema, signal })
      .then((next) => {
        setEligibility(next);
        setReads((n) => n + 1);
      })
      .catch(() => {
        if (!signal?.aborted) setEligibilityFailed(true);
      });
  }, []);

  const loadAccounts = useCallback((signal?: AbortSignal) => {
    setAccountsFailed(false);
    api("/profile/bank-accounts", { schema: bankAccountListSchema, signal })
      .then(({ items }) => setAccounts(items))
      .catch(() => {
        if (!signal?.aborted) setAccountsFailed(true);
      });
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    loadEligibility(controller.signal);
    loadAccounts(controller.signal);
    return () => controller.abort();
  }, [loadEligibility, loadAccounts]);

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
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => loadEligibility()}>
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
                key={reads}
                eligibility={eligibility}
                accounts={accounts}
                onRequested={() => {
                  loadEligibility();
                  setTransfersVersion((v) => v + 1);
                  onChange();
                }}
                onRefused={() => loadEligibility()}
              />
            </div>
            <PayoutLimits eligibility={eligibility} />
          </div>
        )}
      </section>
      <BankAccounts
        accounts={accounts}
        failed={accountsFailed}
        onRetry={() => loadAccounts()}
        onCreated={(account) => {
          setAccounts((list) => [...(list ?? []), account]);
          // A first account lifts the "bank account" blocker.
          loadEligibility();
        }}
        onDeleted={(id) => {
          setAccounts((list) => (list ?? []).filter((a) => a.id !== id));
          loadEligibility();
        }}
      />
      <Transfers version={transfersVersion} />
    </>
  );
}
