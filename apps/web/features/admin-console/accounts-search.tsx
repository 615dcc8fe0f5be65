"use client";

import { type AdminAccountSummary, adminAccountListSchema } from "@salelink/contracts/admin-accounts";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { pageUrl, usePagedList } from "@/components/ui/use-paged-list.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { AccountBadges } from "./accounts-badges.tsx";
import { formatDate } from "./admin-format.ts";
import { AdminPagedList, AdminSearch } from "./admin-list.tsx";

const PAGE_SIZE = 20;
const pageOf = (q: string, cursor: string | null) =>
  pageUrl("/admin/accounts", PAGE_SIZE, cursor, q ? `q=${encodeURIComponent(q)}` : "");

/** Accounts found by e-mail or name, newest first; each opens its page. */
export function AccountsSearch() {
  const t = useTranslations("adminOps.accounts");
  const [query, setQuery] = useState<string | null>(null);
  const list = usePagedList({
    queryKey: queryKeys.admin.accounts,
    schema: adminAccountListSchema,
    key: query,
    url: pageOf,
  });

  useEffect(() => {
    setQuery(new URLSearchParams(window.location.search).get("q")?.trim() ?? "");
  }, []);

  function search(q: string) {
    setQuery(q);
    // Kept in the address for a reload, and for coming back from an account's page.
    window.history.replaceState(
      window.history.state,
      "",
      `${window.location.pathname}${q ? `?q=${encodeURIComponent(q)}` : ""}`,
    );
  }

  return (
    <section className="admin-ops">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <AdminSearch
        id="account-search"
        label={t("searchLabel")}
        submit={t("search")}
        value={query}
        onSearch={search}
      />
      <AdminPagedList list={list} t={t} className="admin-ops-list">
        {(account) => <AccountRow key={account.id} account={account} />}
      </AdminPagedList>
    </section>
  );
}

function AccountRow({ account }: { account: AdminAccountSummary }) {
  const t = useTranslations("adminOps.accounts");
  const locale = useLocale();
  return (
    <li className="card admin-ops-row" aria-label={account.email}>
      <div className="admin-ops-head">
        <Link href={`/admin/accounts/${account.id}`} className="admin-ops-title">
          {account.email}
        </Link>
        <span className="muted">{t("joined", { date: formatDate(account.createdAt, locale, false) })}</span>
      </div>
      <AccountBadges account={account} />
    </li>
  );
}
