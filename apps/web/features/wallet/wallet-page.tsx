"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import { walletSchema } from "@salelink/contracts/wallet";
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { IdentitySection } from "@/features/identity/identity-section.tsx";
import { queryKeys } from "@/lib/query-keys.ts";
import { Balances, HeldSales } from "./balances.tsx";
import { MonthlyStatements } from "./monthly-statements.tsx";
import { Transactions } from "./transactions.tsx";

/** My wallet: balances per currency, the sales on hold, and every money movement. */
export function WalletPage({ defaultCurrency }: { defaultCurrency: Currency }) {
  const t = useTranslations("wallet");
  const queryClient = useQueryClient();
  const { data: wallet, failed, reload } = useApiQuery(queryKeys.wallet, "/wallet", walletSchema);

  return (
    <section className="wallet">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      {failed ? (
        <div role="alert" className="wallet-error">
          <p className="field-error">{t("loadFailed")}</p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={reload}>
            {t("retry")}
          </button>
        </div>
      ) : wallet === null ? (
        <p aria-busy="true" className="muted loading">
          {t("loading")}
        </p>
      ) : (
        <>
          <Balances wallet={wallet} defaultCurrency={defaultCurrency} />
          <HeldSales wallet={wallet} />
        </>
      )}
      {/* The identity check's provider returns here: an approval reopens payouts, whose rules are read again. */}
      <IdentitySection
        onApproved={() => void queryClient.invalidateQueries({ queryKey: queryKeys.payoutEligibility })}
      />
      {/* Withdrawing, the schedule, bank accounts and each payout's timeline have their page (issue 23). */}
      <section className="wallet-section" aria-labelledby="wallet-payouts">
        <h2 id="wallet-payouts">{t("payoutsTitle")}</h2>
        <p className="muted">{t("payoutsIntro")}</p>
        <p>
          <Link className="btn btn-primary" href="/account/payouts">
            {t("payoutsLink")}
          </Link>
        </p>
      </section>
      <Transactions />
      <MonthlyStatements />
    </section>
  );
}
