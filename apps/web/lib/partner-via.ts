import type { PartnerVia } from "@salelink/contracts/partners";
import {
  PARTNER_VIA_MAX,
  PARTNER_WINDOW_MAX_DAYS,
  partnerCodePattern,
} from "@salelink/contracts/shell-constants";

/*
 * The partner codes a visitor followed (`?via=`, issue 20), kept in local storage as a list newest
 * first with the time each was last seen. Checkout sends the list and the API applies each
 * programme's own attribution window, so the browser keeps every code for the longest window a
 * programme may set (a year) and never decides which one wins.
 *
 * The shell loads this file: it stays free of zod (decision 009), and takes the contract's rules from
 * its zod-free constants.
 */
const KEY = "partner-via";
const DAY_MS = 86_400_000;

export { PARTNER_VIA_MAX };
/** Kept as long as the longest attribution window a programme may set. */
export const PARTNER_VIA_KEPT_DAYS = PARTNER_WINDOW_MAX_DAYS;

export const isPartnerCode = (code: string): boolean => partnerCodePattern.test(code);

type StoreLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;
const browserStore = (): StoreLike | null => (typeof localStorage === "undefined" ? null : localStorage);

/** The list as stored, cleaned: well-formed entries, newest first, unique, within a year, at most the cap. */
function clean(value: unknown, now: number): PartnerVia[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const out: PartnerVia[] = [];
  const entries = value
    .filter(
      (v): v is PartnerVia =>
        typeof v === "object" &&
        v !== null &&
        typeof (v as PartnerVia).code === "string" &&
        isPartnerCode((v as PartnerVia).code) &&
        Number.isSafeInteger((v as PartnerVia).at) &&
        (v as PartnerVia).at >= 0,
    )
    .sort((a, b) => b.at - a.at);
  for (const { code, at } of entries) {
    // A time ahead of now (another clock, an edit) is no reason to keep a code past its year.
    if (now - at > PARTNER_VIA_KEPT_DAYS * DAY_MS || seen.has(code)) continue;
    seen.add(code);
    out.push({ code, at: Math.min(at, now) });
    if (out.length === PARTNER_VIA_MAX) break;
  }
  return out;
}

function load(store: StoreLike, now: number): PartnerVia[] {
  try {
    const raw = store.getItem(KEY);
    return raw ? clean(JSON.parse(raw), now) : [];
  } catch {
    return [];
  }
}

/** The codes followed within the last year, newest first: what a checkout sends. */
export function readPartnerVia(now = Date.now(), store = browserStore()): PartnerVia[] {
  if (!store) return [];
  const list = load(store, now);
  try {
    if (list.length === 0) store.removeItem(KEY);
  } catch {
    // Storage refused (private mode): nothing to forget.
  }
  return list;
}

/**
 * A code followed now: it goes to the front with this time (seen again, it moves there), older
 * entries past the cap or the year are dropped. A malformed code changes nothing (false).
 */
export function storePartnerVia(code: string, now = Date.now(), store = browserStore()): boolean {
  if (!store || !isPartnerCode(code)) return false;
  const list = [{ code, at: now }, ...load(store, now).filter((v) => v.code !== code)];
  try {
    store.setItem(KEY, JSON.stringify(list.slice(0, PARTNER_VIA_MAX)));
    return true;
  } catch {
    return false;
  }
}
