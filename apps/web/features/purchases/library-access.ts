import type { LibraryAccess } from "@salelink/contracts/purchases";

/*
 * The library's access, kept for this tab only: sessionStorage (never localStorage) so that it
 * dies with the tab and another person on the same computer does not find the buyer's files later.
 */

const KEY = "salelink.library-access";

/** The storage methods used, so that tests pass a plain object. */
type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;

function sessionStore(): Store | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    // Storage may be refused (privacy settings): the library then needs a new link each time.
    return null;
  }
}

export function saveLibraryAccess(access: LibraryAccess, store: Store | null = sessionStore()): void {
  try {
    store?.setItem(KEY, JSON.stringify({ accessToken: access.accessToken, expiresAt: access.expiresAt }));
  } catch {
    // A full or refused storage: the page still shows the library it just opened.
  }
}

export function forgetLibraryAccess(store: Store | null = sessionStore()): void {
  try {
    store?.removeItem(KEY);
  } catch {
    // Nothing kept, nothing to forget.
  }
}

/**
 * The kept access when it is still valid at `now`; an expired or unreadable one is forgotten, so
 * that the page says "ask for a new link" rather than calling the API with a dead token.
 */
export function readLibraryAccess(
  now: number = Date.now(),
  store: Store | null = sessionStore(),
): LibraryAccess | null {
  let raw: string | null = null;
  try {
    raw = store?.getItem(KEY) ?? null;
  } catch {
    return null;
  }
  if (raw === null) return null;
  const access = parseAccess(raw);
  if (!access || Date.parse(access.expiresAt) <= now) {
    forgetLibraryAccess(store);
    return null;
  }
  return access;
}

/** Checked by hand, not with the contract: the buyer pages load no zod before they need it. */
function parseAccess(raw: string): LibraryAccess | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { accessToken, expiresAt } = value as Record<string, unknown>;
  if (typeof accessToken !== "string" || accessToken.length === 0) return null;
  if (typeof expiresAt !== "string" || Number.isNaN(Date.parse(expiresAt))) return null;
  return { accessToken, expiresAt };
}
