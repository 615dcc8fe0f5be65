"use client";

import {
  type Currency,
  type Link,
  messageResponseSchema,
  type PromoCode,
  promoCodeListResponseSchema,
} from "@salelink/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { ListStates } from "@/components/ui/list-states.tsx";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { useMyLinks } from "@/features/links/my-links.ts";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { toast } from "@/lib/toast.ts";
import { PromoCodeDialog } from "./promo-code-dialog.tsx";
import { type PromoStatus, promoStatus } from "./promo-status.ts";

/** My promo codes: list, create and edit in a modal, delete after a confirmation. */
export function PromoCodesPage({ defaultCurrency }: { defaultCurrency: Currency }) {
  const t = useTranslations("promoCodes");
  const locale = useLocale();
  const queryClient = useQueryClient();
  const list = useApiQuery(queryKeys.promoCodes, "/promo-codes", promoCodeListResponseSchema);
  const codes = list.data?.items ?? null;
  const loadFailed = list.failed;
  const myLinks = useMyLinks();
  /** undefined while loading; null when they could not be loaded (the codes still show). */
  const links: Link[] | null | undefined = myLinks.data ?? (myLinks.isError ? null : undefined);
  /** undefined: no dialog; null: creating; a code: editing it. */
  const [editing, setEditing] = useState<PromoCode | null | undefined>(undefined);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  function setCodes(update: (items: PromoCode[]) => PromoCode[]) {
    queryClient.setQueryData<{ items: PromoCode[] }>(
      queryKeys.promoCodes,
      (now) => now && { ...now, items: update(now.items) },
    );
  }

  function onSaved(saved: PromoCode) {
    setCodes((list) => (editing ? list.map((c) => (c.id === saved.id ? saved : c)) : [saved, ...list]));
    setEditing(undefined);
  }

  async function onDelete(code: PromoCode) {
    setDeleting(true);
    try {
      const { message } = await api(`/promo-codes/${code.id}`, {
        method: "DELETE",
        schema: messageResponseSchema,
      });
      setCodes((list) => list.filter((c) => c.id !== code.id));
      setConfirming(null);
      toast.success(t("deleted"), { description: message });
    } catch (err) {
      toast.error(t("deleteFailed"), { description: err instanceof ApiError ? err.message : undefined });
    } finally {
      setDeleting(false);
    }
  }

  function discountOf(code: PromoCode): string {
    if (code.kind === "fixed" && code.currency) return formatMoney(code.value, code.currency, locale);
    return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 }).format(
      code.value / 100,
    );
  }

  function linksOf(code: PromoCode): string {
    if (code.linkIds.length === 0) return t("allLinks");
    const titles = code.linkIds.map((id) => links?.find((l) => l.id === id)?.title);
    if (titles.some((title) => title === undefined)) return t("someLinks", { count: code.linkIds.length });
    return new Intl.ListFormat(locale, { type: "conjunction" }).format(titles as string[]);
  }

  const statusLabel: Record<PromoStatus, string> = {
    active: t("statusActive"),
    expired: t("statusExpired"),
    exhausted: t("statusExhausted"),
  };
  const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: "medium" });

  const createButton = (
    <button
      type="button"
      className="btn btn-primary"
      disabled={links === undefined}
      onClick={() => setEditing(null)}
    >
      {t("create")}
    </button>
  );

  return (
    <section className="promo-codes">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <ListStates
        items={codes}
        failed={loadFailed}
        texts={{
          failed: t("loadFailed"),
          loading: t("loading"),
          empty: t("empty"),
          emptyHint: t("emptyHint"),
        }}
        action={createButton}
      >
        {(items) => (
          <>
            {createButton}
            <ul className="promo-list">
              {items.map((code) => {
                const status = promoStatus(code);
                return (
                  <li key={code.id} className="card promo-card" data-status={status} aria-label={code.code}>
                    <div className="promo-card-head">
                      <h2 className="promo-code">{code.code}</h2>
                      <span className="promo-badge" data-status={status}>
                        {statusLabel[status]}
                      </span>
                    </div>
                    <dl className="promo-facts">
                      <div>
                        <dt>{t("discount")}</dt>
                        <dd>{discountOf(code)}</dd>
                      </div>
                      <div>
                        <dt>{t("expires")}</dt>
                        <dd>
                          {code.expiresAt ? dateFormat.format(new Date(code.expiresAt)) : t("noExpiry")}
                        </dd>
                      </div>
                      <div>
                        <dt>{t("uses")}</dt>
                        <dd>
                          {code.usageLimit === null
                            ? t("usesUnlimited", { used: code.usedCount })
                            : t("usesOf", { used: code.usedCount, limit: code.usageLimit })}
                        </dd>
                      </div>
                      <div>
                        <dt>{t("appliesTo")}</dt>
                        <dd>{linksOf(code)}</dd>
                      </div>
                    </dl>
                    {confirming === code.id ? (
                      <div className="actions">
                        <p>{t("confirmDelete", { code: code.code })}</p>
                        <button
                          type="button"
                          className="btn btn-danger btn-sm"
                          disabled={deleting}
                          aria-busy={deleting}
                          onClick={() => onDelete(code)}
                        >
                          {t("confirm")}
                        </button>
                        <button
                          type="button"
                          className="btn btn-ghost btn-sm"
                          onClick={() => setConfirming(null)}
                        >
                          {t("cancel")}
                        </button>
                      </div>
                    ) : (
                      <div className="actions">
                        <button
                          type="button"
                          className="btn btn-ghost btn-sm"
                          disabled={links === undefined}
                          onClick={() => setEditing(code)}
                        >
                          {t("edit")}
                        </button>
                        <button
                          type="button"
                          className="btn btn-ghost btn-sm"
                          onClick={() => setConfirming(code.id)}
                        >
                          {t("delete")}
                        </button>
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          </>
        )}
      </ListStates>
      {editing !== undefined && (
        <PromoCodeDialog
          key={editing?.id ?? "new"}
          code={editing}
          links={links ?? null}
          defaultCurrency={defaultCurrency}
          onClose={() => setEditing(undefined)}
          onSaved={onSaved}
        />
      )}
    </section>
  );
}
