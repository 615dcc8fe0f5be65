"use client";

import { type Campaign, referralListSchema } from "@salelink/contracts/affiliates";
import type { Currency } from "@salelink/contracts/business-rules";
import { useLocale, useTranslations } from "next-intl";
import { LoadFailed } from "@/components/ui/list-states.tsx";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { formatAmounts } from "./money-list.ts";

/** The accounts that signed up through a campaign, anonymised by the API. */
export function Referrals({
  campaigns,
  defaultCurrency,
}: {
  campaigns: Campaign[];
  defaultCurrency: Currency;
}) {
  const t = useTranslations("affiliates");
  const locale = useLocale();
  // A claim invalidates the figures: they are read again.
  const {
    data: list,
    failed,
    reload: load,
  } = useApiQuery(queryKeys.affiliates.referrals, "/campaigns/referrals", referralListSchema);

  const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium" });
  const campaignName = (id: string) => campaigns.find((c) => c.id === id)?.name ?? "—";

  return (
    <section className="aff-section" aria-labelledby="aff-referrals-title">
      <h2 id="aff-referrals-title">{t("referralsTitle")}</h2>
      {failed ? (
        <LoadFailed message={t("referralsFailed")} retry={t("retry")} onRetry={() => load()} />
      ) : list === null ? (
        <p aria-busy="true" className="muted">
          {t("referralsLoading")}
        </p>
      ) : list.items.length === 0 ? (
        <p className="empty">{t("referralsEmpty")}</p>
      ) : (
        <div className="aff-scroll">
          <table className="aff-table" aria-labelledby="aff-referrals-title">
            <thead>
              <tr>
                <th scope="col">{t("account")}</th>
                <th scope="col">{t("campaign")}</th>
                <th scope="col">{t("joined")}</th>
                <th scope="col">{t("earnsUntil")}</th>
                <th scope="col" className="num">
                  {t("sales")}
                </th>
                <th scope="col" className="num">
                  {t("earned")}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((r) => (
                <tr key={r.id}>
                  <td className="aff-account">{r.account}</td>
                  <td>{campaignName(r.campaignId)}</td>
                  <td>
                    <time dateTime={r.joinedAt}>{day.format(new Date(r.joinedAt))}</time>
                  </td>
                  <td>
                    <time dateTime={r.earnsUntil}>{day.format(new Date(r.earnsUntil))}</time>
                  </td>
                  <td className="num">{r.sales}</td>
                  <td className="num">{formatAmounts(r.earned, locale, defaultCurrency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
