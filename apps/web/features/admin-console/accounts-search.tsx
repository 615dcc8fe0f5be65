"use client";

import { type AdminAccountSummary, adminAccountListSchema } from "@salelink/contracts/admin-accounts";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useEffect, useState } from "react";
import { ListStates, LoadMore } from "@/components/ui/list-states.tsx";
import { pageUrl, usePagedList } from "@/components/ui/use-paged-list.ts";
import { AccountBadges } from "./accounts-badges.tsx";
import { formatDate } from "./reports-reason-dialog.tsx";

const PAGE_SIZE = 20;
const pageOf = (q: string, cursor: string | null) =>
  pageUrl("/admin/accounts", PAGE_SIZE, cursor, q ? `q=${encodeURIComponent(q)}` : "");

/** Accounts found by e-mail or name, newest first; each opens its page. */
export function AccountsSearch() {
  const t = useTranslations("adminOps.accounts");
  const [query, setQuery] = useState<string | null>(null);
  const list = usePagedList({ schema: adminAccountListSchema, key: query, url: pageOf });

  useEffect(() => {
    setQuery(new URLSearchParams(window.location.search).get("q")?.trim() ?? "");
  }, []);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = String(new FormData(event.currentTarget).get("q") ?? "").trim();
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
      <search>
        <form className="admin-search" onSubmit={onSubmit}>
          <label htmlFor="account-search">{t("searchLabel")}</label>
          <div className="admin-search-row">
            <input
              id="account-search"
              name="q"
              type="search"
              defaultValue={query ?? ""}
              key={query === null ? 0 : 1}
            />
            <button type="submit" className="btn btn-primary">
              {t("search")}
            </button>
          </div>
        </form>
      </search>
      <ListStates
        items={list.items}
        failed={list.failed}
        texts={{
          failed: t("loadFailed"),
          loading: t("loading"),
          empty: t("empty"),
          emptyHint: t("emptyHint"),
        }}
        action={null}
      >
        {(items) => (
          <>
            <ul className="admin-ops-list" aria-label={t("listLabel")}>
              {items.map((account) => (
                <AccountRow key={account.id} account={account} />
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
