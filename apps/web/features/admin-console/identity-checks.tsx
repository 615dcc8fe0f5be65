"use client";

import { type AdminIdentityList, adminIdentityListSchema } from "@salelink/contracts/admin-accounts";
import { type IdentitySessionStatus, identitySessionStatuses } from "@salelink/contracts/identity";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { pageUrl, usePagedList } from "@/components/ui/use-paged-list.ts";
import { useUrlFilter } from "@/components/ui/use-url-filter.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { formatDate } from "./admin-format.ts";
import { AdminPagedList, FilterBar } from "./admin-list.tsx";
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
  // Kept in the address for a reload or a shared link (the overview links to the ones in review).
  const [filter, choose] = useUrlFilter("status", isFilter, "all");
  const list = usePagedList({
    queryKey: queryKeys.admin.identity,
    schema: adminIdentityListSchema,
    key: filter,
    url: pageOf,
  });

  return (
    <section className="admin-console admin-identity">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <FilterBar
        legend={t("filterLabel")}
        filters={filters}
        current={filter}
        label={(f) => (f === "all" ? t("all") : t(`status.${f}`))}
        onChoose={choose}
      />
      <AdminPagedList
        list={list}
        t={t}
        empty={filter === "all" ? undefined : t("emptyFiltered")}
        className="admin-identity-list"
      >
        {(session) => <SessionRow key={session.id} session={session} />}
      </AdminPagedList>
    </section>
  );
}

function SessionRow({ session }: { session: Session }) {
  const t = useTranslations("adminOverview.identity");
  const locale = useLocale();
  const date = (iso: string) => formatDate(iso, locale);
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
