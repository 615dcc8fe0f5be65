"use client";

import { type Campaign, earningListSchema } from "@salelink/contracts/affiliates";
import { useLocale, useTranslations } from "next-intl";
import { LoadFailed, LoadMore } from "@/components/ui/list-states.tsx";
import { pageUrl, usePagedList } from "@/components/ui/use-paged-list.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";

const PAGE_SIZE = 20;

/** One row per commission (a paid order of a referred account), newest first, page by page. */
export function Earnings({ campaigns }: { campaigns: Campaign[] }) {
  const t = useTranslations("affiliates");
  const locale = useLocale();
  // A claim changes the statuses: it invalidates the list, read again.
  const list = usePagedList({
    queryKey: queryKeys.affiliates.earnings,
    schema: earningListSchema,
    key: "earnings",
    url: (_key, cursor) => pageUrl("/campaigns/earnings", PAGE_SIZE, cursor),
    idOf: (earning) => earning.orderId,
  });
  const loaded = list.items === null ? null : { items: list.items, nextCursor: list.nextCursor };
  const { failed, loadingMore, moreFailed, loadMore } = list;
  const load = list.reload;

  const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium" });
  const campaignName = (id: string) => campaigns.find((c) => c.id === id)?.name ?? "—";

  return (
    <section className="aff-section" aria-labelledby="aff-earnings-title">
      <h2 id="aff-earnings-title">{t("earningsTitle")}</h2>
      {failed ? (
        <LoadFailed message={t("earningsFailed")} retry={t("retry")} onRetry={() => load()} />
      ) : loaded === null ? (
        <p aria-busy="true" className="muted">
          {t("earningsLoading")}
        </p>
      ) : loaded.items.length === 0 ? (
        <p className="empty">{t("earningsEmpty")}</p>
      ) : (
        <>
          <div className="aff-scroll">
            <table className="aff-table" aria-labelledby="aff-earnings-title">
              <thead>
                <tr>
                  <th scope="col">{t("date")}</th>
                  <th scope="col">{t("account")}</th>
                  <th scope="col">{t("campaign")}</th>
                  <th scope="col" className="num">
                    {t("saleAmount")}
                  </th>
                  <th scope="col" className="num">
                    {t("commission")}
                  </th>
                  <th scope="col">{t("status")}</th>
                </tr>
              </thead>
              <tbody>
                {loaded.items.map((e) => (
                  <tr key={e.orderId}>
                    <td>
                      <time dateTime={e.paidAt}>{day.format(new Date(e.paidAt))}</time>
                    </td>
                    <td className="aff-account">{e.account}</td>
                    <td>{campaignName(e.campaignId)}</td>
                    <td className="num">{formatMoney(e.saleAmount, e.currency, locale)}</td>
                    <td className="num aff-commission">{formatMoney(e.commission, e.currency, locale)}</td>
                    <td>
                      <span className="aff-status" data-status={e.status}>
                        {t(`earningStatus.${e.status}`)}
                      </span>
                      {e.status === "pending" && (
                        <small className="muted aff-note">
                          {t("claimableFrom", { date: day.format(new Date(e.availableAt)) })}
                        </small>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {loaded.nextCursor !== null && (
            <LoadMore
              className="aff-more"
              pending={loadingMore}
              failed={moreFailed}
              onClick={loadMore}
              texts={{ more: t("loadMore"), loading: t("loadingMore"), failed: t("moreFailed") }}
            />
          )}
        </>
      )}
    </section>
  );
}
