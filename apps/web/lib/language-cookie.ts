import { type Locale, localeCookieMaxAgeSeconds, localeCookieName } from "@salelink/contracts/locales";

/** The language cookie: read by the locale rewrites, kept 365 days (spec section 9). */
export function setLanguageCookie(locale: Locale): void {
  const secure = window.location.protocol === "https:" ? "; secure" : "";
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Safari and Firefox.
  document.cookie = `${localeCookieName}=${locale}; path=/; max-age=${localeCookieMaxAgeSeconds}; samesite=lax${secure}`;
}
