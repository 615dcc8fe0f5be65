"use client";

import { type Link, linkSchema, messageResponseSchema, setProductTitleBodySchema } from "@salelink/contracts";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { ApiError, api } from "@/lib/api.ts";
import { apiFieldErrors } from "@/lib/form-errors.ts";
import { formatMoney } from "@/lib/money.ts";
import { toast } from "@/lib/toast.ts";
import { LinkThumb } from "./link-thumb.tsx";

const errorDescription = (err: unknown) => (err instanceof ApiError ? err.message : undefined);

/** One link of mine: what it sells, and its actions (show, edit, set title, pause/resume, delete). */
export function LinkItem({
  link,
  profileHandle,
  apiUrl,
  onChanged,
  onDeleted,
  onEdit,
  onShow,
}: {
  link: Link;
  profileHandle: string | null;
  apiUrl: string | null;
  onChanged: (link: Link) => void;
  onDeleted: (id: string) => void;
  onEdit: () => void;
  onShow: () => void;
}) {
  const t = useTranslations("links");
  const locale = useLocale();
  const [mode, setMode] = useState<"view" | "rename" | "confirmDelete">("view");
  const [busy, setBusy] = useState(false);
  const [titleError, setTitleError] = useState<string | null>(null);

  async function run(action: () => Promise<void>) {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  }

  const setPaused = (paused: boolean) =>
    run(async () => {
      try {
        const saved = await api(`/links/${link.id}/${paused ? "pause" : "resume"}`, {
          method: "POST",
          schema: linkSchema,
        });
        onChanged(saved);
        toast.success(paused ? t("paused") : t("resumed"));
      } catch (err) {
        toast.error(paused ? t("pauseFailed") : t("resumeFailed"), { description: errorDescription(err) });
      }
    });

  const remove = () =>
    run(async () => {
      try {
        const { message } = await api(`/links/${link.id}`, {
          method: "DELETE",
          schema: messageResponseSchema,
        });
        toast.success(t("deleted"), { description: message });
        onDeleted(link.id);
      } catch (err) {
        toast.error(t("deleteFailed"), { description: errorDescription(err) });
      }
    });

  function rename(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = setProductTitleBodySchema.safeParse({
      title: String(new FormData(event.currentTarget).get("title") ?? ""),
    });
    if (!parsed.success) {
      setTitleError(t("errors.title"));
      return;
    }
    void run(async () => {
      try {
        const saved = await api(`/product/${link.id}`, {
          method: "PATCH",
          body: parsed.data,
          schema: linkSchema,
        });
        onChanged(saved);
        setMode("view");
        setTitleError(null);
        toast.success(t("renamed"));
      } catch (err) {
        const field = apiFieldErrors(err).title;
        if (field) setTitleError(field);
        else toast.error(t("renameFailed"), { description: errorDescription(err) });
      }
    });
  }

  const renameId = `rename-${link.id}`;

  return (
    <li className="card link-item" aria-label={link.title}>
      <LinkThumb link={link} apiUrl={apiUrl} />
      <div className="link-body">
        {mode === "rename" ? (
          <form className="link-rename" onSubmit={rename} noValidate>
            <div className="field">
              <label htmlFor={renameId}>{t("productTitle")}</label>
              <input
                id={renameId}
                name="title"
                defaultValue={link.title}
                maxLength={120}
                autoComplete="off"
                // biome-ignore lint/a11y/noAutofocus: the field the creator just asked for.
                autoFocus
                aria-invalid={Boolean(titleError)}
                aria-describedby={titleError ? `${renameId}-error` : undefined}
              />
              {titleError && (
                <small id={`${renameId}-error`} className="field-error">
                  {titleError}
                </small>
              )}
            </div>
            <div className="actions">
              <button type="submit" className="btn btn-primary btn-sm" disabled={busy} aria-busy={busy}>
                {t("saveTitle")}
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => {
                  setMode("view");
                  setTitleError(null);
                }}
              >
                {t("cancel")}
              </button>
            </div>
          </form>
        ) : (
          <h2 className="link-title">{link.title}</h2>
        )}
        <p className="link-meta">
          <strong>{formatMoney(link.priceMinor, link.currency, locale)}</strong>
          <span className="link-status" data-status={link.status}>
            {t(`status.${link.status}`)}
          </span>
          <span className="muted">{t("sales", { count: link.salesCount })}</span>
          {/* Issue 22: whether buyers pay the price shown, or the price plus their country's VAT. */}
          <span className="link-vat muted" data-vat={link.pricesIncludeVat ? "included" : "added"}>
            {link.pricesIncludeVat ? t("vatIncludedBadge") : t("vatAddedBadge")}
          </span>
          <span className="muted">{t("refundWindowShown", { days: link.refundWindowDays })}</span>
          {link.stockLimit !== null && (
            <span className="muted">{t("stock", { limit: link.stockLimit })}</span>
          )}
          {profileHandle && <span className="muted">@{profileHandle}</span>}
        </p>
        {link.file && <p className="muted link-file">{link.file.originalName}</p>}
        {link.status === "removed" && <p className="notice">{t("removedNotice")}</p>}
        {mode === "confirmDelete" ? (
          <div className="actions">
            <p>{t("confirmDelete", { title: link.title })}</p>
            <button
              type="button"
              className="btn btn-danger btn-sm"
              disabled={busy}
              aria-busy={busy}
              onClick={remove}
            >
              {t("confirm")}
            </button>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setMode("view")}>
              {t("cancel")}
            </button>
          </div>
        ) : (
          mode === "view" && (
            <div className="actions">
              <button type="button" className="btn btn-primary btn-sm" onClick={onShow}>
                {t("show")}
              </button>
              <button type="button" className="btn btn-ghost btn-sm" onClick={onEdit}>
                {t("edit")}
              </button>
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setMode("rename")}>
                {t("rename")}
              </button>
              {link.status === "active" && (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  disabled={busy}
                  onClick={() => setPaused(true)}
                >
                  {t("pause")}
                </button>
              )}
              {link.status === "paused" && (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  disabled={busy}
                  onClick={() => setPaused(false)}
                >
                  {t("resume")}
                </button>
              )}
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setMode("confirmDelete")}>
                {t("delete")}
              </button>
            </div>
          )
        )}
      </div>
    </li>
  );
}
