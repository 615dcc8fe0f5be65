/** The spec's affiliate state: one token string, kept in local storage with its expiry. */
const KEY = "affiliate-ref";
const tokenPattern = /^[A-Za-z0-9_-]{4,64}$/;

export function storeReferral(token: string, days: number, now = Date.now()): boolean {
  if (!tokenPattern.test(token)) return false;
  try {
    localStorage.setItem(KEY, JSON.stringify({ token, expiresAt: now + days * 86_400_000 }));
    return true;
  } catch {
    return false;
  }
}

export function readReferral(now = Date.now()): string | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as { token?: unknown; expiresAt?: unknown };
    if (typeof value.token !== "string" || typeof value.expiresAt !== "number" || value.expiresAt <= now) {
      localStorage.removeItem(KEY);
      return null;
    }
    return value.token;
  } catch {
    return null;
  }
}
