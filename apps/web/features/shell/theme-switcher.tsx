"use client";

import { useTranslations } from "next-intl";
import { type ThemePreference, useTheme } from "./theme.tsx";

const options: ThemePreference[] = ["light", "dark", "system"];

export function ThemeSwitcher() {
  const t = useTranslations("theme");
  const { preference, setPreference } = useTheme();
  return (
    <label className="switcher">
      <span className="sr-only">{t("label")}</span>
      <select
        value={preference}
        onChange={(e) => setPreference(e.target.value as ThemePreference)}
        aria-label={t("label")}
        data-testid="theme-switcher"
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {t(o)}
          </option>
        ))}
      </select>
    </label>
  );
}
