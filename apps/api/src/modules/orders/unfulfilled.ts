import type { Currency, unfulfilledReasons } from "@salelink/contracts";
import { formatMoney } from "@salelink/contracts/money";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Tx } from "../../db/client.ts";
import { jobKind } from "../../jobs/index.ts";
import type { PaymentProvider } from "../../providers/payments/types.ts";
import { heldBy } from "../checkout/queries.ts";
import { queueMail } from "../mail/jobs.ts";
import { type Posting, post } from "../wallet/ledger.ts";
import {
  linkStock,
  linkTitle,
  lockOrder,
  lockPromoUsage,
  type OrderRow,
  setOrderFailed,
  setUnfulfilledRefunded,
} from "./queries.ts";

/*
 * A payment that went through for an order that can no longer be fulfilled (issue 16: a declined
 * card retried after the last unit was sold, a reservation that ended before its payment, a promo
 * code's last use taken meanwhile). It is never a sale: no split, no sales or promo counter, nothing
 * in the creator's or referrer's balances. The money is recorded as owed back to the buyer, the
 * buyer is told, and a job refunds it through the provider, retrying until the provider agrees.
 */

export type UnfulfilledReason = (typeof unfulfilledReasons)[number];

/** Refunds an unfulfilled payment at the provider, then records it; queued when the payment arrives. */
export const refundUnfulfilledJob = jobKind(
  "orders.refund-unfulfilled",
  z.object({ orderId: z.uuid(), paymentId: z.string().min(1).max(255) }),
);
/** The provider is asked again with growing delays for about a day before the job gives up. */
const REFUND_ATTEMPTS = 20;

export const isUnfulfilled = (order: Pick<OrderRow, "status" | "failureReason">) =>
  order.status === "failed" &&
  (order.failureReason === "sold-out" || order.failureReason === "promo-used-up");

/**
 * Why this order, whose payment just succeeded, cannot be fulfilled, or null when it can. The
 * caller holds the link's row lock; the promo code's is taken here. Others' live reservations count
 * (each had a free unit when it started), this order's own does not: a payment within its
 * reservation always finds its unit, one after it only finds a unit nobody else holds.
 */
export async function unfulfilledReason(
  tx: Tx,
  config: Config,
  order: OrderRow,
): Promise<UnfulfilledReason | null> {
  const link = await linkStock(tx, order.linkId);
  if (link && link.stockLimit !== null) {
    const held = await heldBy(tx, config, { linkId: order.linkId }, [order.id]);
    if (link.salesCount + held.count >= link.stockLimit) return "sold-out";
  }
  if (order.promoCodeId) {
    const promo = await lockPromoUsage(tx, order.promoCodeId);
    if (promo && promo.usageLimit !== null) {
      const held = await heldBy(tx, config, { promoCodeId: order.promoCodeId }, [order.id]);
      if (promo.usedCount + held.count >= promo.usageLimit) return "promo-used-up";
    }
  }
  return null;
}

function owedPosting(orderId: string, currency: Currency, amountMinor: number, back: boolean): Posting {
  // In: the provider holds the buyer's money, owed back to them. Back: the provider returned it.
  const sign = back ? 1 : -1;
  return {
    kind: back ? "unfulfilled_refund" : "payment_unfulfilled",
    reference: orderId,
    entries: [
      { account: "provider", ownerId: null, currency, amountMinor: sign * amountMinor },
      { account: "buyer_refunds", ownerId: null, currency, amountMinor: -sign * amountMinor },
    ],
  };
}

/** Records the payment as owed back, tells the buyer, and queues the refund; in the event's transaction. */
export async function markUnfulfilled(
  tx: Tx,
  order: OrderRow,
  reason: UnfulfilledReason,
  paymentId: string,
): Promise<void> {
  await setOrderFailed(tx, order.id, reason);
  await post(tx, owedPosting(order.id, order.currency, order.totalMinor, false));
  const title = await linkTitle(tx, order.linkId);
  await queueMail(
    tx,
    {
      to: order.buyerEmail,
      locale: order.locale,
      template: "order-unfulfilled",
      params: {
        title: title ?? "",
        amount: formatMoney(order.totalMinor, order.currency, order.locale),
        reason,
      },
    },
    { dedupeKey: `unfulfilled:${order.id}` },
  );
  await refundUnfulfilledJob.enqueue(
    tx,
    { orderId: order.id, paymentId },
    { dedupeKey: `unfulfilled-refund:${order.id}`, maxAttempts: REFUND_ATTEMPTS },
  );
}

/** The provider has given the money back: recorded once, whoever learns it first (job or event). */
export async function completeUnfulfilledRefund(tx: Tx, order: OrderRow): Promise<void> {
  if (order.refundedAt !== null) return;
  await post(tx, owedPosting(order.id, order.currency, order.totalMinor, true));
  await setUnfulfilledRefunded(tx, order.id);
}

/**
 * The job: asks the provider for the refund (its idempotency key makes a retry one refund), then
 * records it in the same transaction. A refusal throws: nothing is recorded and the job retries.
 */
export async function refundUnfulfilled(
  tx: Tx,
  payments: PaymentProvider,
  payload: { orderId: string; paymentId: string },
): Promise<void> {
  const order = await lockOrder(tx, payload.orderId);
  if (!order || !isUnfulfilled(order) || order.refundedAt !== null) return;
  await payments.refund(
    { paymentId: payload.paymentId, amountMinor: order.totalMinor, idempotencyKey: `refund-${order.id}` },
    tx,
  );
  await completeUnfulfilledRefund(tx, order);
}
