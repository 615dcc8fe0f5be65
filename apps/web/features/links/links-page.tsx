"use client";

import {
  type CreatorProfile,
  type Link,
  linkListResponseSchema,
  profileListResponseSchema,
} from "@salelink/contracts";
import NextLink from "next/link";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import { LoadMore } from "@/components/ui/list-states.tsx";
import { api } from "@/lib/api.ts";
import { runtimeConfig } from "@/lib/runtime-config.ts";
import { LinkDialog, type PriceRules } from "./link-dialog.tsx";
import { LinkItem } from "./link-item.tsx";
import { ShowLinkDialog } from "./show-link-dialog.tsx";

const PAGE_SIZE = 20;

type Loaded = { links: Link[]; nextCursor: string | null; profiles: CreatorProfile[]; apiUrl: string };

/** My sales links: list with load more, create and edit in a modal, show, rename, pause, delete. */
export function LinksPage({ rules }: { rules: PriceRules }) {
  const t = useTranslations("links");
  const [data, setData] = useState<Loaded | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreFailed, setMoreFailed] = useState(false);
  /** undefined: no dialog; null: creating; a link: editing it. */
  const [editing, setEditing] = useState<Link | null | undefined>(undefined);
  const [showing, setShowing] = useState<Link | null>(null);

  const load = useCallback((signal?: AbortSignal) => {
    setLoadFailed(false);
    Promise.all([
      api(`/links?limit=${PAGE_SIZE}`, { schema: linkListResponseSchema, signal }),
      api("/profiles", { schema: profileListResponseSchema, signal }),
      runtimeConfig(),
    ])
      .then(([links, profiles, config]) =>
        setData({
          links: links.items,
          nextCursor: links.nextCursor,
          profiles: profiles.items,
          apiUrl: config.apiUrl,
        }),
      )
      .catch(() => {
        if (!signal?.aborted) setLoadFailed(true);
      });
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  async function loadMore() {
    if (!data?.nextCursor) return;
    setLoadingMore(true);
    setMoreFailed(false);
    try {
      const page = await api(`/links?limit=${PAGE_SIZE}&cursor=${data.nextCursor}`, {
        schema: linkListResponseSchema,
      });
      setData(
        (d) =>
          d && {
            ...d,
            // A link created meanwhile may already be listed: keep one copy.
            links: [...d.links, ...page.items.filter((l) => !d.links.some((x) => x.id === l.id))],
            nextCursor: page.nextCursor,
          },
      );
    } catch {
      setMoreFailed(true);
    } finally {
      setLoadingMore(false);
    }
  }

  const replace = (saved: Link) =>
    setData((d) => d && { ...d, links: d.links.map((l) => (l.id === saved.id ? saved : l)) });

  function onSaved(saved: Link) {
    if (editing) replace(saved);
    else setData((d) => d && { ...d, links: [saved, ...d.links] });
    setEditing(undefined);
  }

  if (loadFailed) {
    return (
      <section className="links">
        <h1>{t("title")}</h1>
        <p className="field-error" role="alert">
          {t("loadFailed")}
        </p>
        <button type="button" className="btn btn-ghost" onClick={() => load()}>
          {t("retry")}
        </button>
      </section>
    );
  }

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
              onDeleted={(id) => setData((d) => d && { ...d, links: d.links.filter((l) => l.id !== id) })}
              onEdit={() => setEditing(link)}
              onShow={() => setShowing(link)}
            />
          ))}
        </ul>
      )}
      {data?.nextCursor && (
        <LoadMore
          className="links-more"
          pending={loadingMore}
          failed={moreFailed}
          onClick={loadMore}
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
