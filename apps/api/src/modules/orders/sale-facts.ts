import type { SaleFacts } from "../wallet/postings.ts";
import type { OrderRow } from "./queries.ts";

/**
 * A paid order's facts for the posting rules: the sale as it stands. What refunds took back (issue
 * 21: partial ones) and what an open chargeback holds (issue 32) are no longer held, released,
 * claimed or refundable.
 */
export function saleFacts(order: OrderRow): SaleFacts {
  if (order.feeMinor === null || order.netMinor === null || order.availableAt === null) {
    throw new Error(`order ${order.id} has no split`);
  }
  return {
    orderId: order.id,
    creatorId: order.creatorId,
    referrerId: order.referrerId,
    partnerId: order.partnerBlocked === null ? order.partnerId : null,
    currency: order.currency,
    vatCountry: order.vatMinor > 0 ? order.vatCountry : null,
    split: {
      grossMinor: order.totalMinor - order.refundedMinor - order.disputedMinor,
      vatMinor: order.vatMinor - order.refundedVatMinor - order.disputedVatMinor,
      feeMinor: order.feeMinor - order.refundedFeeMinor - order.disputedFeeMinor,
      commissionMinor:
        (order.commissionMinor ?? 0) - order.refundedCommissionMinor - order.disputedCommissionMinor,
      partnerCommissionMinor:
        (order.partnerCommissionMinor ?? 0) - order.refundedPartnerMinor - order.disputedPartnerMinor,
      netMinor: order.netMinor - order.refundedNetMinor - order.disputedNetMinor,
    },
    availableAt: order.availableAt,
  };
}

/** Which of the sale's commissions were claimed into their earners' wallets. */
export const claimsOf = (order: OrderRow) => ({
  commission: order.commissionClaimId !== null,
  partner: order.partnerClaimId !== null,
});
