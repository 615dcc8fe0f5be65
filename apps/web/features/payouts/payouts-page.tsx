"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import { bankAccountListSchema, payoutEligibilitySchema } from "@salelink/contracts/payouts";
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { IdentitySection } from "@/features/identity/identity-section.tsx";
import { queryKeys } from "@/lib/query-keys.ts";
import type { BankFormRequest } from "./bank-account-form.tsx";
import { DebtNotice } from "./debt-notice.tsx";
import { PayoutBalances } from "./payout-balances.tsx";
import { PayoutsSection } from "./payouts-section.tsx";
import { PayoutScheduleSection } from "./schedule-form.tsx";

/**
 * /account/payouts (issue 23): the balances per currency and the account each is paid to, the
 * schedule and what keeps it from paying, the identity check, withdrawing by hand, the bank
 * accounts, and every payout with a link to its timeline.
 */
export function PayoutsPage({ defaultCurrency }: { defaultCurrency: Currency }) {
  const t = useTranslations("payouts");
  const queryClient = useQueryClient();
  const eligibility = useApiQuery(queryKeys.payoutEligibility, "/profile/payout", payoutEligibilitySchema);
  const accounts = useApiQuery(queryKeys.bankAccounts, "/profile/bank-accounts", bankAccountListSchema);
  const [request, setRequest] = useState<BankFormRequest | null>(null);
  const addAccount = (currency: Currency) => setRequest({ currency, at: Date.now() });
  const format = useFormatter();
  const suspension = eligibility.data?.suspension ?? null;

  return (
    <section className="wallet payouts-page">
      <h1>{t("pageTitle")}</h1>
      <p className="muted">
        {t("pageIntro")} <Link href="/account/wallet">{t("toWallet")}</Link>
      </p>
      {/* An operator's suspension holds every payout: the creator reads why and what to do. */}
      {suspension && (
        <div className="card payout-suspension" role="alert">
          <strong>
            {t("suspension.title", {
              date: format.dateTime(new Date(suspension.since), { dateStyle: "long" }),
            })}
          </strong>
          <p>{t("suspension.reason", { reason: suspension.reason })}</p>
          <p className="muted">{t("suspension.next")}</p>
        </div>
      )}
      {/* Issue 32: what is owed holds every payout; said first, with why and what to do. */}
      <DebtNotice debts={eligibility.data?.debts ?? []} />
      <PayoutBalances
        defaultCurrency={defaultCurrency}
        accounts={accounts.data?.items ?? null}
        perCurrency={eligibility.data?.perCurrency ?? null}
        onAddAccount={addAccount}
      />
      <PayoutScheduleSection minimum={eligibility.data?.minimum ?? null} onAddAccount={addAccount} />
      {/* An approval arriving while the page is open reopens payouts: their rules are read again. */}
      <IdentitySection
        onApproved={() => {
          void queryClient.invalidateQueries({ queryKey: queryKeys.payoutEligibility });
          void queryClient.invalidateQueries({ queryKey: queryKeys.payoutSchedule });
        }}
      />
      <PayoutsSection request={request} />
    </section>
  );
}
