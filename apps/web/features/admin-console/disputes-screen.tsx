"use client";

import {
  adminDisputeListSchema,
  type DisputeStatusName,
  disputeReasons,
  disputeStatuses,
} from "@salelink/contracts/disputes";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { z } from "zod";
import { pageUrl, usePagedList } from "@/components/ui/use-paged-list.ts";
import { useUrlFilter } from "@/components/ui/use-url-filter.ts";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { toast } from "@/lib/toast.ts";
import { failureMessage, formatDate } from "./admin-format.ts";
import { AdminPagedList, FilterBar } from "./admin-list.tsx";
import { type DecidedDispute, DisputeRates, type ListedDispute, SandboxDecision } from "./dispute-parts.tsx";

type Filter = DisputeStatusName | "all";
const filters: readonly Filter[] = ["all", ...disputeStatuses];
const PAGE_SIZE = 20;
/** How often the list is read again while the sandbox's bank reports a decision. */
const DECISION_RECHECK_MS = 1500;

const isFilter = (value: string | null): value is Filter => filters.some((f) => f === value);
const pageOf = (filter: Filter, cursor: string | null) =>
  pageUrl("/admin/disputes", PAGE_SIZE, cursor, filter === "all" ? "" : `status=${filter}`);

/** Each page's disputes, each with its creator's dispute rate (the page lists the rates beside them). */
const pageSchema = adminDisputeListSchema.transform((page) => ({
  items: page.items.map(
    (item): ListedDispute => ({
      ...item,
      rate: page.rates.find((r) => r.creatorId === item.creator.id) ?? null,
    }),
  ),
  nextCursor: page.nextCursor,
}));

const decided = (status: DisputeStatusName) => status === "won" || status === "lost";

/**
 * /admin/disputes (issue 32): every chargeback, newest first, by status; its amount, creator, order,
 * deadline, evidence and status; each listed creator's dispute rate over 90 days; and, for the
 * sandbox's disputes still open, the sandbox bank's decision, labelled as the sandbox's.
 */
export function DisputesScreen() {
  const t = useTranslations("adminOps.disputes");
  const [filter, choose] = useUrlFilter("status", isFilter, "all");
  /** Disputes the sandbox's bank was asked to decide: the list is read until their status shows it. */
  const [deciding, setDeciding] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState<string | null>(null);
  const list = usePagedList({
    queryKey: queryKeys.admin.disputes,
    schema: pageSchema,
    key: filter,
    url: pageOf,
    pollEvery: (items) =>
      items.some((d) => deciding.has(d.id) && !decided(d.status)) ? DECISION_RECHECK_MS : false,
  });

  async function decide(dispute: ListedDispute, outcome: DecidedDispute) {
    setBusy(dispute.id);
    try {
      await api(`/admin/sandbox/disputes/${encodeURIComponent(dispute.providerDisputeId)}/decide`, {
        method: "POST",
        body: { outcome },
        // 204: nothing to read; the decision reaches the dispute through the sandbox's event.
        schema: z.null(),
      });
      setDeciding((ids) => new Set(ids).add(dispute.id));
      toast.success(outcome === "won" ? t("decidedWon") : t("decidedLost"), {
        description: dispute.creator.email,
      });
      list.reload();
    } catch (err) {
      toast.error(t("decideFailed"), { description: failureMessage(err, t("actionFailed")) });
      if (err instanceof ApiError && err.status === 409) list.reload();
    } finally {
      setBusy(null);
    }
  }

  const labels = (f: Filter) => (f === "all" ? t("filter.all") : t(`status.${f}`));

  return (
    <section className="admin-disputes">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <FilterBar
        legend={t("filterLabel")}
        filters={filters}
        current={filter}
        label={labels}
        onChoose={choose}
      />
      <AdminPagedList
        list={list}
        t={t}
        empty={filter === "all" || filter === null ? undefined : t("emptyFiltered")}
        className="admin-dispute-list"
      >
        {(dispute) => (
          <DisputeRow
            key={dispute.id}
            dispute={dispute}
            waiting={deciding.has(dispute.id) && !decided(dispute.status)}
            busy={busy === dispute.id}
            onDecide={(outcome) => decide(dispute, outcome)}
          />
        )}
      </AdminPagedList>
      {list.items && list.items.length > 0 && <DisputeRates items={list.items} />}
    </section>
  );
}

