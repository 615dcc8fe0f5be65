"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import {
  CUSTOMER_LIST_DEFAULT_LIMIT,
  CUSTOMER_SEARCH_MAX,
  type CustomerList,
  type CustomerSortKey,
  customerListSchema,
  customerSortKeys,
} from "@salelink/contracts/customers";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { FilteredStates, filteredTexts, OffsetPager } from "@/components/ui/list-states.tsx";
import { useQueryState } from "@/components/ui/use-api-query.ts";
import { useApiUrl } from "@/components/ui/use-runtime-config.ts";
import { useMyLinks } from "@/features/links/my-links.ts";
import { api } from "@/lib/api.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import {
  type CustomerFilter,
  customersExportUrl,
  customersPath,
  formatTotals,
  NO_FILTER,
} from "./customer-format.ts";

const LIMIT = CUSTOMER_LIST_DEFAULT_LIMIT;

const sortKey: Record<CustomerSortKey, string> = {
  last: "sort.last",
  first: "sort.first",
  orders: "sort.orders",
};

/**
 * The creator's customers (issue 21): every buyer of their links, searched by address, filtered by
 * link, sorted and paged by the API; the CSV export of the same filter; each row opens the customer.
 */
export function CustomersPage({ defaultCurrency }: { defaultCurrency: Currency }) {
  const t = useTranslations("customers");
  const locale = useLocale();
  const apiUrl = useApiUrl();
  const links = useMyLinks();
  const [typed, setTyped] = useState("");
  const [filter, setFilter] = useState<CustomerFilter>(NO_FILTER);
  const [sort, setSort] = useState<CustomerSortKey>("last");
  const [offset, setOffset] = useState(0);
  const path = customersPath(filter, sort, offset, LIMIT);
  const {
    data: list,
    failed,
    reload,
  } = useQueryState<CustomerList>(
    useQuery({
      queryKey: [...queryKeys.customers.list, filter.q.trim(), filter.linkId, sort, offset],
      queryFn: ({ signal }) => api(path, { schema: customerListSchema, signal }),
      // Another page or filter: the rows on screen stay until the new ones come.
      placeholderData: keepPreviousData,
    }),
  );
  const filtered = filter.q.trim() !== "" || filter.linkId !== "";
  const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium" });

  function change(next: Partial<CustomerFilter>) {
    setFilter((now) => ({ ...now, ...next }));
    setOffset(0);
  }
  function search(event: FormEvent) {
    event.preventDefault();
    change({ q: typed });
  }

  return (
    <section className="aff-page customers-page" aria-labelledby="customers-title">
      <div className="aff-section-head">
        <h1 id="customers-title">{t("title")}</h1>
        {apiUrl && (
          <a
            className="btn btn-ghost btn-sm"
            href={customersExportUrl(apiUrl, filter)}
            title={t("exportHint")}
          >
            {t("exportCsv")}
          </a>
        )}
      </div>
      <p className="muted">{t("intro")}</p>
      <div className="customers-filters">
        <form className="field customers-search" onSubmit={search}>
          <label htmlFor="customers-q">{t("search")}</label>
          <div className="customers-search-row">
            <input
              id="customers-q"
              type="search"
              value={typed}
              maxLength={CUSTOMER_SEARCH_MAX}
              placeholder={t("searchPlaceholder")}
              onChange={(e) => {
                setTyped(e.target.value);
                // Cleared: the whole list again, without a second click.
                if (e.target.value === "" && filter.q !== "") change({ q: "" });
              }}
            />
            <button type="submit" className="btn btn-ghost btn-sm">
              {t("searchButton")}
            </button>
          </div>
        </form>
        <div className="field">
          <label htmlFor="customers-link">{t("link")}</label>
          <select
            id="customers-link"
            value={filter.linkId}
            onChange={(e) => change({ linkId: e.target.value })}
            disabled={!links.data}
          >
            <option value="">{t("allLinks")}</option>
            {links.data?.map((l) => (
              <option key={l.id} value={l.id}>
                {l.title}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="customers-sort">{t("sortBy")}</label>
          <select
            id="customers-sort"
            value={sort}
            onChange={(e) => {
              const next = customerSortKeys.find((k) => k === e.target.value);
              if (next) {
                setSort(next);
                setOffset(0);
              }
            }}
          >
            {customerSortKeys.map((k) => (
              <option key={k} value={k}>
                {t(sortKey[k])}
              </option>
            ))}
          </select>
        </div>
      </div>
      <FilteredStates
        failed={failed}
        loading={list === null}
        empty={list?.total === 0}
        filtered={filtered}
        texts={filteredTexts(t)}
        onRetry={reload}
      >
        {list && (
          <>
            <div className="card partners-table-wrap">
              <table className="aff-table customers-table" aria-labelledby="customers-title">
                <thead>
                  <tr>
                    <th scope="col">{t("email")}</th>
                    <th scope="col">{t("firstPurchase")}</th>
                    <th scope="col">{t("lastPurchase")}</th>
                    <th scope="col" className="num">
                      {t("orders")}
                    </th>
                    <th scope="col" className="num">
                      {t("totalPaid")}
                    </th>
                    <th scope="col">{t("updates")}</th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((c) => (
                    <tr key={c.id}>
                      <td>
                        <Link href={`/account/customers/${c.id}`} className="aff-account">
                          {c.email}
                        </Link>
                      </td>
                      <td>
                        <time dateTime={c.firstPaidAt}>{day.format(new Date(c.firstPaidAt))}</time>
                      </td>
                      <td>
                        <time dateTime={c.lastPaidAt}>{day.format(new Date(c.lastPaidAt))}</time>
                      </td>
                      <td className="num">{c.ordersCount}</td>
                      <td className="num">{formatTotals(c.totals, locale, defaultCurrency)}</td>
                      <td>{c.unsubscribedAt ? t("unsubscribed") : t("subscribed")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <OffsetPager
              label={t("paging")}
              offset={offset}
              limit={LIMIT}
              shown={list.items.length}
              total={list.total}
              nextOffset={list.nextOffset}
              onOffset={setOffset}
              texts={{ showing: (range) => t("showing", range), previous: t("previous"), next: t("next") }}
            />
          </>
        )}
      </FilteredStates>
    </section>
  );
}
