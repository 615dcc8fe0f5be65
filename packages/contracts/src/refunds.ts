import { z } from "zod";
import { currencySchema } from "./business-rules.ts";
import { orderStatusSchema } from "./checkout.ts";
import { disputeViewSchema } from "./disputes.ts";
import { payoutStatusSchema } from "./payouts.ts";

/*
 * Refunds by the creator (issue 21): full or partial, within the link's refund window, with a
 * reason. The provider is asked with an idempotency key; the ledger reverses the sale in proportion
 * when the provider confirms (decision 037).
 */

// The link's window is defined beside the link contracts' imports (no cycle through checkout.ts).
export {
  REFUND_WINDOW_DEFAULT_DAYS,
  REFUND_WINDOW_MAX_DAYS,
  refundWindowDaysSchema,
} from "./refund-window.ts";

export const REFUND_REASON_MAX = 500;

/** Who asked: the sale's creator, or an admin (the console, in full). */
export const refundRequesters = ["creator", "admin"] as const;
export const refundRequesterSchema = z.enum(refundRequesters);
/** Asked of the provider, confirmed by its event, or refused by it. */
export const refundStatuses = ["asked", "succeeded", "failed"] as const;
export const refundStatusSchema = z.enum(refundStatuses);

export const saleParamsSchema = z.object({ id: z.uuid() });

/** POST /sales/{id}/refunds: the amount in the sale's currency, at most what is left to refund. */
export const saleRefundBodySchema = z.object({
  amountMinor: z.number().int().positive(),
  reason: z.string().trim().min(1).max(REFUND_REASON_MAX),
});
export type SaleRefundBody = z.infer<typeof saleRefundBodySchema>;

export const refundViewSchema = z.object({
  id: z.uuid(),
  amountMinor: z.number().int(),
  currency: currencySchema,
  reason: z.string(),
  by: refundRequesterSchema,
  status: refundStatusSchema,
  failure: z.string().nullable(),
  createdAt: z.iso.datetime(),
  settledAt: z.iso.datetime().nullable(),
});
export type RefundView = z.infer<typeof refundViewSchema>;

/** GET /sales/{id}: one of the creator's sales, with what can still be refunded, and until when. */
export const saleViewSchema = z.object({
  id: z.uuid(),
  linkId: z.uuid(),
  linkTitle: z.string(),
  buyerEmail: z.string(),
  status: orderStatusSchema,
  currency: currencySchema,
  totalMinor: z.number().int(),
  feeMinor: z.number().int().nullable(),
  partnerCommissionMinor: z.number().int().nullable(),
  netMinor: z.number().int().nullable(),
  refundedMinor: z.number().int(),
  paidAt: z.iso.datetime().nullable(),
  availableAt: z.iso.datetime().nullable(),
  /** What the creator may still refund now: 0 once the window closed or a refund is under way. */
  refundableMinor: z.number().int(),
  /** The end of the link's refund window for this sale; null when the sale was never paid. */
  refundableUntil: z.iso.datetime().nullable(),
  /** The window the buyer was shown at checkout, fixed on the sale (issue 32). */
  refundWindowDays: z.number().int(),
  /** What chargebacks hold (open) or took (lost) of the total (issue 32). */
  disputedMinor: z.number().int(),
  /** The buyer's bank's disputes of this sale, oldest first. */
  disputes: z.array(disputeViewSchema),
  refunds: z.array(refundViewSchema),
  /** The VAT in the total (issue 22): not the creator's money, set apart before the fee. */
  vatMinor: z.number().int(),
  vatRateBps: z.number().int().nullable(),
  vatCountry: z.string().nullable(),
  /**
   * The payout that carried this sale's net to the bank (issue 23): payouts take the available
   * balance first in, first out, so it is the first payout in the sale's currency whose running
   * total reaches the sale's place in the running total of what became available. Null while the
   * sale is held or its money still waits in the balance.
   */
  payout: z
    .object({
      id: z.uuid(),
      status: payoutStatusSchema,
      requestedAt: z.iso.datetime(),
      paidAt: z.iso.datetime().nullable(),
    })
    .nullable(),
});
export type SaleView = z.infer<typeof saleViewSchema>;
