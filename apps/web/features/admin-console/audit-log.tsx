"use client";

import {
  type AuditAction,
  type AuditEntryView,
  auditActions,
  auditListSchema,
} from "@salelink/contracts/admin";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { type ChangeEvent, useEffect, useState } from "react";
import { ListStates, LoadMore } from "@/components/ui/list-states.tsx";
import { pageUrl, usePagedList } from "@/components/ui/use-paged-list.ts";
import "./audit.css";

type Filter = AuditAction | "all";
const PAGE_SIZE = 30;

const isAction = (value: string | null): value is AuditAction => auditActions.some((a) => a === value);
const pageOf = (filter: Filter, cursor: string | null) =>
  pageUrl("/admin/audit", PAGE_SIZE, cursor, filter === "all" ? "" : `action=${encodeURIComponent(filter)}`);

/**
 * Every action an admin took, newest first: who, what, to whom, why and when. Read-only: the API
 * offers no way to change or remove an entry, and the database refuses it.
 */
export function AuditLog() {
  const t = useTranslations("adminOverview.audit");
  const [filter, setFilter] = useState<Filter | null>(null);
  const list = usePagedList({ schema: auditListSchema, key: filter, url: pageOf });

  useEffect(() => {
    const action = new URLSearchParams(window.location.search).get("action");
    setFilter(isAction(action) ? action : "all");
  }, []);

  function choose(event: ChangeEvent<HTMLSelectElement>) {
    const next = event.target.value;
    const chosen: Filter = isAction(next) ? next : "all";
    setFilter(chosen);
    // Kept in the address for a reload or a shared link.
    window.history.replaceState(
      window.history.state,
      "",
      `${window.location.pathname}${chosen === "all" ? "" : `?action=${encodeURIComponent(chosen)}`}`,
    );
  }

  return (
    <section className="admin-console admin-audit">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <p className="admin-readonly">{t("readOnly")}</p>
      <div className="field admin-select-filter">
        <label htmlFor="audit-action">{t("filterLabel")}</label>
        <select id="audit-action" value={filter ?? "all"} onChange={choose} disabled={filter === null}>
          <option value="all">{t("allActions")}</option>
          {auditActions.map((action) => (
            <option key={action} value={action}>
              {t.has(`actions.${action}`) ? t(`actions.${action}`) : action}
            </option>
          ))}
        </select>
      </div>
      <ListStates
        items={list.items}
        failed={list.failed}
        texts={{
          failed: t("loadFailed"),
          loading: t("loading"),
          empty: filter === "all" ? t("empty") : t("emptyFiltered"),
          emptyHint: t("emptyHint"),
        }}
        action={null}
      >
        {(items) => (
          <>
            <ol className="admin-audit-list" aria-label={t("listLabel")}>
              {items.map((entry) => (
                <AuditRow key={entry.id} entry={entry} />
              ))}
            </ol>
            {list.nextCursor !== null && (
              <LoadMore
                className="admin-more"
                pending={list.loadingMore}
                failed={list.moreFailed}
                onClick={list.loadMore}
                texts={{ more: t("loadMore"), loading: t("loadingMore"), failed: t("loadMoreFailed") }}
              />
            )}
          </>
        )}
      </ListStates>
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
