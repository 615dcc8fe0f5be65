"use client";

import {
  type AdminPayout,
  adminPayoutListSchema,
  adminPayoutSchema,
  type PayoutStatus,
  payoutStatuses,
} from "@salelink/contracts/payouts";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { pageUrl, usePagedList } from "@/components/ui/use-paged-list.ts";
import { useApiUrl } from "@/components/ui/use-runtime-config.ts";
import { useUrlFilter } from "@/components/ui/use-url-filter.ts";
import { failureMessage, formatDate } from "@/features/admin-console/admin-format.ts";
import { AdminPagedList, FilterBar } from "@/features/admin-console/admin-list.tsx";
import { ReasonDialog } from "@/features/admin-console/reason-dialog.tsx";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { toast } from "@/lib/toast.ts";

type Filter = PayoutStatus | "all";
type Action = "approve" | "paid";
const filters: readonly Filter[] = [...payoutStatuses, "all"];
const PAGE_SIZE = 20;

const isFilter = (value: string | null): value is Filter => filters.some((f) => f === value);
const pageOf = (filter: Filter, cursor: string | null) =>
  pageUrl("/admin/payouts", PAGE_SIZE, cursor, filter === "all" ? "" : `status=${filter}`);

/**
 * The operators' payout queue: requested payouts first (the default filter), each with the checks
 * that decide whether it may go out, and the transitions an operator makes by hand.
 */
export function PayoutsQueue() {
  const t = useTranslations("admin.payouts");
  // Kept in the address for a reload or a shared link; the default needs no query.
  const [filter, choose] = useUrlFilter("status", isFilter, "requested");
  const list = usePagedList({
    queryKey: queryKeys.admin.payouts,
    schema: adminPayoutListSchema,
    key: filter,
    url: pageOf,
  });
  /** The payout an action is running on, so its buttons show progress and others stay usable. */
  const [busy, setBusy] = useState<{ id: string; action: Action } | null>(null);
  const [failing, setFailing] = useState<AdminPayout | null>(null);

  /** A payout that changed status leaves a filtered queue; in "all" it is updated in place. */
  function replace(updated: AdminPayout) {
    list.setItems((items, shown) =>
      shown === "all" || shown === updated.status
        ? items.map((p) => (p.id === updated.id ? updated : p))
        : items.filter((p) => p.id !== updated.id),
    );
  }

  const failure = (err: unknown) => failureMessage(err, t("actionFailed"));

  async function act(payout: AdminPayout, action: Action) {
    setBusy({ id: payout.id, action });
    try {
      const updated = await api(`/admin/payouts/${payout.id}/${action}`, {
        method: "POST",
        schema: adminPayoutSchema,
      });
      replace(updated);
      toast.success(action === "approve" ? t("approved") : t("markedPaid"), {
        description: payout.user.email,
      });
    } catch (err) {
      toast.error(action === "approve" ? t("approveFailed") : t("paidFailed"), {
        description: failure(err),
      });
      // Someone else may have moved it: show where it stands now.
      if (err instanceof ApiError && err.status === 409) list.reload();
    } finally {
      setBusy(null);
    }
  }

  async function fail(payout: AdminPayout, reason: string): Promise<string | null> {
    try {
      const updated = await api(`/admin/payouts/${payout.id}/fail`, {
        method: "POST",
        body: { reason },
        schema: adminPayoutSchema,
      });
      replace(updated);
      toast.success(t("markedFailed"), { description: payout.user.email });
      return null;
    } catch (err) {
      return failure(err);
    }
  }

  const labels: Record<Filter, string> = {
    requested: t("filter.requested"),
    processing: t("filter.processing"),
    paid: t("filter.paid"),
    failed: t("filter.failed"),
    all: t("filter.all"),
  };

  return (
    <section className="admin-payouts">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <PayoutsExport filter={filter} />
      <FilterBar
        legend={t("filterLabel")}
        filters={filters}
        current={filter}
        label={(f) => labels[f]}
        onChoose={choose}
      />
      <AdminPagedList
        list={list}
        t={t}
        empty={filter === "requested" ? t("emptyRequested") : undefined}
        className="admin-payout-list"
      >
        {(payout) => (
          <PayoutRow
            key={payout.id}
            payout={payout}
            busy={busy?.id === payout.id ? busy.action : null}
            onAct={(action) => act(payout, action)}
            onFail={() => setFailing(payout)}
          />
        )}
      </AdminPagedList>
      {failing && <FailDialog payout={failing} onClose={() => setFailing(null)} onConfirm={fail} />}
    </section>
  );
}

