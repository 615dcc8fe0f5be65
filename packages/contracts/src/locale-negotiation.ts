/**
 * The one Accept-Language negotiation of the platform (decision 023), used by the API (the language
 * of its messages, decision 007) and by the web app's server (the language of its pages, decision
 * 003). Server-side only: it loads `negotiator`, which the browser never needs.
 *
 * `negotiator` parses the header (quality values, `q=0` as refused, garbage skipped) and ranks the
 * languages by quality, equal qualities keeping the header's order; `@formatjs/intl-localematcher`
 * maps each one to a supported locale (BCP 47 lookup: case-insensitive, `fr-CA` → `fr`). Asking
 * `negotiator` to rank our locales itself would not do: it puts an exact match before an earlier
 * regional one of the same quality (`es-ES,fr` would give French).
 */
import { match } from "@formatjs/intl-localematcher";
import Negotiator from "negotiator";
import { defaultLocale, isLocale, type Locale, locales } from "./locales.ts";

/** Distinct headers remembered: browsers send few distinct ones, so a small map serves nearly all. */
const CACHE_ENTRIES = 500;
/** Longer headers are negotiated each time rather than kept (bounds the memory a client can fill). */
const CACHE_KEY_MAX_LENGTH = 256;
const cache = new Map<string, Locale>();

/** The supported locale an Accept-Language header asks for first, else English. */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return defaultLocale;
  const known = cache.get(acceptLanguage);
  if (known) return known;
  const locale = negotiate(acceptLanguage);
  if (acceptLanguage.length <= CACHE_KEY_MAX_LENGTH) {
    // A Map iterates in insertion order: the oldest entry goes first.
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value ?? "");
    cache.set(acceptLanguage, locale);
  }
  return locale;
}

function negotiate(header: string): Locale {
  const negotiator = new Negotiator({ headers: { "accept-language": header } });
  for (const range of negotiator.languages()) {
    if (range === "*") {
      // "Any other language", at this quality: negotiator weighs it against the languages named
      // more specifically (a `fr;q=0` beside `*` keeps French refused).
      const any = negotiator.languages(locales)[0];
      if (isLocale(any)) return any;
      continue;
    }
    const tag = canonicalTag(range);
    if (!tag) continue;
    const found = match([tag], locales, "", { algorithm: "lookup" });
    if (isLocale(found)) return found;
  }
  return defaultLocale;
}

/** A well-formed BCP 47 tag, or undefined; `es_MX` (Java's spelling, sent by some clients) counts. */
function canonicalTag(range: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(range.replaceAll("_", "-"))[0];
  } catch {
    return undefined;
  }
}
