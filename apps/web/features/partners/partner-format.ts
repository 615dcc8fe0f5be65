import type { Currency } from "@salelink/contracts/business-rules";
import type { PartnerMoney } from "@salelink/contracts/partner-sales";
import type { PartnerSortKey, ProgrammeCreator } from "@salelink/contracts/partners";

/*
 * The partner screens' small rules, apart from React so that they are unit-tested
 * (test/partner-format.test.ts): rates between the screen's whole percents and the API's basis
 * points, the partner links, and the partners table's sorting.
 */

const BPS_PER_PERCENT = 100;

/** "10" → 1000; anything but a whole number is NaN, which the contract refuses under its field. */
export function percentToBps(text: string): number {
  const trimmed = text.trim().replace(/\s*%$/, "");
  return /^\d{1,3}$/.test(trimmed) ? Number(trimmed) * BPS_PER_PERCENT : Number.NaN;
}

/** 1000 → "10" for the form; a rate saved with a fraction of a percent keeps it ("12.5"). */
export const bpsToPercentInput = (bps: number): string => String(bps / BPS_PER_PERCENT);

/** 1000 → "10%", 1250 → "12.5%", in the page's language. */
export function formatRate(bps: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 }).format(bps / 10_000);
}

/** A creator as partners see them: the profile's name, else its handle, else null (the screen's word). */
export const creatorLabel = (creator: ProgrammeCreator): string | null =>
  creator.displayName?.trim() || (creator.handle ? `@${creator.handle}` : null);

/** A link's partner address: the buyer page with the partner's code (`origin` is the site's own). */
export const partnerLinkUrl = (origin: string, token: string, code: string): string =>
  `${origin}/v/${encodeURIComponent(token)}?via=${encodeURIComponent(code)}`;

/** The creator page with the partner's code. */
export const partnerCreatorUrl = (origin: string, profileId: string, code: string): string =>
  `${origin}/c/${encodeURIComponent(profileId)}?via=${encodeURIComponent(code)}`;

type MoneyKey = "revenueMinor" | "heldMinor" | "owedMinor" | "paidMinor";

/** One of a partner's sums in each currency, in the shape `formatAmounts` takes. */
export const amountsOf = (money: PartnerMoney[], key: MoneyKey): { currency: Currency; amount: number }[] =>
  money.map((m) => ({ currency: m.currency, amount: m[key] }));

export interface PartnerSort {
  sort: PartnerSortKey;
  dir: "asc" | "desc";
}

/** The API's default order: newest first. */
export const DEFAULT_PARTNER_SORT: PartnerSort = { sort: "createdAt", dir: "desc" };

/** A header clicked: the same column turns its order around; another starts with the largest first. */
export const nextSort = (current: PartnerSort, key: PartnerSortKey): PartnerSort =>
  current.sort === key
    ? { sort: key, dir: current.dir === "desc" ? "asc" : "desc" }
    : { sort: key, dir: "desc" };

/** The partners list's address for a filter, an order and a page. */
export function partnersPath(
  status: string,
  { sort, dir }: PartnerSort,
  offset: number,
  limit: number,
): string {
  const query = new URLSearchParams({ sort, dir, offset: String(offset), limit: String(limit) });
  if (status) query.set("status", status);
  return `/partner-programme/partners?${query}`;
}
