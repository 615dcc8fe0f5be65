/**
 * The spec's affiliate state: one token string, kept in local storage. It is stored at once with
 * the time it was seen (last click wins); the configured window (AFFILIATE_COOKIE_DAYS) is applied
 * when it is read, so a visitor who moves on before the settings arrive keeps their referral.
 */
const KEY = "affiliate-ref";
const tokenPattern = /^[A-Za-z0-9_-]{4,64}$/;
const DAY_MS = 86_400_000;

/** The shape a campaign token has in `?ref=` (the contracts' campaignTokenSchema, without zod). */
export const isReferralToken = (token: string): boolean => tokenPattern.test(token);

type StoreLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;
const browserStore = (): StoreLike | null => (typeof localStorage === "undefined" ? null : localStorage);

export function storeReferral(token: string, now = Date.now(), store = browserStore()): boolean {
  if (!store || !isReferralToken(token)) return false;
  try {
    store.setItem(KEY, JSON.stringify({ token, at: now }));
    return true;
  } catch {
    return false;
  }
}

/** The stored token if it was seen within `days`; an older one is forgotten. */
export function readReferral(days: number, now = Date.now(), store = browserStore()): string | null {
  if (!store) return null;
  try {
    const raw = store.getItem(KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as { token?: unknown; at?: unknown };
    if (typeof value.token !== "string" || typeof value.at !== "number" || now - value.at > days * DAY_MS) {
      store.removeItem(KEY);
      return null;
    }
    return value.token;
  } catch {
    return null;
  }
}
