import type { Currency } from "@salelink/contracts/business-rules";
import { formatMoney } from "@/lib/money.ts";

/** Amounts per currency, as the API answers them. */
export type Amounts = { currency: Currency; amount: number }[];

/**
 * Amounts in several currencies as one phrase ("€1.20, $3.00"); nothing shows as zero in the
 * account's default currency rather than as a blank.
 */
export function formatAmounts(amounts: Amounts, locale: string, fallbackCurrency: Currency): string {
  const shown = amounts.filter((a) => a.amount !== 0);
  if (shown.length === 0) return formatMoney(0, fallbackCurrency, locale);
  return new Intl.ListFormat(locale, { type: "unit" }).format(
    shown.map((a) => formatMoney(a.amount, a.currency, locale)),
  );
}

export const hasMoney = (amounts: Amounts): boolean => amounts.some((a) => a.amount > 0);

/** Several lists (one per campaign) added up per currency. */
export function sumAmounts(lists: Amounts[]): Amounts {
  const totals = new Map<Currency, number>();
  for (const list of lists)
    for (const a of list) totals.set(a.currency, (totals.get(a.currency) ?? 0) + a.amount);
  return [...totals].map(([currency, amount]) => ({ currency, amount }));
}
