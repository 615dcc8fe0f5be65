"use client";

import { salesSummarySchema, walletSchema } from "@salelink/contracts/wallet";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { SalesChart } from "./sales-chart.tsx";

/** The dashboard home's figures: sales, revenue, balance, the last 30 days and the latest orders. */
export function SalesOverview() {
  const t = useTranslations("dashboard");
  const locale = useLocale();
  const summaryQuery = useApiQuery(queryKeys.salesSummary, "/sales/summary", salesSummarySchema);
  // The same cache entry as the wallet page's: a withdrawal there invalidates it here too.
  const walletQuery = useApiQuery(queryKeys.wallet, "/wallet", walletSchema);
  const failed = summaryQuery.failed || walletQuery.failed;
  const data =
    summaryQuery.data && walletQuery.data ? { summary: summaryQuery.data, wallet: walletQuery.data } : null;
  function load() {
    if (summaryQuery.failed) summaryQuery.reload();
    if (walletQuery.failed) walletQuery.reload();
  }

  if (failed) {
    return (
      <div role="alert" className="wallet-error">
        <p className="field-error">{t("loadFailed")}</p>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => load()}>
          {t("retry")}
        </button>
      </div>
    );
  }
  if (data === null) {
    return (
      <p aria-busy="true" className="muted loading">
        {t("loading")}
      </p>
    );
  }

  const { summary, wallet } = data;
  if (summary.salesCount === 0 && summary.latestOrders.length === 0) {
    return (
      <div className="card empty-state wallet-empty">
        <p>
          <strong>{t("emptyTitle")}</strong>
        </p>
        <p className="muted">{t("emptyHint")}</p>
        <Link className="btn btn-primary" href="/account/links">
          {t("goToLinks")}
        </Link>
      </div>
    );
  }

  const money = (minor: number, currency: string) => formatMoney(minor, currency, locale);
  const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: "medium" });
  const timeFormat = new Intl.DateTimeFormat(locale, { timeStyle: "medium" });
  return (
    <section className="sales-overview" aria-labelledby="dashboard-sales">
      <h2 id="dashboard-sales">{t("salesTitle")}</h2>
      <div className="stat-grid">
        <section className="card stat" aria-labelledby="stat-sales">
          <h3 id="stat-sales">{t("salesCount")}</h3>
          <p className="stat-value">{new Intl.NumberFormat(locale).format(summary.salesCount)}</p>
        </section>
        <section className="card stat" aria-labelledby="stat-revenue">
          <h3 id="stat-revenue">{t("revenue")}</h3>
          {summary.revenue.length === 0 ? (
            <p className="stat-value">—</p>
          ) : (
            summary.revenue.map((r) => (
              <p key={r.currency} className="stat-value">
                {money(r.amount, r.currency)}
              </p>
            ))
          )}
          <p className="muted stat-hint">{t("revenueHint")}</p>
        </section>
        <section className="card stat" aria-labelledby="stat-balance">
          <h3 id="stat-balance">{t("balance")}</h3>
          {wallet.balances.map((b) => (
            <p key={b.currency} className="stat-lines">
              <strong>{t("availableAmount", { amount: money(b.available, b.currency) })}</strong>
              <span className="muted">{t("pendingAmount", { amount: money(b.pending, b.currency) })}</span>
            </p>
          ))}
          <Link href="/account/wallet">{t("openWallet")}</Link>
        </section>
      </div>
      {/* The count, revenue and days come from rollups refreshed every few seconds (decision 031). */}
      <p className="muted stat-hint">
        {t("figuresAsOf", { time: timeFormat.format(new Date(summary.asOf)) })}
      </p>
      <SalesChart rows={summary.days} />
      {summary.latestOrders.length > 0 && (
        <section aria-labelledby="dashboard-orders">
          <h3 id="dashboard-orders">{t("latestOrders")}</h3>
          {/* Focusable so that a keyboard can scroll it where it is wider than the screen; on a phone
              each order is a card of labelled cells (wallet.css), so no column is off screen. */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1). */}
          <div className="tx-scroll" tabIndex={0}>
            <table className="tx-table tx-cards" aria-labelledby="dashboard-orders">
              <thead>
                <tr>
                  <th scope="col">{t("link")}</th>
                  <th scope="col" className="num">
                    {t("amount")}
                  </th>
                  <th scope="col">{t("status")}</th>
                  <th scope="col">{t("date")}</th>
                  <th scope="col">{t("buyer")}</th>
                </tr>
              </thead>
              <tbody>
                {summary.latestOrders.map((o) => (
                  <tr key={o.id}>
                    <td data-label={t("link")}>{o.title}</td>
                    <td className="num" data-label={t("amount")}>
                      {money(o.total, o.currency)}
                    </td>
                    <td data-label={t("status")}>
                      <span className="order-status" data-status={o.status}>
                        {t(`statuses.${o.status}`)}
                      </span>
                    </td>
                    <td data-label={t("date")}>
                      {o.paidAt ? (
                        <time dateTime={o.paidAt}>{dateFormat.format(new Date(o.paidAt))}</time>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td data-label={t("buyer")}>{o.buyer}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </section>
  );
}