/**
 * The files for the bank: the payouts of the filter shown (approved ones, "processing", by default),
 * as CSV or as a SEPA pain.001 credit transfer. Links to the API: the browser downloads them itself.
 */
function PayoutsExport({ filter }: { filter: Filter | null }) {
  const t = useTranslations("admin.payouts");
  const apiUrl = useApiUrl();
  if (apiUrl === null) return null;
  const status = filter === null || filter === "all" ? "processing" : filter;
  const href = (format: "csv" | "pain001") =>
    `${apiUrl}/admin/payouts/export?format=${format}&status=${status}`;
  return (
    <div className="admin-export">
      <div className="actions">
        <a className="btn btn-ghost btn-sm" href={href("csv")}>
          {t("exportCsv")}
        </a>
        <a className="btn btn-ghost btn-sm" href={href("pain001")}>
          {t("exportSepa")}
        </a>
      </div>
      <p className="muted">{t("exportHint")}</p>
    </div>
  );
}

/** Marking a payout failed needs a reason: the creator reads it, and the amount returns to their balance. */
function FailDialog({
  payout,
  onClose,
  onConfirm,
}: {
  payout: AdminPayout;
  onClose: () => void;
  onConfirm: (payout: AdminPayout, reason: string) => Promise<string | null>;
}) {
  const t = useTranslations("admin.payouts");
  const locale = useLocale();
  return (
    <ReasonDialog
      title={t("failTitle")}
      intro={
        <p>
          {t("failIntro", {
            amount: formatMoney(payout.amount, payout.currency, locale),
            email: payout.user.email,
          })}
        </p>
      }
      reasonLabel={t("failReason")}
      reasonHint={t("failReasonHint")}
      reasonInvalid={t("failReasonInvalid")}
      submit={t("markFailed")}
      pending={t("failing")}
      onClose={onClose}
      onConfirm={(reason) => onConfirm(payout, reason)}
    />
  );
}

