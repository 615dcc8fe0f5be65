"use client";

import { type Locale, locales } from "@salelink/contracts/locales";
import { useLocale, useTranslations } from "next-intl";
import { setLanguageCookie } from "@/lib/language-cookie.ts";

/** Sets the language cookie for 365 days (spec section 9) and reloads in the new language. */
export function LocaleSwitcher() {
  const t = useTranslations("locale");
  const current = useLocale();
  const change = (locale: Locale) => {
    setLanguageCookie(locale);
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
