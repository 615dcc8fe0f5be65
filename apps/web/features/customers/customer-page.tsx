"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import { type CustomerDetail, customerDetailSchema } from "@salelink/contracts/customers";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { DetailStates } from "@/components/ui/list-states.tsx";
import { useQueryState } from "@/components/ui/use-api-query.ts";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { formatTotals } from "./customer-format.ts";

/** /account/customers/{id}: one customer of the creator's, with their orders, each opening its sale. */
export function CustomerPage({
  customerId,
  defaultCurrency,
}: {
  customerId: string;
  defaultCurrency: Currency;
}) {
  const t = useTranslations("customers");
  const locale = useLocale();
  const query = useQuery({
    queryKey: queryKeys.customers.one(customerId),
    queryFn: ({ signal }) =>
      api(`/customers/${encodeURIComponent(customerId)}`, { schema: customerDetailSchema, signal }),
  });
  const { data, failed, reload } = useQueryState<CustomerDetail>(query);
  // A malformed id (400) is as unknown as a missing one, or another creator's customer.
  const notFound =
    query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
  const back = (
    <p>
      <Link href="/account/customers">{t("back")}</Link>
    </p>
  );

  if (failed || data === null) {
    return (
      <DetailStates
        className="customer-page"
        back={back}
        failed={failed}
        notFound={notFound}
        texts={{
          notFound: t("notFound"),
          failed: t("loadFailedOne"),
          retry: t("retry"),
          loading: t("loadingOne"),
        }}
        onRetry={reload}
      />
    );
  }

  const { customer, orders } = data;
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
  return (
    <section className="customer-page" aria-labelledby="customer-title">
      {back}
      <h1 id="customer-title">{customer.email}</h1>
      <dl className="customer-facts">
        <div>
          <dt>{t("firstPurchase")}</dt>
          <dd>{dateTime.format(new Date(customer.firstPaidAt))}</dd>
        </div>
        <div>
          <dt>{t("lastPurchase")}</dt>
          <dd>{dateTime.format(new Date(customer.lastPaidAt))}</dd>
        </div>
        <div>
          <dt>{t("orders")}</dt>
          <dd>{customer.ordersCount}</dd>
        </div>
        <div>
          <dt>{t("totalPaid")}</dt>
          <dd>{formatTotals(customer.totals, locale, defaultCurrency)}</dd>
        </div>
        <div>
          <dt>{t("updates")}</dt>
          <dd>
            {customer.unsubscribedAt
              ? t("unsubscribedOn", { date: dateTime.format(new Date(customer.unsubscribedAt)) })
              : t("subscribed")}
          </dd>
        </div>
      </dl>
      <h2 id="customer-orders">{t("ordersTitle")}</h2>
      {customer.ordersCount > orders.length && (
        <p className="muted">{t("ordersShown", { shown: orders.length, total: customer.ordersCount })}</p>
      )}
      <div className="card partners-table-wrap">
        <table className="aff-table customers-table" aria-labelledby="customer-orders">
          <thead>
            <tr>
              <th scope="col">{t("paidAt")}</th>
              <th scope="col">{t("link")}</th>
              <th scope="col">{t("status")}</th>
              <th scope="col" className="num">
                {t("total")}
              </th>
              <th scope="col" className="num">
                {t("refunded")}
              </th>
            </tr>
          </thead>
          <tbody>
            {orders.map((o) => (
              <tr key={o.id}>
                <td>
                  <Link href={`/account/sales/${o.id}`}>
                    <time dateTime={o.paidAt}>{dateTime.format(new Date(o.paidAt))}</time>
                  </Link>
                </td>
                <td>{o.linkTitle}</td>
                <td>{t(`statuses.${o.status}`)}</td>
                <td className="num">{formatMoney(o.totalMinor, o.currency, locale)}</td>
                <td className="num">
                  {o.refundedMinor > 0 ? formatMoney(o.refundedMinor, o.currency, locale) : "—"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
