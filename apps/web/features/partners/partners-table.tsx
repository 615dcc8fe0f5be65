"use client";

import { messageResponseSchema } from "@salelink/contracts/auth";
import type { Currency } from "@salelink/contracts/business-rules";
import type { PartnerBlockReason } from "@salelink/contracts/partner-sales";
import {
  PARTNER_LIST_DEFAULT_LIMIT,
  type Partner,
  type PartnerList,
  type PartnerSortKey,
  partnerListSchema,
  partnerMembershipStatuses,
} from "@salelink/contracts/partners";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { FilteredStates, filteredTexts, OffsetPager } from "@/components/ui/list-states.tsx";
import { useQueryState } from "@/components/ui/use-api-query.ts";
import { formatAmounts } from "@/features/affiliates/money-list.ts";
import { ApiError, api } from "@/lib/api.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { toast } from "@/lib/toast.ts";
import {
  amountsOf,
  DEFAULT_PARTNER_SORT,
  nextSort,
  type PartnerSort,
  partnersPath,
} from "./partner-format.ts";
import { RemovePartnerDialog } from "./remove-partner-dialog.tsx";

const LIMIT = PARTNER_LIST_DEFAULT_LIMIT;

/** The words of a reason a sale earned its partner nothing (the creator must see why). */
const blockKey: Record<PartnerBlockReason, string> = {
  "self-purchase": "blocked.selfPurchase",
  "shared-signals": "blocked.sharedSignals",
};

/**
 * The creator's partners and applications: filtered by status, sorted by any figure (the API sorts,
 * so that paging stays right), a page at a time; approve or refuse an application, remove a partner.
 */
