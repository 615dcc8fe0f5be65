/**
 * Language detection as Next.js rewrites (decision 003): the `NEXT_LOCALE` cookie when it names a
 * supported locale, else the first supported language of Accept-Language, else English. Being
 * configuration rather than a proxy function, it costs no code per request, so prerendered pages
 * are served at close to static speed. Kept free of imports: next.config.ts loads it.
 */
export const rewriteLocales = ["en", "fr", "es"] as const;
export const fallbackLocale = "en";
export const LOCALE_COOKIE = "NEXT_LOCALE";

const supported = rewriteLocales.join("|");
/** A language tag ends at a region, a parameter, the next entry, a space or the end. */
const tagEnd = "(?:[-_;,\\s]|$)";

/**
 * Matches an Accept-Language header whose first supported language is `locale`: any number of
 * entries that are not supported languages, then `locale`. Browsers list languages by preference.
 */
export function acceptLanguagePattern(locale: string): string {
  return `^(?:\\s*(?!(?:${supported})${tagEnd})[^,]*,)*\\s*${locale}${tagEnd}.*$`;
}

interface Rewrite {
  source: string;
  destination: string;
  has?: { type: "cookie" | "header"; key: string; value: string }[];
}

export function localeRewrites(): Rewrite[] {
  return [
    ...rewriteLocales.map((locale) => ({
      source: "/:path*",
      has: [{ type: "cookie" as const, key: LOCALE_COOKIE, value: `^${locale}$` }],
      destination: `/${locale}/:path*`,
    })),
    ...rewriteLocales.map((locale) => ({
      source: "/:path*",
      has: [{ type: "header" as const, key: "accept-language", value: acceptLanguagePattern(locale) }],
      destination: `/${locale}/:path*`,
    })),
    { source: "/:path*", destination: `/${fallbackLocale}/:path*` },
  ];
}
