"use client";

import { currencies } from "@salelink/contracts/business-rules";
import { type Transaction, transactionKinds, transactionListSchema } from "@salelink/contracts/wallet";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { LoadMore } from "@/components/ui/list-states.tsx";
import { pageUrl, usePagedList } from "@/components/ui/use-paged-list.ts";
import { useApiUrl } from "@/components/ui/use-runtime-config.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { filtersFrom, filtersQuery, noFilters, type TransactionFilters } from "./filters.ts";

const PAGE_SIZE = 25;

/**
 * Every money movement, newest first, page by page. The filters live in the page's query (a
 * reload or a shared address keeps them) and the CSV export carries the same ones.
 */
export function Transactions() {
  const t = useTranslations("wallet");
  const locale = useLocale();
  /** null until read from the address (only the browser knows it: the page is rendered statically). */
  const [filters, setFilterState] = useState<TransactionFilters | null>(null);
  const query = filters ? filtersQuery(filters) : null;
  const list = usePagedList({
    queryKey: queryKeys.transactions,
    schema: transactionListSchema,
    key: query,
    url: (of, cursor) => pageUrl("/transactions", PAGE_SIZE, cursor, of),
  });
  const apiUrl = useApiUrl();
  useEffect(() => {
    setFilterState(filtersFrom(new URLSearchParams(window.location.search)));
  }, []);

  function setFilters(next: TransactionFilters) {
    setFilterState(next);
    const search = filtersQuery(next);
    // The address keeps the filters for a reload or a shared link, without a server round trip.
    window.history.replaceState(
      window.history.state,
      "",
      `${window.location.pathname}${search ? `?${search}` : ""}`,
    );
  }

  if (filters === null) return null;
  const filtered = query !== "";
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
  const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium" });
  const signed = (tx: Transaction) =>
    `${tx.amount > 0 ? "+" : ""}${formatMoney(tx.amount, tx.currency, locale)}`;

  return (
    <section className="wallet-section" aria-labelledby="wallet-transactions">
      <div className="tx-head">
        <h2 id="wallet-transactions">{t("transactions")}</h2>
        {apiUrl && (
          <a
            className="btn btn-ghost btn-sm"
            href={`${apiUrl}/transactions.csv${query ? `?${query}` : ""}`}
            title={t("exportHint")}
          >
            {t("exportCsv")}
          </a>
        )}
      </div>
      <fieldset className="tx-filters">
        <legend className="sr-only">{t("filters")}</legend>
        <div className="field">
          <label htmlFor="tx-kind">{t("kind")}</label>
          <select
            id="tx-kind"
            value={filters.kind}
            onChange={(e) => setFilters({ ...filters, kind: e.target.value as TransactionFilters["kind"] })}
          >
            <option value="">{t("kindAll")}</option>
            {transactionKinds.map((kind) => (
              <option key={kind} value={kind}>
                {t(`kinds.${kind}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="tx-currency">{t("currency")}</label>
          <select
            id="tx-currency"
            value={filters.currency}
            onChange={(e) =>
              setFilters({ ...filters, currency: e.target.value as TransactionFilters["currency"] })
            }
          >
            <option value="">{t("currencyAll")}</option>
            {currencies.map((currency) => (
              <option key={currency} value={currency}>
                {currency}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="tx-from">{t("from")}</label>
          <input
            id="tx-from"
            type="date"
            value={filters.from}
            max={filters.to || undefined}
            onChange={(e) => setFilters({ ...filters, from: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="tx-to">{t("to")}</label>
          <input
            id="tx-to"
            type="date"
            value={filters.to}
            min={filters.from || undefined}
            onChange={(e) => setFilters({ ...filters, to: e.target.value })}
          />
        </div>
        {filtered && (
          <button
            type="button"
            className="btn btn-ghost btn-sm tx-clear"
            onClick={() => setFilters(noFilters)}
          >
            {t("clearFilters")}
          </button>
        )}
      </fieldset>
      {list.failed ? (
        <div role="alert" className="wallet-error">
          <p className="field-error">{t("txLoadFailed")}</p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={list.reload}>
            {t("retry")}
          </button>
        </div>
      ) : list.items === null ? (
        <p aria-busy="true" className="muted loading">
          {t("txLoading")}
        </p>
      ) : list.items.length === 0 ? (
        filtered ? (
          <p className="empty">{t("noMatch")}</p>
        ) : (
          <div className="card empty-state wallet-empty">
            <p>
              <strong>{t("empty")}</strong>
            </p>
            <p className="muted">{t("emptyHint")}</p>
          </div>
        )
      ) : (
        <>
          <div className="tx-scroll">
            <table className="tx-table" aria-labelledby="wallet-transactions">
              <thead>
                <tr>
                  <th scope="col">{t("date")}</th>
                  <th scope="col">{t("what")}</th>
                  <th scope="col">{t("sale")}</th>
                  <th scope="col">{t("account")}</th>
                  <th scope="col" className="num">
                    {t("amount")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((tx) => (
                  <tr key={tx.id}>
                    <td>
                      <time dateTime={tx.createdAt}>{dateTime.format(new Date(tx.createdAt))}</time>
                    </td>
                    <td>
                      {t(`kinds.${tx.kind}`)}
                      {tx.account === "pending" && tx.amount > 0 && tx.availableAt && (
                        <small className="muted tx-note">
                          {t("heldUntil", { date: day.format(new Date(tx.availableAt)) })}
                        </small>
                      )}
                    </td>
                    <td>{tx.title ?? "—"}</td>
                    <td>{t(`accounts.${tx.account}`)}</td>
                    <td className="num tx-amount" data-sign={Math.sign(tx.amount)}>
                      {signed(tx)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {list.nextCursor !== null && (
            <LoadMore
              className="tx-more"
              pending={list.loadingMore}
              failed={list.moreFailed}
              onClick={list.loadMore}
              texts={{ more: t("loadMore"), loading: t("loadingMore"), failed: t("moreFailed") }}
            />
          )}
        </>
      )}
    </section>
  );
}
