import type { PromoCode } from "@salelink/contracts";

export type PromoStatus = "active" | "expired" | "exhausted";

/** Whether buyers can still use a code; an expired code counts as expired even when also used up. */
export function promoStatus(
  code: Pick<PromoCode, "expiresAt" | "usageLimit" | "usedCount">,
  now: number = Date.now(),
): PromoStatus {
  if (code.expiresAt !== null && Date.parse(code.expiresAt) <= now) return "expired";
  if (code.usageLimit !== null && code.usedCount >= code.usageLimit) return "exhausted";
  return "active";
}

/** A date field's "YYYY-MM-DD" as the end of that day in the browser's time zone, in ISO form. */
export function endOfDayIso(date: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const end = new Date(y, m - 1, d, 23, 59, 59, 999);
  // new Date rolls 2026-02-31 over to March: refuse instead.
  if (end.getFullYear() !== y || end.getMonth() !== m - 1 || end.getDate() !== d) return null;
  return end.toISOString();
}

/** An ISO instant as the "YYYY-MM-DD" a date field shows, in the browser's time zone. */
export function isoToDateInput(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
