import type { Currency, unfulfilledReasons } from "@salelink/contracts";
import { formatMoney } from "@salelink/contracts/money";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Tx } from "../../db/client.ts";
import { jobKind } from "../../jobs/index.ts";
import type { PaymentProvider } from "../../providers/payments/types.ts";
import { heldByPromo } from "../checkout/queries.ts";
import { sellFreeUnit, sellOwnUnit } from "../checkout/stock-queries.ts";
import { queueMail } from "../mail/jobs.ts";
import { type Posting, post } from "../wallet/ledger.ts";
import {
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
 * Why this order, whose payment just succeeded, cannot be fulfilled, or null when it can: then, on
 * a limited link, the order's stock unit is now sold (in `tx`). It takes its own locks, in the
 * order checkout takes them (a capped code's row, then stock units): the caller holds the order's
 * row (`lockOrder`) and needs no lock on the link. A payment within its reservation always finds
 * its unit; one after it keeps its unit while nobody has claimed it, else takes any free unit, and
 * is sold out when there is none. A capped code's live reservations by others count, as at checkout.
 */
export async function unfulfilledReason(
  tx: Tx,
  config: Config,
  order: OrderRow,
): Promise<UnfulfilledReason | null> {
  if (order.promoCodeId) {
    const promo = await lockPromoUsage(tx, order.promoCodeId);
    if (promo && promo.usageLimit !== null) {
      const held = await heldByPromo(tx, config, order.promoCodeId, [order.id]);
      if (promo.usedCount + held.count >= promo.usageLimit) return "promo-used-up";
    }
  }
  // Last, so that a payment refused for its code has not taken a unit.
  const stock = await sellOwnUnit(tx, { linkId: order.linkId, orderId: order.id });
  if (stock?.limited && !stock.sold) {
    if (!(await sellFreeUnit(tx, { linkId: order.linkId, orderId: order.id }))) return "sold-out";
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
