"use client";

import {
  type Link as CatalogueLink,
  type CreatorProfile,
  portfolioBodySchema,
  portfolioResponseSchema,
} from "@salelink/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { ApiError, api } from "@/lib/api.ts";
import { apiFieldErrors } from "@/lib/form-errors.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { toast } from "@/lib/toast.ts";
import { move, sameOrder, splitLinks, toggle } from "./portfolio-order.ts";

type Direction = -1 | 1;

function Thumb({ link, apiUrl }: { link: CatalogueLink; apiUrl: string }) {
  const image = link.coverUrl ?? link.previewUrl;
  if (!image) return <span className="portfolio-thumb portfolio-thumb-empty" aria-hidden="true" />;
  // biome-ignore lint/performance/noImgElement: media comes from the API's origin at run time, which next/image would need configured at build time.
  return <img className="portfolio-thumb" src={`${apiUrl}${image}`} alt="" loading="lazy" />;
}

/**
 * One profile's portfolio: tick links, order them, save the whole list. The list the server holds is
 * read afresh each time the editor opens (never a cached copy: the ticks start from it).
 */
export function PortfolioEditor({
  profile,
  links,
  apiUrl,
}: {
  profile: CreatorProfile;
  links: CatalogueLink[];
  apiUrl: string;
}) {
  const t = useTranslations("portfolio");
  const query = useQuery({
    queryKey: queryKeys.portfolio(profile.id),
    queryFn: ({ signal }) =>
      api(`/profiles/${profile.id}/portfolio`, { schema: portfolioResponseSchema, signal }),
  });
  if (query.isError && !query.isFetching) {
    return (
      <p className="field-error" role="alert">
        {t("portfolioLoadFailed")}
      </p>
    );
  }
  if (!query.data || !query.isFetchedAfterMount) return <p aria-busy="true">{t("loading")}</p>;
  return <PortfolioForm profile={profile} links={links} apiUrl={apiUrl} savedIds={query.data.linkIds} />;
}

