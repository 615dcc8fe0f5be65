"use client";

import {
  type AuditAction,
  type AuditEntryView,
  auditActions,
  auditListSchema,
} from "@salelink/contracts/admin";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { pageUrl, usePagedList } from "@/components/ui/use-paged-list.ts";
import { useUrlFilter } from "@/components/ui/use-url-filter.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { AdminPagedList } from "./admin-list.tsx";
import "./audit.css";

type Filter = AuditAction | "all";
const PAGE_SIZE = 30;

const isFilter = (value: string | null): value is Filter =>
  value === "all" || auditActions.some((a) => a === value);
const pageOf = (filter: Filter, cursor: string | null) =>
  pageUrl("/admin/audit", PAGE_SIZE, cursor, filter === "all" ? "" : `action=${encodeURIComponent(filter)}`);

/**
 * Every action an admin took, newest first: who, what, to whom, why and when. Read-only: the API
 * offers no way to change or remove an entry, and the database refuses it.
 */
export function AuditLog() {
  const t = useTranslations("adminOverview.audit");
  // Kept in the address for a reload or a shared link.
  const [filter, choose] = useUrlFilter("action", isFilter, "all");
  const list = usePagedList({
    queryKey: queryKeys.admin.audit,
    schema: auditListSchema,
    key: filter,
    url: pageOf,
  });

  return (
    <section className="admin-console admin-audit">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <p className="admin-readonly">{t("readOnly")}</p>
      <div className="field admin-select-filter">
        <label htmlFor="audit-action">{t("filterLabel")}</label>
        <select
          id="audit-action"
          value={filter ?? "all"}
          onChange={(event) => choose(isFilter(event.target.value) ? event.target.value : "all")}
          disabled={filter === null}
        >
          <option value="all">{t("allActions")}</option>
          {auditActions.map((action) => (
            <option key={action} value={action}>
              {t.has(`actions.${action}`) ? t(`actions.${action}`) : action}
            </option>
          ))}
        </select>
      </div>
      <AdminPagedList
        list={list}
        t={t}
        empty={filter === "all" ? undefined : t("emptyFiltered")}
        ordered
        className="admin-audit-list"
      >
        {(entry) => <AuditRow key={entry.id} entry={entry} />}
      </AdminPagedList>
    </section>
  );
}

const targetTypes = ["account", "order", "payout", "report", "link", "maintenance"] as const;
const isTargetType = (value: string): value is (typeof targetTypes)[number] =>
  targetTypes.some((type) => type === value);

function AuditRow({ entry }: { entry: AuditEntryView }) {
  const t = useTranslations("adminOverview.audit");
  const locale = useLocale();
  const when = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium" }).format(
    new Date(entry.createdAt),
  );
  // An action added to the contract before its label is shown as the API names it, never as an error.
  const what = t.has(`actions.${entry.action}`) ? t(`actions.${entry.action}`) : entry.action;
  const type = isTargetType(entry.targetType) ? t(`targets.${entry.targetType}`) : entry.targetType;

  return (
    <li
      className="card admin-audit-entry"
      aria-label={t("rowLabel", { action: what, email: entry.actor.email })}
    >
      <div className="admin-audit-head">
        <span className={`admin-audit-action admin-audit-${entry.action.split(".")[0]}`}>{what}</span>
        <time dateTime={entry.createdAt} className="muted">
          {when}
        </time>
      </div>
      <dl className="admin-facts">
        <div>
          <dt>{t("who")}</dt>
          <dd>{entry.actor.email}</dd>
        </div>
        <div>
          <dt>{t("target")}</dt>
          <dd>
            {type}
            {entry.targetType !== "maintenance" && (
              <>
                {" · "}
                {entry.targetType === "account" ? (
                  <Link href={`/admin/accounts/${entry.targetId}`} className="admin-id">
                    {entry.targetId}
                  </Link>
                ) : (
                  <span className="admin-id">{entry.targetId}</span>
                )}
              </>
            )}
          </dd>
        </div>
        <div className="admin-facts-wide">
          <dt>{t("why")}</dt>
          <dd>{entry.reason}</dd>
        </div>
      </dl>
    </li>
  );
}
