"use client";

import { type Locale, locales, messageResponseSchema } from "@salelink/contracts";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { api } from "@/lib/api.ts";
import { setLanguageCookie } from "@/lib/language-cookie.ts";
import { toast } from "@/lib/toast.ts";

/** The account's language: e-mails are written in it, and the site switches to it. */
export function LanguageSection() {
  const t = useTranslations("settings.language");
  const names = useTranslations("locale");
  const current = useLocale();
  const [pending, setPending] = useState(false);

  async function change(locale: Locale) {
    setPending(true);
    try {
      await api("/profile/locale", { method: "PATCH", body: { locale }, schema: messageResponseSchema });
      setLanguageCookie(locale);
      window.location.reload();
    } catch {
      toast.error(t("failed"));
      setPending(false);
    }
  }

  return (
    <section className="card form" aria-labelledby="language-title">
      <h2 id="language-title">{t("title")}</h2>
      <p className="muted">{t("text")}</p>
      <label className="field">
        <span>{t("label")}</span>
        <select value={current} disabled={pending} onChange={(e) => void change(e.target.value as Locale)}>
          {locales.map((l) => (
            <option key={l} value={l}>
              {names(l)}
            </option>
          ))}
        </select>
      </label>
    </section>
  );
}
