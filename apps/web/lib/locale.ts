import { defaultLocale, isLocale, type Locale, locales } from "@salelink/contracts/locales";

/**
 * The visitor's language: the language cookie when it names a supported locale, else the best
 * match of the browser's Accept-Language, else English.
 */
export function detectLocale(cookieValue: string | undefined, acceptLanguage: string | null): Locale {
  if (isLocale(cookieValue)) return cookieValue;
  if (acceptLanguage) {
    const ranked = acceptLanguage
      .split(",")
      .map((part, index) => {
        const [tag = "", ...params] = part.trim().split(";");
        const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
        const quality = q ? Number.parseFloat(q.slice(2)) : 1;
        return { tag: tag.toLowerCase(), quality: Number.isFinite(quality) ? quality : 0, index };
      })
      .filter((entry) => entry.tag && entry.quality > 0)
      .sort((a, b) => b.quality - a.quality || a.index - b.index);
    for (const { tag } of ranked) {
      const base = tag.split("-")[0];
      const match = locales.find((l) => l === base);
      if (match) return match;
    }
  }
  return defaultLocale;
}
