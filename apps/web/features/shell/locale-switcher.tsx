"use client";

import {
  type Locale,
  localeCookieMaxAgeSeconds,
  localeCookieName,
  locales,
} from "@salelink/contracts/locales";
import { useLocale, useTranslations } from "next-intl";

/** Sets the language cookie for 365 days (spec section 9) and reloads in the new language. */
export function LocaleSwitcher() {
  const t = useTranslations("locale");
  const current = useLocale();
  const change = (locale: Locale) => {
    const secure = window.location.protocol === "https:" ? "; secure" : "";
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Safari and Firefox.
    document.cookie = `${localeCookieName}=${locale}; path=/; max-age=${localeCookieMaxAgeSeconds}; samesite=lax${secure}`;
    window.location.reload();
  };
  return (
    <label className="switcher">
      <span className="sr-only">{t("label")}</span>
      <select
        value={current}
        onChange={(e) => change(e.target.value as Locale)}
        aria-label={t("label")}
        data-testid="locale-switcher"
      >
        {locales.map((l) => (
          <option key={l} value={l}>
            {t(l)}
          </option>
        ))}
      </select>
    </label>
  );
}
