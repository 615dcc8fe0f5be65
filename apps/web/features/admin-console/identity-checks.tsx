"use client";

import { type AdminIdentityList, adminIdentityListSchema } from "@salelink/contracts/admin-accounts";
import { type IdentitySessionStatus, identitySessionStatuses } from "@salelink/contracts/identity";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { ListStates, LoadMore } from "@/components/ui/list-states.tsx";
import { pageUrl, usePagedList } from "@/components/ui/use-paged-list.ts";
import "./audit.css";

type Filter = IdentitySessionStatus | "all";
type Session = AdminIdentityList["items"][number];
const filters: readonly Filter[] = ["all", ...identitySessionStatuses];
const PAGE_SIZE = 30;

const isFilter = (value: string | null): value is Filter => filters.some((f) => f === value);
const pageOf = (filter: Filter, cursor: string | null) =>
  pageUrl("/admin/identity", PAGE_SIZE, cursor, filter === "all" ? "" : `status=${filter}`);

/** Identity verification sessions across all accounts, newest first, with the provider's decision. */
export function IdentityChecks() {
  const t = useTranslations("adminOverview.identity");
  const [filter, setFilter] = useState<Filter | null>(null);
  const list = usePagedList({ schema: adminIdentityListSchema, key: filter, url: pageOf });

  useEffect(() => {
    const status = new URLSearchParams(window.location.search).get("status");
    setFilter(isFilter(status) ? status : "all");
  }, []);

  function choose(next: Filter) {
    setFilter(next);
    // Kept in the address for a reload or a shared link (the overview links to the ones in review).
    window.history.replaceState(
      window.history.state,
      "",
      `${window.location.pathname}${next === "all" ? "" : `?status=${next}`}`,
    );
  }

  return (
    <section className="admin-console admin-identity">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <fieldset className="admin-filters">
        <legend className="sr-only">{t("filterLabel")}</legend>
        {filters.map((f) => (
          <button
            key={f}
            type="button"
            className="admin-filter"
            aria-pressed={filter === f}
            onClick={() => choose(f)}
          >
            {f === "all" ? t("all") : t(`status.${f}`)}
          </button>
        ))}
      </fieldset>
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
            <ul className="admin-identity-list" aria-label={t("listLabel")}>
              {items.map((session) => (
                <SessionRow key={session.id} session={session} />
              ))}
            </ul>
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

function SessionRow({ session }: { session: Session }) {
  const t = useTranslations("adminOverview.identity");
  const locale = useLocale();
  const date = (iso: string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
  const status = t(`status.${session.status}`);

  return (
    <li
      className="card admin-identity-entry"
      aria-label={t("rowLabel", { email: session.account.email, status })}
    >
      <div className="admin-identity-head">
        <Link href={`/admin/accounts/${session.account.id}`} className="admin-identity-email">
          <strong>{session.account.email}</strong>
        </Link>
        <span className="admin-identity-status" data-status={session.status}>
          {status}
        </span>
      </div>
      <dl className="admin-facts">
        <div>
          <dt>{t("provider")}</dt>
          <dd>{t(`providers.${session.provider}`)}</dd>
        </div>
        <div>
          <dt>{t("started")}</dt>
          <dd>{date(session.createdAt)}</dd>
        </div>
        <div>
          <dt>{t("decided")}</dt>
          <dd>{session.decidedAt ? date(session.decidedAt) : t("notDecided")}</dd>
        </div>
        {session.reason && (
          <div className="admin-facts-wide">
            <dt>{t("reason")}</dt>
            <dd>{session.reason}</dd>
          </div>
        )}
      </dl>
    </li>
  );
}
