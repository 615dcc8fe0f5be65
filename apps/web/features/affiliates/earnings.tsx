"use client";

import { type Campaign, type Earning, earningListSchema } from "@salelink/contracts/affiliates";
import { useLocale, useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import { LoadMore } from "@/components/ui/list-states.tsx";
import { api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";

const PAGE_SIZE = 20;

type Loaded = { items: Earning[]; nextCursor: string | null };

const pageUrl = (cursor: string | null) =>
  `/campaigns/earnings?limit=${PAGE_SIZE}${cursor === null ? "" : `&cursor=${cursor}`}`;

/** One row per commission (a paid order of a referred account), newest first, page by page. */
export function Earnings({ campaigns, version }: { campaigns: Campaign[]; version: number }) {
  const t = useTranslations("affiliates");
  const locale = useLocale();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failed, setFailed] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreFailed, setMoreFailed] = useState(false);

  const load = useCallback((signal?: AbortSignal) => {
    setFailed(false);
    setMoreFailed(false);
    api(pageUrl(null), { schema: earningListSchema, signal })
      .then(setLoaded)
      .catch(() => {
        if (!signal?.aborted) setFailed(true);
      });
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` says the statuses changed (a claim).
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load, version]);

  async function loadMore() {
    if (!loaded?.nextCursor) return;
    setLoadingMore(true);
    setMoreFailed(false);
    try {
      const page = await api(pageUrl(loaded.nextCursor), { schema: earningListSchema });
      setLoaded((now) => {
        if (!now) return now;
        const known = new Set(now.items.map((e) => e.orderId));
        return {
          items: [...now.items, ...page.items.filter((e) => !known.has(e.orderId))],
          nextCursor: page.nextCursor,
        };
      });
    } catch {
      setMoreFailed(true);
    } finally {
      setLoadingMore(false);
    }
  }

  const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium" });
  const campaignName = (id: string) => campaigns.find((c) => c.id === id)?.name ?? "—";

  return (
    <section className="aff-section" aria-labelledby="aff-earnings-title">
      <h2 id="aff-earnings-title">{t("earningsTitle")}</h2>
      {failed ? (
        <div role="alert" className="aff-error">
          <p className="field-error">{t("earningsFailed")}</p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => load()}>
            {t("retry")}
          </button>
        </div>
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
