/**
 * Language detection as Next.js rewrites (decisions 003, 023). The web app's server
 * (server/locale-request.ts) negotiates the language of every request, the `NEXT_LOCALE` cookie when
 * it names a supported locale, else Accept-Language with its quality values weighed, else English,
 * and states it in the `x-salelink-locale` request header, which it always overwrites; the first
 * rules follow that header. A regular expression cannot weigh quality values, so the rules after it
 * (the cookie, then the first supported language of Accept-Language, then English) are only a
 * fallback for `next dev`/`next start` run without our server. Being configuration rather than a
 * proxy function, it costs no code per request, so prerendered pages are served at close to static
 * speed. Kept free of imports: next.config.ts loads it.
 */
export const rewriteLocales = ["en", "fr", "es"] as const;
export const fallbackLocale = "en";
export const LOCALE_COOKIE = "NEXT_LOCALE";
/** Set by the web app's server on every request, replacing whatever a client sent. */
export const LOCALE_HEADER = "x-salelink-locale";

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
      has: [{ type: "header" as const, key: LOCALE_HEADER, value: `^${locale}$` }],
      destination: `/${locale}/:path*`,
    })),
    // Without our server only (see above).
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
