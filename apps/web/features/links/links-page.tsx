"use client";

import { type Link, linkListResponseSchema, profileListResponseSchema } from "@salelink/contracts";
import NextLink from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { LoadMore } from "@/components/ui/list-states.tsx";
import { pageUrl, usePagedList } from "@/components/ui/use-paged-list.ts";
import { api } from "@/lib/api.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { runtimeConfig } from "@/lib/runtime-config.ts";
import { LinkDialog, type PriceRules } from "./link-dialog.tsx";
import { LinkItem } from "./link-item.tsx";
import { ShowLinkDialog } from "./show-link-dialog.tsx";

const PAGE_SIZE = 20;

/** My sales links: list with load more, create and edit in a modal, show, rename, pause, delete. */
export function LinksPage({ rules }: { rules: PriceRules }) {
  const t = useTranslations("links");
  const list = usePagedList({
    queryKey: queryKeys.links,
    schema: linkListResponseSchema,
    key: "/links",
    url: (path, cursor) => pageUrl(path, PAGE_SIZE, cursor),
    alongside: async (signal) => {
      const [profiles, config] = await Promise.all([
        api("/profiles", { schema: profileListResponseSchema, signal }),
        runtimeConfig(),
      ]);
      return { profiles: profiles.items, apiUrl: config.apiUrl };
    },
  });
  /** undefined: no dialog; null: creating; a link: editing it. */
  const [editing, setEditing] = useState<Link | null | undefined>(undefined);
  const [showing, setShowing] = useState<Link | null>(null);

  const replace = (saved: Link) =>
    list.setItems((links) => links.map((l) => (l.id === saved.id ? saved : l)));

  function onSaved(saved: Link) {
    if (editing) replace(saved);
    else list.setItems((links) => [saved, ...links]);
    setEditing(undefined);
  }

  if (list.failed) {
    return (
      <section className="links">
        <h1>{t("title")}</h1>
        <p className="field-error" role="alert">
          {t("loadFailed")}
        </p>
        <button type="button" className="btn btn-ghost" onClick={list.reload}>
          {t("retry")}
        </button>
      </section>
    );
  }

  const data = list.items && list.extra ? { links: list.items, ...list.extra } : null;
  const handles = new Map(data?.profiles.map((p) => [p.id, p.handle]));
  const hasProfile = (data?.profiles.length ?? 0) > 0;
  const createButton = (
    <button type="button" className="btn btn-primary" onClick={() => setEditing(null)}>
      {t("create")}
    </button>
  );

  return (
    <section className="links">
      <div className="links-head">
        <div>
          <h1>{t("title")}</h1>
          <p className="muted">{t("intro")}</p>
        </div>
        {data && hasProfile && data.links.length > 0 && createButton}
      </div>
      {data === null ? (
        <p aria-busy="true" className="loading">
          {t("loading")}
        </p>
      ) : !hasProfile ? (
        <div className="card empty-state">
          <p>
            <strong>{t("noProfile")}</strong>
          </p>
          <p className="muted">{t("noProfileHint")}</p>
          <NextLink className="btn btn-primary" href="/account/profiles">
            {t("goToProfiles")}
          </NextLink>
        </div>
      ) : data.links.length === 0 ? (
        <div className="card empty-state">
          <p>
            <strong>{t("empty")}</strong>
          </p>
          <p className="muted">{t("emptyHint")}</p>
          {createButton}
        </div>
      ) : null}
      {data && data.links.length > 0 && (
        <ul className="link-list">
          {data.links.map((link) => (
            <LinkItem
              key={link.id}
              link={link}
              profileHandle={link.profileId ? (handles.get(link.profileId) ?? null) : null}
              apiUrl={data.apiUrl}
              onChanged={replace}
              onDeleted={(id) => list.setItems((links) => links.filter((l) => l.id !== id))}
              onEdit={() => setEditing(link)}
              onShow={() => setShowing(link)}
            />
          ))}
        </ul>
      )}
      {list.nextCursor !== null && (
        <LoadMore
          className="links-more"
          pending={list.loadingMore}
          failed={list.moreFailed}
          onClick={list.loadMore}
          texts={{ more: t("loadMore"), loading: t("loadingMore"), failed: t("loadFailed") }}
        />
      )}
      {data && editing !== undefined && (
        <LinkDialog
          key={editing?.id ?? "new"}
          link={editing}
          profiles={data.profiles}
          rules={rules}
          apiUrl={data.apiUrl}
          onClose={() => setEditing(undefined)}
          onSaved={onSaved}
        />
      )}
      {showing && <ShowLinkDialog key={showing.id} link={showing} onClose={() => setShowing(null)} />}
    </section>
  );
}