function PortfolioForm({
  profile,
  links,
  apiUrl,
  savedIds,
}: {
  profile: CreatorProfile;
  links: CatalogueLink[];
  apiUrl: string;
  /** What the server holds, as read when the editor opened. */
  savedIds: string[];
}) {
  const t = useTranslations("portfolio");
  const locale = useLocale();
  const queryClient = useQueryClient();
  // The editor is keyed by profile: its links are fixed for its life.
  const [initial] = useState(() => splitLinks(links, savedIds).shown);
  /** What the server holds, active links only, in order. */
  const [saved, setSaved] = useState<string[]>(initial);
  /** Saved ids the server holds that cannot be shown any more (paused since). */
  const [hiddenSaved, setHiddenSaved] = useState<string[]>(() =>
    savedIds.filter((id) => !initial.includes(id)),
  );
  const [order, setOrder] = useState<string[]>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const listRef = useRef<HTMLOListElement>(null);
  const [focusAfterMove, setFocusAfterMove] = useState<{ id: string; direction: Direction } | null>(null);

  // A moved row is re-inserted in the DOM, which drops focus: put it back on the same button, or on
  // the other one once the row reached an end.
  useEffect(() => {
    if (!focusAfterMove) return;
    const row = listRef.current?.querySelector<HTMLElement>(`[data-link-id="${focusAfterMove.id}"]`);
    const wanted = row?.querySelector<HTMLButtonElement>(`[data-direction="${focusAfterMove.direction}"]`);
    const other = row?.querySelector<HTMLButtonElement>(`[data-direction="${-focusAfterMove.direction}"]`);
    (wanted && !wanted.disabled ? wanted : other)?.focus();
    setFocusAfterMove(null);
  }, [focusAfterMove]);

  const byId = new Map(links.map((l) => [l.id, l]));
  const { active, unavailable } = splitLinks(links, saved);
  const notShown = active.filter((l) => !order.includes(l.id));
  const dirty = !sameOrder(order, saved);
  const price = (link: CatalogueLink) => formatMoney(link.priceMinor, link.currency, locale);

  function onMove(index: number, direction: Direction) {
    const id = order[index];
    const link = id ? byId.get(id) : undefined;
    if (!id || !link) return;
    setOrder(move(order, index, direction));
    setAnnouncement(t("moved", { title: link.title, position: index + direction + 1, total: order.length }));
    setFocusAfterMove({ id, direction });
  }

  function onToggle(link: CatalogueLink, checked: boolean) {
    setOrder((list) => toggle(list, link.id, checked));
    setErrors(({ [link.id]: _, ...rest }) => rest);
    setAnnouncement(checked ? t("added", { title: link.title }) : t("removed", { title: link.title }));
  }

  async function onSave() {
    const parsed = portfolioBodySchema.safeParse({ linkIds: order });
    if (!parsed.success) {
      toast.error(t("saveFailed"), { description: t("errors.invalid") });
      return;
    }
    setPending(true);
    setErrors({});
    try {
      const { linkIds } = await api(`/profiles/${profile.id}/portfolio`, {
        method: "PUT",
        body: parsed.data,
        schema: portfolioResponseSchema,
      });
      setSaved(linkIds);
      setOrder(linkIds);
      setHiddenSaved([]);
      queryClient.setQueryData(queryKeys.portfolio(profile.id), { linkIds });
      toast.success(t("saved"));
    } catch (err) {
      // Field errors come back as `linkIds.N`: show each under the link at that position.
      const next: Record<string, string> = {};
      for (const [key, message] of Object.entries(apiFieldErrors(err))) {
        const id = order[Number(key.split(".")[1])];
        if (id) next[id] ??= message;
      }
      setErrors(next);
      toast.error(t("saveFailed"), {
        description:
          Object.keys(next).length > 0 ? t("errors.fix") : err instanceof ApiError ? err.message : undefined,
      });
    } finally {
      setPending(false);
    }
  }

  const checkbox = (link: CatalogueLink, checked: boolean) => (
    <label className="checkbox portfolio-choice">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onToggle(link, event.target.checked)}
        aria-describedby={errors[link.id] ? `portfolio-error-${link.id}` : undefined}
      />
      <span className="portfolio-title">{link.title}</span>
    </label>
  );

  return (
    <div className="portfolio-editor">
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      <section className="card portfolio-section" aria-labelledby="portfolio-shown">
        <h2 id="portfolio-shown">{t("shownTitle", { count: order.length })}</h2>
        <p className="muted">{t("shownHint")}</p>
        {order.length === 0 ? (
          <p className="empty">{t("shownEmpty")}</p>
        ) : (
          <ol className="portfolio-list" ref={listRef} aria-labelledby="portfolio-shown">
            {order.map((id, index) => {
              const link = byId.get(id);
              if (!link) return null;
              return (
                <li key={id} data-link-id={id} className="portfolio-row" aria-label={link.title}>
                  <span className="portfolio-position" aria-hidden="true">
                    {index + 1}
                  </span>
                  <Thumb link={link} apiUrl={apiUrl} />
                  <div className="portfolio-main">
                    {checkbox(link, true)}
                    <span className="muted">{price(link)}</span>
                    {errors[id] && (
                      <small id={`portfolio-error-${id}`} className="field-error">
                        {errors[id]}
                      </small>
                    )}
                  </div>
                  <div className="portfolio-moves">
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      data-direction={-1}
                      disabled={index === 0}
                      aria-label={t("moveUpNamed", { title: link.title })}
                      onClick={() => onMove(index, -1)}
                    >
                      <span aria-hidden="true">↑</span> {t("moveUp")}
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      data-direction={1}
                      disabled={index === order.length - 1}
                      aria-label={t("moveDownNamed", { title: link.title })}
                      onClick={() => onMove(index, 1)}
                    >
                      <span aria-hidden="true">↓</span> {t("moveDown")}
                    </button>
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </section>

      <section className="card portfolio-section" aria-labelledby="portfolio-hidden">
        <h2 id="portfolio-hidden">{t("notShownTitle", { count: notShown.length })}</h2>
        {active.length === 0 ? (
          <p className="empty">
            {t("noActiveLinks")} <Link href="/account/links">{t("goToLinks")}</Link>
          </p>
        ) : notShown.length === 0 ? (
          <p className="muted">{t("allShown")}</p>
        ) : (
          <ul className="portfolio-list" aria-labelledby="portfolio-hidden">
            {notShown.map((link) => (
              <li key={link.id} className="portfolio-row" aria-label={link.title}>
                <Thumb link={link} apiUrl={apiUrl} />
                <div className="portfolio-main">
                  {checkbox(link, false)}
                  <span className="muted">{price(link)}</span>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      {unavailable.length > 0 && (
        <section className="card portfolio-section" aria-labelledby="portfolio-unavailable">
          <h2 id="portfolio-unavailable">{t("unavailableTitle", { count: unavailable.length })}</h2>
          <p className="muted">{t("unavailableHint")}</p>
          {hiddenSaved.length > 0 && <p className="notice">{t("hiddenSaved")}</p>}
          <ul className="portfolio-list" aria-labelledby="portfolio-unavailable">
            {unavailable.map((link) => (
              <li key={link.id} className="portfolio-row portfolio-row-off" aria-label={link.title}>
                <Thumb link={link} apiUrl={apiUrl} />
                <div className="portfolio-main">
                  <span className="portfolio-title">{link.title}</span>
                  <span className="muted">{price(link)}</span>
                </div>
                <span className="portfolio-badge">
                  {link.status === "paused" ? t("statusPaused") : t("statusRemoved")}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}

      <div className="portfolio-savebar">
        <button
          type="button"
          className="btn btn-primary"
          disabled={pending || (!dirty && hiddenSaved.length === 0)}
          aria-busy={pending}
          onClick={onSave}
        >
          {pending ? t("saving") : t("save")}
        </button>
        <span className="muted" role="status">
          {dirty ? t("unsaved") : t("upToDate")}
        </span>
      </div>
    </div>
  );
}
