"use client";

import { type AdminOrder, adminOrderListSchema } from "@salelink/contracts/admin-ops";
import { messageResponseSchema } from "@salelink/contracts/auth";
import { type OrderStatus, orderStatuses } from "@salelink/contracts/checkout";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { pageUrl, usePagedList } from "@/components/ui/use-paged-list.ts";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { toast } from "@/lib/toast.ts";
import { failureMessage, formatDate } from "./admin-format.ts";
import { AdminPagedList, AdminSearch, FilterBar } from "./admin-list.tsx";
import { ReasonDialog } from "./reason-dialog.tsx";

type Filter = OrderStatus | "all";
const filters: readonly Filter[] = ["all", ...orderStatuses];
const PAGE_SIZE = 20;
/** How often the list is read again while a refund waits for the provider's confirmation. */
const REFUND_RECHECK_MS = 1500;

const isFilter = (value: string | null): value is Filter => filters.some((f) => f === value);

/** The list's key: what was searched and the status shown, as the query string the API takes. */
function queryOf(q: string, status: Filter): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (status !== "all") params.set("status", status);
  return params.toString();
}
const pageOf = (query: string, cursor: string | null) => pageUrl("/admin/orders", PAGE_SIZE, cursor, query);

/** Orders found by id, buyer e-mail or link title, newest first; a paid one can be refunded in full. */
export function OrdersSearch() {
  const t = useTranslations("adminOps.orders");
  const [search, setSearch] = useState<{ q: string; status: Filter } | null>(null);
  const key = search === null ? null : queryOf(search.q, search.status);
  /** Refunds asked for and not yet confirmed by the provider (the order stays "paid" until then). */
  const [underWay, setUnderWay] = useState<ReadonlySet<string>>(new Set());
  const list = usePagedList({
    queryKey: queryKeys.admin.orders,
    schema: adminOrderListSchema,
    key,
    url: pageOf,
    // The list is read again until every refund asked for shows.
    pollEvery: (orders) =>
      orders.some((o) => underWay.has(o.id) && o.status === "paid") ? REFUND_RECHECK_MS : false,
  });
  const [refunding, setRefunding] = useState<AdminOrder | null>(null);

  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const status = params.get("status");
    setSearch({ q: params.get("q")?.trim() ?? "", status: isFilter(status) ? status : "all" });
  }, []);

  function show(next: { q: string; status: Filter }) {
    setSearch(next);
    const query = queryOf(next.q, next.status);
    window.history.replaceState(
      window.history.state,
      "",
      `${window.location.pathname}${query ? `?${query}` : ""}`,
    );
  }

  async function refund(order: AdminOrder, reason: string): Promise<string | null> {
    try {
      await api(`/admin/orders/${order.id}/refund`, {
        method: "POST",
        body: { reason },
        schema: messageResponseSchema,
      });
      // Asked: the provider confirms it shortly, and the list is read until it shows refunded.
      setUnderWay((ids) => new Set(ids).add(order.id));
      toast.success(t("refundAsked"), { description: order.buyerEmail });
      return null;
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) list.reload();
      return failureMessage(err, t("actionFailed"));
    }
  }

  return (
    <section className="admin-ops">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <AdminSearch
        id="order-search"
        label={t("searchLabel")}
        submit={t("search")}
        value={search?.q ?? null}
        onSearch={(q) => show({ q, status: search?.status ?? "all" })}
      />
      <FilterBar
        legend={t("filterLabel")}
        filters={filters}
        current={search?.status ?? null}
        label={(f) => t(`filter.${f}`)}
        onChoose={(status) => show({ q: search?.q ?? "", status })}
      />
      <AdminPagedList list={list} t={t} className="admin-ops-list">
        {(order) => (
          <OrderRow
            key={order.id}
            order={order}
            refundUnderWay={underWay.has(order.id)}
            onRefund={() => setRefunding(order)}
          />
        )}
      </AdminPagedList>
      {refunding && <RefundDialog order={refunding} onClose={() => setRefunding(null)} onConfirm={refund} />}
    </section>
  );
}

function RefundDialog({
  order,
  onClose,
  onConfirm,
}: {
  order: AdminOrder;
  onClose: () => void;
  onConfirm: (order: AdminOrder, reason: string) => Promise<string | null>;
}) {
  const t = useTranslations("adminOps.orders");
  const locale = useLocale();
  return (
    <ReasonDialog
      title={t("refundTitle")}
      intro={
        <p>
          {t("refundIntro", {
            total: formatMoney(order.total, order.currency, locale),
            email: order.buyerEmail,
            title: order.linkTitle,
          })}
        </p>
      }
      submit={t("refundConfirm")}
      pending={t("refunding")}
      onClose={onClose}
      onConfirm={(reason) => onConfirm(order, reason)}
    />
  );
}

function OrderRow({
  order,
  refundUnderWay,
  onRefund,
}: {
  order: AdminOrder;
  refundUnderWay: boolean;
  onRefund: () => void;
}) {
  const t = useTranslations("adminOps.orders");
  const all = useTranslations("adminOps");
  const locale = useLocale();
  const total = formatMoney(order.total, order.currency, locale);
  return (
    <li
      className="card admin-ops-row"
      aria-label={t("rowLabel", { title: order.linkTitle, email: order.buyerEmail })}
    >
      <div className="admin-ops-head">
        <div className="admin-ops-who">
          <strong className="admin-ops-title">{order.linkTitle}</strong>
          <span className="muted">
            {t("buyer", { email: order.buyerEmail })} · {t("creator", { email: order.creator.email })}
          </span>
        </div>
        <div className="admin-ops-money">
          <strong className="admin-money">{total}</strong>
          <span className={`admin-status admin-order-${order.status}`}>
            {all(`orderStatus.${order.status}`)}
          </span>
        </div>
      </div>
      <p className="muted admin-order-facts">
        <span className="admin-id">{order.id}</span> · {all(`paymentProvider.${order.provider}`)} ·{" "}
        {order.refundedAt
          ? t("refundedOn", { date: formatDate(order.refundedAt, locale) })
          : order.paidAt
            ? t("paidOn", { date: formatDate(order.paidAt, locale) })
            : t("createdOn", { date: formatDate(order.createdAt, locale) })}
      </p>
      {order.status === "paid" && refundUnderWay && (
        <p className="admin-order-refunding" role="status">
          {t("refundUnderWay")}
        </p>
      )}
      {order.status === "paid" && !refundUnderWay && (
        <div className="actions admin-actions">
          <button type="button" className="btn btn-danger btn-sm" onClick={onRefund}>
            {t("refund")}
          </button>
        </div>
      )}
    </li>
  );
}
