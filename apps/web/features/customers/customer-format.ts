import type { Currency } from "@salelink/contracts/business-rules";
import type { CustomerSortKey, CustomerTotal } from "@salelink/contracts/customers";
import { type Amounts, formatAmounts } from "@/features/affiliates/money-list.ts";

/*
 * The customers screen's small rules, apart from React so that they are unit-tested
 * (test/customer-format.test.ts): the list's and the export's addresses for a filter, and what a
 * customer paid as one phrase.
 */

export interface CustomerFilter {
  /** Part of an address, as typed (trimmed here). */
  q: string;
  /** One of the creator's links, or "" for all. */
  linkId: string;
}

export const NO_FILTER: CustomerFilter = { q: "", linkId: "" };

/** The filter's part of a query string: only what is set, the search trimmed. */
export function filterQuery(filter: CustomerFilter): URLSearchParams {
  const query = new URLSearchParams();
  const q = filter.q.trim();
  if (q) query.set("q", q);
  if (filter.linkId) query.set("linkId", filter.linkId);
  return query;
}

/** The customers list's address for a filter, an order and a page. */
export function customersPath(
  filter: CustomerFilter,
  sort: CustomerSortKey,
  offset: number,
  limit: number,
): string {
  const query = filterQuery(filter);
  query.set("sort", sort);
  query.set("offset", String(offset));
  query.set("limit", String(limit));
  return `/customers?${query}`;
}

/** The export's download address on the API (the browser downloads it itself, with its session). */
export function customersExportUrl(apiUrl: string, filter: CustomerFilter): string {
  const query = filterQuery(filter).toString();
  return `${apiUrl}/customers/export.csv${query ? `?${query}` : ""}`;
}

/** What a customer paid, net of refunds, in each currency ("€45.00, $3.00"; nothing: zero). */
export function formatTotals(totals: CustomerTotal[], locale: string, fallbackCurrency: Currency): string {
  const amounts: Amounts = totals.map((t) => ({ currency: t.currency, amount: t.amountMinor }));
  return formatAmounts(amounts, locale, fallbackCurrency);
}
