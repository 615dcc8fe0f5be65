import type { SaleView } from "@salelink/contracts/refunds";
import { parseAmount } from "@/lib/money.ts";

/*
 * What the sale page decides without React (issue 21): why a sale cannot be refunded now, what
 * amount the refund dialog asks for, and whether the page must keep reading the sale.
 */

/** Why there is nothing to refund now; null when the creator may refund `refundableMinor`. */
export type RefundBlock =
  | { reason: "underWay" }
  | { reason: "disputed" }
  | { reason: "fullyRefunded" }
  | { reason: "notPaid" }
  | { reason: "noWindow" }
  | { reason: "windowOver"; until: string }
  | { reason: "unavailable" };

type SaleState = Pick<
  SaleView,
  | "status"
  | "totalMinor"
  | "refundedMinor"
  | "refundableMinor"
  | "refundableUntil"
  | "paidAt"
  | "refunds"
  | "disputes"
>;

/** A refund asked of the payment provider that it has not confirmed (nor refused) yet. */
export const refundUnderWay = (sale: Pick<SaleView, "refunds">): boolean =>
  sale.refunds.some((r) => r.status === "asked");

/**
 * A chargeback the buyer's bank has not decided yet (issue 32): the provider refuses a refund of the
 * payment meanwhile, so the API offers none.
 */
export const disputeOpen = (sale: Pick<SaleView, "disputes">): boolean =>
  sale.disputes.some((d) => d.status === "needs_response" || d.status === "under_review");

/** The first reason that applies, in the order the creator would look for it; `now` in ms. */
export function refundBlock(sale: SaleState, now: number): RefundBlock | null {
  if (refundUnderWay(sale)) return { reason: "underWay" };
  if (disputeOpen(sale)) return { reason: "disputed" };
  if (sale.refundableMinor > 0) return null;
  if (sale.status === "refunded" || (sale.refundedMinor > 0 && sale.refundedMinor >= sale.totalMinor))
    return { reason: "fullyRefunded" };
  if (sale.status !== "paid") return { reason: "notPaid" };
  if (sale.refundableUntil !== null) {
    const until = Date.parse(sale.refundableUntil);
    // A window of 0 days ends when the sale is paid: the link takes no refunds at all.
    if (sale.paidAt !== null && until <= Date.parse(sale.paidAt)) return { reason: "noWindow" };
    if (until <= now) return { reason: "windowOver", until: sale.refundableUntil };
  }
  return { reason: "unavailable" };
}

export type RefundMode = "full" | "partial";

/**
 * The amount a refund asks for, in minor units: all that is left for a full refund, the typed
 * amount for a partial one (NaN when it is not an amount, so the contract refuses it on its field).
 */
export function refundAmountMinor(
  mode: RefundMode,
  typed: string,
  sale: Pick<SaleView, "refundableMinor" | "currency">,
): number {
  if (mode === "full") return sale.refundableMinor;
  return parseAmount(typed, sale.currency) ?? Number.NaN;
}

/** How often the page reads the sale again while the provider has a refund to confirm. */
export const SALE_POLL_MS = 1500;

/** The query's refetch interval: every SALE_POLL_MS while a refund is under way, else none. */
export const salePollInterval = (sale: Pick<SaleView, "refunds"> | undefined): number | false =>
  sale && refundUnderWay(sale) ? SALE_POLL_MS : false;

/**
 * Where a sale's net is now (issue 23): carried by a payout, still held until its hold ends, in the
 * available balance, or nowhere (a sale never paid, or refunded); `now` in ms.
 */
export type SaleMoney =
  | { where: "payout"; payout: NonNullable<SaleView["payout"]> }
  | { where: "held"; until: string }
  | { where: "balance" }
  | { where: "none" };

export function saleMoney(
  sale: Pick<SaleView, "payout" | "status" | "netMinor" | "availableAt">,
  now: number,
): SaleMoney {
  if (sale.payout) return { where: "payout", payout: sale.payout };
  if (sale.status !== "paid" || sale.netMinor === null) return { where: "none" };
  if (sale.availableAt !== null && Date.parse(sale.availableAt) > now)
    return { where: "held", until: sale.availableAt };
  return { where: "balance" };
}
