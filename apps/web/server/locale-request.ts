/**
 * The language of every request to the web app's server (decision 023): the `NEXT_LOCALE` cookie
 * when it names a supported locale, else Accept-Language with its quality values weighed (the
 * negotiation the API uses too), else English. The answer goes to Next.js's locale rewrites in the
 * `x-salelink-locale` request header (lib/locale-rewrites.ts), always overwritten, so a client can
 * neither choose an unsupported value nor get past its own cookie.
 *
 * Pages render per language under one URL, so their answers say so in `Vary` (Cookie,
 * Accept-Language): a shared cache then never hands one language's page to another. Next.js sets
 * its own `Vary` on pages (replacing any set earlier), so ours is merged in when the head is
 * written. Built assets and route handlers' data do not depend on the language and get no more.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { negotiateLocale } from "@salelink/contracts/locale-negotiation";
import { isLocale, type Locale, localeCookieName } from "@salelink/contracts/locales";
import { LOCALE_HEADER } from "../lib/locale-rewrites.ts";

/** What selects the language of a page: both request headers a cache must key on. */
export const LANGUAGE_VARY = ["Cookie", "Accept-Language"] as const;

const ASSET_PREFIX = "/_next/static/";
const varyNames = LANGUAGE_VARY.map(
  (name) => [name, new RegExp(`(?:^|,)\\s*${name}\\s*(?:,|$)`, "i")] as const,
);
const cookiePattern = new RegExp(`(?:^|;)\\s*${localeCookieName}=([^;]*)`);

/** The language a request asks for (cookie, then Accept-Language, then English). */
export function requestLocale(req: IncomingMessage): Locale {
  const cookie = req.headers.cookie;
  if (cookie) {
    const value = cookiePattern.exec(cookie)?.[1]?.trim();
    if (isLocale(value)) return value;
  }
  return negotiateLocale(req.headers["accept-language"]);
}

/** Before Next.js sees the request: states its language and marks language-dependent answers. */
export function prepareLocale(req: IncomingMessage, res: ServerResponse): void {
  req.headers[LOCALE_HEADER] = requestLocale(req);
  if ((req.url ?? "/").startsWith(ASSET_PREFIX)) return;
  const { writeHead } = res;
  // Every head goes through writeHead (Node calls it for an implicit head too), after Next.js has
  // set its own Vary; headers passed to writeHead itself are not Next.js's way for pages.
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    if (dependsOnLanguage(this)) mergeVary(this);
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}

/**
 * Pages (HTML) and their React Server Components payloads for client navigations; a 304 too, since
 * a cache replaces the stored response's Vary with the 304's.
 */
function dependsOnLanguage(res: ServerResponse): boolean {
  if (res.statusCode === 304) return true;
  const type = res.getHeader("content-type");
  return typeof type === "string" && (type.startsWith("text/html") || type.startsWith("text/x-component"));
}

/** Adds Cookie and Accept-Language to the answer's Vary, keeping what is there (Next.js's, `*`). */
export function mergeVary(res: ServerResponse): void {
  const current = res.getHeader("vary");
  const value = Array.isArray(current) ? current.join(", ") : current === undefined ? "" : String(current);
  if (value.trim() === "*") return;
  let merged = value;
  for (const [name, listed] of varyNames) {
    if (!listed.test(value)) merged = merged ? `${merged}, ${name}` : name;
  }
  if (merged !== value) res.setHeader("Vary", merged);
}