function DisputeRow({
  dispute,
  waiting,
  busy,
  onDecide,
}: {
  dispute: ListedDispute;
  waiting: boolean;
  busy: boolean;
  onDecide: (outcome: DecidedDispute) => void;
}) {
  const t = useTranslations("adminOps.disputes");
  const locale = useLocale();
  const amount = formatMoney(dispute.amountMinor, dispute.currency, locale);
  const date = (iso: string | null) => (iso === null ? "—" : formatDate(iso, locale));
  const evidence =
    dispute.evidenceSubmittedAt !== null
      ? t("evidenceSent", { date: date(dispute.evidenceSubmittedAt) })
      : dispute.evidenceFailure !== null
        ? t("evidenceFailed", { failure: dispute.evidenceFailure })
        : dispute.status === "needs_response"
          ? t("evidencePending")
          : t("evidenceNotSent");

  return (
    <li className="card admin-dispute" aria-label={t("rowLabel", { amount, email: dispute.creator.email })}>
      <div className="admin-payout-head">
        <div className="admin-payout-who">
          <strong>{amount}</strong>
          <span className="muted">{t("openedOn", { date: date(dispute.createdAt) })}</span>
        </div>
        <span className={`admin-status admin-dispute-${dispute.status}`}>
          {t(`status.${dispute.status}`)}
        </span>
      </div>
      <dl className="admin-payout-facts">
        <div>
          <dt>{t("creator")}</dt>
          <dd>
            <Link href={`/admin/accounts/${dispute.creator.id}`}>{dispute.creator.email}</Link>
          </dd>
        </div>
        <div>
          <dt>{t("order")}</dt>
          <dd>
            <Link href={`/admin/orders?q=${dispute.orderId}`} className="admin-id">
              {dispute.orderId}
            </Link>
          </dd>
        </div>
        <div>
          <dt>{t("reason")}</dt>
          <dd>{reasonText(t, dispute.reason)}</dd>
        </div>
        <div>
          <dt>{t("fee")}</dt>
          <dd>
            {formatMoney(dispute.feeMinor, dispute.currency, locale)}{" "}
            <span className="muted">
              ({dispute.feeBorneBy === "creator" ? t("feeByCreator") : t("feeByPlatform")})
            </span>
          </dd>
        </div>
        <div>
          <dt>{t("dueBy")}</dt>
          <dd>{date(dispute.evidenceDueBy)}</dd>
        </div>
        <div>
          <dt>{t("evidence")}</dt>
          <dd>{evidence}</dd>
        </div>
        <div>
          <dt>{t("debt")}</dt>
          <dd>{formatMoney(dispute.debtMinor, dispute.currency, locale)}</dd>
        </div>
        <div>
          <dt>{t("provider")}</dt>
          <dd>
            {dispute.provider === "sandbox" ? t("providerSandbox") : dispute.provider}{" "}
            <span className="muted admin-id">{dispute.providerDisputeId}</span>
          </dd>
        </div>
      </dl>
      {dispute.provider === "sandbox" && !decided(dispute.status) && (
        <SandboxDecision waiting={waiting} busy={busy} onDecide={onDecide} />
      )}
    </li>
  );
}

/** A provider's reason code the console words; another is shown as the provider names it. */
function reasonText(t: ReturnType<typeof useTranslations<"adminOps.disputes">>, reason: string): string {
  return (disputeReasons as readonly string[]).includes(reason)
    ? t(`reasons.${reason}`)
    : t("reasonOther", { code: reason });
}
