/* Zod-free, so the web's shell may import it. */

/** Longer than any page of ours with its query; a longer value is someone's experiment. */
export const RETURN_PATH_MAX = 2048;

/*
 * Issue 16, item 5 (open redirect): a path taken from a query or a body (`?next=`, a return URL) is
 * followed only when it stays on our origin. Browsers read `/\host`, `\\host`, `/%5Chost`, tabs and
 * newlines inside `//host` and other forms as another host, and each router and URL parser forgives
 * a different subset; so rather than normalising, anything unusual is refused outright and the
 * caller falls back to its default page.
 */

/** Invisible format characters (zero-width, bidirectional overrides) that blanks do not cover. */
const invisible = /[\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f]/u;

/** Control characters (C0, DEL, C1), blanks of any script, invisible characters and backslashes. */
function hasForbiddenChar(value: string): boolean {
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || ch === "\\") return true;
    if (/\s/u.test(ch) || invisible.test(ch)) return true;
  }
  return false;
}

/** Encoded slash or backslash, also double-encoded (`%252f`), and encoded controls or blanks. */
const forbiddenEncoding = /%(?:25)*(?:2f|5c|[01][0-9a-f]|7f|20|09|0a|0d)/i;

function acceptableText(value: string): boolean {
  return !hasForbiddenChar(value) && !forbiddenEncoding.test(value);
}

/**
 * The same-origin path (`/path?query#hash`) that `raw` names, or null when it is not one: it must be
 * an absolute path (one leading `/`, no scheme, no `//host`), free of backslashes, control
 * characters, blanks and encoded slashes, and still on `origin` once resolved against it.
 */
export function sameOriginPath(raw: string | null | undefined, origin: string): string | null {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > RETURN_PATH_MAX) return null;
  if (!raw.startsWith("/") || raw.startsWith("//") || !acceptableText(raw)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (!acceptableText(decoded)) return null;
  let base: URL;
  let url: URL;
  try {
    base = new URL(origin);
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || url.username || url.password) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can fold `/.//host` into `//host`: check what a router would be handed.
  if (!path.startsWith("/") || path.startsWith("//") || !acceptableText(path)) return null;
  return path;
}
