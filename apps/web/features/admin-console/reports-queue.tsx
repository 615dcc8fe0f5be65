"use client";

import {
  type AdminReport,
  type AdminReportStatus,
  adminReportListSchema,
  adminReportSchema,
  adminReportStatuses,
} from "@salelink/contracts/admin-ops";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { pageUrl, usePagedList } from "@/components/ui/use-paged-list.ts";
import { useApiUrl } from "@/components/ui/use-runtime-config.ts";
import { useUrlFilter } from "@/components/ui/use-url-filter.ts";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { toast } from "@/lib/toast.ts";
import { failureMessage, formatDate } from "./admin-format.ts";
import { AdminPagedList, FilterBar } from "./admin-list.tsx";
import { ReasonDialog } from "./reason-dialog.tsx";

type Filter = AdminReportStatus | "all";
type Action = "dismiss" | "takedown";
const filters: readonly Filter[] = [...adminReportStatuses, "all"];
const PAGE_SIZE = 20;

const isFilter = (value: string | null): value is Filter => filters.some((f) => f === value);
const pageOf = (filter: Filter, cursor: string | null) =>
  pageUrl("/admin/reports", PAGE_SIZE, cursor, `status=${filter}`);

/**
 * The reports queue: open reports first (the default), each with the content in question, to dismiss
 * or to answer by taking the link down (no more sales; buyers who paid keep their access).
 */
export function ReportsQueue() {
  const t = useTranslations("adminOps.reports");
  const [filter, choose] = useUrlFilter("status", isFilter, "open");
  const list = usePagedList({
    queryKey: queryKeys.admin.reports,
    schema: adminReportListSchema,
    key: filter,
    url: pageOf,
  });
  const [acting, setActing] = useState<{ report: AdminReport; action: Action } | null>(null);
  // Pictures are paths under the API base (`/media/…`), not under this site: on the web's origin
  // they were 404s with their alt text spilling over the row.
  const apiUrl = useApiUrl();
  async function act(report: AdminReport, action: Action, reason: string): Promise<string | null> {
    try {
      const updated = await api(`/admin/reports/${report.id}/${action}`, {
        method: "POST",
        body: { reason },
        schema: adminReportSchema,
      });
      // A handled report leaves the open queue; elsewhere it is shown as it now stands.
      list.setItems((items, shown) =>
        shown === "all" || shown === updated.status
          ? items.map((r) => (r.id === updated.id ? updated : r))
          : items.filter((r) => r.id !== updated.id),
      );
      toast.success(action === "dismiss" ? t("dismissed") : t("takenDown"), {
        description: report.link.title,
      });
      return null;
    } catch (err) {
      // Another operator may have handled it meanwhile: show where it stands now.
      if (err instanceof ApiError && err.status === 409) list.reload();
      return failureMessage(err, t("actionFailed"));
    }
  }

  return (
    <section className="admin-ops">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <FilterBar
        legend={t("filterLabel")}
        filters={filters}
        current={filter}
        label={(f) => t(`filter.${f}`)}
        onChoose={choose}
      />
      <AdminPagedList
        list={list}
        t={t}
        empty={filter === "open" ? t("emptyOpen") : undefined}
        className="admin-ops-list"
      >
        {(report) => (
          <ReportRow
            key={report.id}
            report={report}
            apiUrl={apiUrl}
            onAct={(action) => setActing({ report, action })}
          />
        )}
      </AdminPagedList>
      {acting && (
        <ReasonDialog
          title={acting.action === "dismiss" ? t("dismissTitle") : t("takedownTitle")}
          intro={
            acting.action === "dismiss"
              ? t("dismissIntro", { title: acting.report.link.title })
              : t("takedownIntro", { title: acting.report.link.title })
          }
          reasonLabel={t("note")}
          submit={acting.action === "dismiss" ? t("dismiss") : t("takedown")}
          pending={t("saving")}
          onClose={() => setActing(null)}
          onConfirm={(reason) => act(acting.report, acting.action, reason)}
        />
      )}
    </section>
  );
}

function ReportRow({
  report,
  apiUrl,
  onAct,
}: {
  report: AdminReport;
  /** The API base the pictures' paths are under; null until known, when no picture is shown. */
  apiUrl: string | null;
  onAct: (action: Action) => void;
}) {
  const t = useTranslations("adminOps.reports");
  const all = useTranslations("adminOps");
  const locale = useLocale();
  const { link, content, order, handled } = report;
  const preview = content.previewUrl ?? content.coverUrl;

  return (
    <li className="card admin-ops-row" aria-label={t("rowLabel", { title: link.title })}>
      <div className="admin-ops-head">
        <div className="admin-ops-who">
          <strong>{t(`reason.${report.reason}`)}</strong>
          <span className="muted">{t("reportedOn", { date: formatDate(report.createdAt, locale) })}</span>
        </div>
        <span className={`admin-status admin-report-${report.status}`}>{t(`status.${report.status}`)}</span>
      </div>
      <blockquote className="admin-report-message">{report.message}</blockquote>
      <div className="admin-report-content">
        {preview && apiUrl !== null && (
          // The uploaded preview is served by the API's storage: not an image Next can optimise.
          // biome-ignore lint/performance/noImgElement: see above.
          <img
            src={`${apiUrl}${preview}`}
            alt={t("previewAlt", { title: content.title })}
            className="admin-report-preview"
          />
        )}
        <div>
          <p className="admin-ops-title">
            <a href={`/v/${link.token}`} target="_blank" rel="noreferrer">
              {content.title}
            </a>
          </p>
          {content.description && <p className="admin-report-description">{content.description}</p>}
          <p className="muted">
            {all(`linkStatus.${link.status}`)}
            {link.deleted && ` · ${t("linkDeleted")}`} · {t("creator", { email: link.creator.email })}
          </p>
        </div>
      </div>
      {order && (
        <p className="admin-report-order">
          {t("order", {
            id: order.id.slice(0, 8),
            total: formatMoney(order.total, order.currency, locale),
            status: all(`orderStatus.${order.status}`),
          })}
        </p>
      )}
      {handled && (
        <p className="muted">
          {t("handled", { email: handled.by?.email ?? "—", date: formatDate(handled.at, locale) })}
          {handled.note && <span className="admin-reason"> — {handled.note}</span>}
        </p>
      )}
      {report.status === "open" && (
        <div className="actions admin-actions">
          {!link.deleted && link.status !== "removed" && (
            <button type="button" className="btn btn-danger btn-sm" onClick={() => onAct("takedown")}>
              {t("takedown")}
            </button>
          )}
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => onAct("dismiss")}>
            {t("dismiss")}
          </button>
        </div>
      )}
    </li>
  );
}