function PayoutRow({
  payout,
  busy,
  onAct,
  onFail,
}: {
  payout: AdminPayout;
  busy: Action | null;
  onAct: (action: Action) => void;
  onFail: () => void;
}) {
  const t = useTranslations("admin.payouts");
  const locale = useLocale();
  const amount = formatMoney(payout.amount, payout.currency, locale);
  const date = (iso: string) => formatDate(iso, locale);
  const checks = [
    { ok: payout.identityApproved, label: t("checks.identity") },
    { ok: payout.onboardingCompleted, label: t("checks.onboarding") },
    { ok: payout.bankAccountOnFile, label: t("checks.bankAccount") },
  ];
  const allChecked = checks.every((c) => c.ok);
  // Stripe reports the outcome of the payouts it holds; only ours are marked by hand.
  const manual = payout.provider === "manual";
  const statusLabel: Record<PayoutStatus, string> = {
    requested: t("status.requested"),
    processing: t("status.processing"),
    paid: t("status.paid"),
    failed: t("status.failed"),
  };

  return (
    <li className="card admin-payout" aria-label={t("rowLabel", { email: payout.user.email, amount })}>
      <div className="admin-payout-head">
        <div className="admin-payout-who">
          <strong className="admin-payout-email">{payout.user.email}</strong>
          <span className="muted">{t("requestedOn", { date: date(payout.requestedAt) })}</span>
        </div>
        <div className="admin-payout-money">
          <strong className="admin-payout-amount">{amount}</strong>
          <span className={`admin-status admin-status-${payout.status}`}>{statusLabel[payout.status]}</span>
        </div>
      </div>
      <dl className="admin-payout-facts">
        <div>
          <dt>{t("bank")}</dt>
          <dd>
            <span className="admin-iban">{payout.bankAccount.ibanMasked}</span>
            <span className="muted"> · {payout.bankAccount.holderName}</span>
          </dd>
        </div>
        <div>
          <dt>{t("origin")}</dt>
          <dd>{payout.origin === "schedule" ? t("originSchedule") : t("originRequest")}</dd>
        </div>
        <div>
          <dt>{t("provider")}</dt>
          <dd>
            {manual
              ? t("providerManual")
              : payout.provider === "sandbox"
                ? t("providerSandbox")
                : t("providerStripe")}
            {payout.providerPayoutId && <span className="muted"> · {payout.providerPayoutId}</span>}
          </dd>
        </div>
        {payout.processingAt && (
          <div>
            <dt>{t("approvedAt")}</dt>
            <dd>{date(payout.processingAt)}</dd>
          </div>
        )}
        {payout.paidAt && (
          <div>
            <dt>{t("paidAt")}</dt>
            <dd>{date(payout.paidAt)}</dd>
          </div>
        )}
        {payout.failedAt && (
          <div>
            <dt>{t("failedAt")}</dt>
            <dd>
              {date(payout.failedAt)}
              {payout.failureReason && <span className="admin-reason"> — {payout.failureReason}</span>}
            </dd>
          </div>
        )}
      </dl>
      {payout.heldRules.length > 0 && (
        <div className="admin-held">
          <strong>{t("heldBy")}</strong>
          <ul aria-label={t("heldBy")}>
            {payout.heldRules.map((rule) => (
              <li key={rule}>{t(`rules.${rule}`)}</li>
            ))}
          </ul>
        </div>
      )}
      <ul className="admin-checks" aria-label={t("checks.label")}>
        {checks.map((c) => (
          <li key={c.label} data-ok={c.ok}>
            <span aria-hidden="true">{c.ok ? "✓" : "✗"}</span>
            {c.label}
            <span className="sr-only">: {c.ok ? t("checks.yes") : t("checks.no")}</span>
          </li>
        ))}
      </ul>
      {(payout.status === "requested" || (payout.status === "processing" && manual)) && (
        <div className="actions admin-actions">
          {payout.status === "requested" && (
            <button
              type="button"
              className="btn btn-primary btn-sm"
              disabled={busy !== null || !allChecked}
              aria-busy={busy === "approve"}
              aria-describedby={allChecked ? undefined : `checks-${payout.id}`}
              onClick={() => onAct("approve")}
            >
              {busy === "approve" ? t("approving") : t("approve")}
            </button>
          )}
          {payout.status === "processing" && (
            <button
              type="button"
              className="btn btn-primary btn-sm"
              disabled={busy !== null}
              aria-busy={busy === "paid"}
              onClick={() => onAct("paid")}
            >
              {busy === "paid" ? t("markingPaid") : t("markPaid")}
            </button>
          )}
          <button type="button" className="btn btn-ghost btn-sm" disabled={busy !== null} onClick={onFail}>
            {t("markFailed")}
          </button>
          {!allChecked && payout.status === "requested" && (
            <p id={`checks-${payout.id}`} className="field-error admin-checks-hint">
              {t("checksMissing")}
            </p>
          )}
        </div>
      )}
      {payout.status === "processing" && !manual && (
        <p className="muted">{t(payout.provider === "sandbox" ? "sandboxReports" : "stripeReports")}</p>
      )}
    </li>
  );
}
