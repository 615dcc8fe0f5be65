"use client";

import { adminPayoutMismatchListSchema } from "@salelink/contracts/payouts";
import { useLocale, useTranslations } from "next-intl";
import { LoadFailed } from "@/components/ui/list-states.tsx";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { formatDate } from "./admin-format.ts";

/**
 * What Stripe Connect's reconciliation found (issue 32): a connected account holding money that no
 * payout in flight explains, or a transfer Stripe would not give back after a failed payout. Shown
 * above the queue while there is any; nothing with the other payout providers.
 */
export function PayoutMismatches() {
  const t = useTranslations("admin.payouts.mismatches");
  const locale = useLocale();
  const { data, failed, reload } = useApiQuery(
    queryKeys.admin.payoutMismatches,
    "/admin/payouts/mismatches",
    adminPayoutMismatchListSchema,
  );
  if (failed) return <LoadFailed message={t("loadFailed")} retry={t("retry")} onRetry={reload} />;
  if (!data || data.items.length === 0) return null;
  return (
    <section className="card payout-mismatches" aria-labelledby="payout-mismatches-title" role="alert">
      <h2 id="payout-mismatches-title">{t("title")}</h2>
      <p className="muted">{t("intro")}</p>
      <table className="admin-table" aria-labelledby="payout-mismatches-title">
        <thead>
          <tr>
            <th scope="col">{t("account")}</th>
            <th scope="col">{t("expected")}</th>
            <th scope="col">{t("actual")}</th>
            <th scope="col">{t("found")}</th>
          </tr>
        </thead>
        <tbody>
          {data.items.map((m) => (
            <tr key={m.id}>
              <td>
                {m.email}
                <br />
                <code>{m.accountId}</code>
                {m.reason && <p className="muted">{t("refused", { reason: m.reason })}</p>}
              </td>
              <td>{formatMoney(m.expectedMinor, m.currency, locale)}</td>
              <td>{formatMoney(m.actualMinor, m.currency, locale)}</td>
              <td>
                {formatDate(m.foundAt, locale)}
                <br />
                <span className="muted">{t("checked", { date: formatDate(m.checkedAt, locale) })}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