export function PartnersTable({ defaultCurrency }: { defaultCurrency: Currency }) {
  const t = useTranslations("partners.list");
  const locale = useLocale();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState("");
  const [order, setOrder] = useState<PartnerSort>(DEFAULT_PARTNER_SORT);
  const [offset, setOffset] = useState(0);
  const [busy, setBusy] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Partner | null>(null);
  const path = partnersPath(status, order, offset, LIMIT);
  const {
    data: list,
    failed,
    reload,
  } = useQueryState<PartnerList>(
    useQuery({
      queryKey: [...queryKeys.partners.list, status, order.sort, order.dir, offset],
      queryFn: ({ signal }) => api(path, { schema: partnerListSchema, signal }),
      // Another page or order: the rows on screen stay until the new ones come.
      placeholderData: keepPreviousData,
    }),
  );
  const money = (p: Partner, key: Parameters<typeof amountsOf>[1]) =>
    formatAmounts(amountsOf(p.stats.money, key), locale, defaultCurrency);
  const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium" });

  async function act(partner: Partner, action: "approve" | "refuse" | "remove") {
    setBusy(partner.id);
    try {
      const answer = await api(
        action === "remove"
          ? `/partner-programme/partners/${partner.id}`
          : `/partner-programme/partners/${partner.id}/${action}`,
        { method: action === "remove" ? "DELETE" : "POST", schema: messageResponseSchema },
      );
      toast.success(answer.message);
      setRemoving(null);
    } catch (err) {
      toast.error(err instanceof ApiError && err.body ? err.body.message : t("actionFailed"));
    } finally {
      setBusy(null);
      // Either way the list may have changed (another tab decided first).
      void queryClient.invalidateQueries({ queryKey: queryKeys.partners.list });
    }
  }

  const sortHeader = (key: PartnerSortKey, label: string, numeric = true) => {
    const current = order.sort === key;
    return (
      <th
        scope="col"
        className={numeric ? "num" : undefined}
        aria-sort={current ? (order.dir === "asc" ? "ascending" : "descending") : "none"}
      >
        <button
          type="button"
          className="partners-sort"
          onClick={() => {
            setOrder((now) => nextSort(now, key));
            setOffset(0);
          }}
        >
          {label}
          <span aria-hidden="true" className="partners-sort-mark">
            {current ? (order.dir === "asc" ? "▲" : "▼") : "↕"}
          </span>
        </button>
      </th>
    );
  };

  return (
    <section className="aff-section" aria-labelledby="partners-list-title">
      <div className="aff-section-head">
        <h2 id="partners-list-title">{t("title")}</h2>
        <div className="field aff-chart-filter">
          <label htmlFor="partners-status">{t("status")}</label>
          <select
            id="partners-status"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setOffset(0);
            }}
          >
            <option value="">{t("statusAll")}</option>
            {partnerMembershipStatuses.map((s) => (
              <option key={s} value={s}>
                {t(`statuses.${s}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <FilteredStates
        failed={failed}
        loading={list === null}
        empty={list?.total === 0}
        filtered={status !== ""}
        texts={filteredTexts(t)}
        onRetry={reload}
      >
        {list && (
          <>
            <div className="card partners-table-wrap">
              <table className="aff-table partners-table" aria-labelledby="partners-list-title">
                <thead>
                  <tr>
                    <th scope="col">{t("partner")}</th>
                    <th scope="col">{t("status")}</th>
                    <th scope="col">{t("code")}</th>
                    {sortHeader("createdAt", t("since"), false)}
                    {sortHeader("clicks", t("clicks"))}
                    {sortHeader("sales", t("sales"))}
                    {sortHeader("revenue", t("revenue"))}
                    {sortHeader("held", t("held"))}
                    {sortHeader("owed", t("owed"))}
                    {sortHeader("paid", t("paid"))}
                    <th scope="col">
                      <span className="sr-only">{t("actions")}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((p) => (
                    <tr key={p.id} data-status={p.status}>
                      <td>
                        <span className="aff-account">{p.email}</span>
                        {p.stats.blocked
                          .filter((b) => b.sales > 0)
                          .map((b) => (
                            <p key={b.reason} className="partners-blocked">
                              {t(blockKey[b.reason], { count: b.sales })}
                            </p>
                          ))}
                      </td>
                      <td>
                        <span className="aff-status" data-status={p.status}>
                          {t(`statuses.${p.status}`)}
                        </span>
                      </td>
                      <td>
                        <code>{p.code}</code>
                      </td>
                      <td>
                        <time dateTime={p.createdAt}>{day.format(new Date(p.createdAt))}</time>
                      </td>
                      <td className="num">
                        {p.stats.clicks}
                        {p.stats.botClicks + p.stats.filteredClicks > 0 && (
                          <small className="muted partners-apart">
                            {t("apart", { bots: p.stats.botClicks, filtered: p.stats.filteredClicks })}
                          </small>
                        )}
                      </td>
                      <td className="num">
                        {p.stats.sales}
                        {p.stats.refunds > 0 && (
                          <small className="muted partners-apart">
                            {t("refunds", { count: p.stats.refunds })}
                          </small>
                        )}
                      </td>
                      <td className="num">{money(p, "revenueMinor")}</td>
                      <td className="num">{money(p, "heldMinor")}</td>
                      <td className="num">{money(p, "owedMinor")}</td>
                      <td className="num">{money(p, "paidMinor")}</td>
                      <td>
                        <div className="partners-row-actions">
                          {p.status === "applied" && (
                            <>
                              <button
                                type="button"
                                className="btn btn-primary btn-sm"
                                disabled={busy === p.id}
                                aria-label={t("approveLabel", { email: p.email })}
                                onClick={() => act(p, "approve")}
                              >
                                {t("approve")}
                              </button>
                              <button
                                type="button"
                                className="btn btn-ghost btn-sm"
                                disabled={busy === p.id}
                                aria-label={t("refuseLabel", { email: p.email })}
                                onClick={() => act(p, "refuse")}
                              >
                                {t("refuse")}
                              </button>
                            </>
                          )}
                          {p.status === "active" && (
                            <button
                              type="button"
                              className="btn btn-ghost btn-sm"
                              disabled={busy === p.id}
                              aria-label={t("removeLabel", { email: p.email })}
                              onClick={() => setRemoving(p)}
                            >
                              {t("remove")}
                            </button>
                          )}
                        </div>
                      </td>
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
      {removing && (
        <RemovePartnerDialog
          email={removing.email}
          pending={busy === removing.id}
          onConfirm={() => act(removing, "remove")}
          onClose={() => setRemoving(null)}
        />
      )}
    </section>
  );
}
