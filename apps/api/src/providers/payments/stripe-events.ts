import { type Currency, currencySchema } from "@salelink/contracts";
import type Stripe from "stripe";
import type { DisputeEvent, DisputeStatus, PaymentEvent, ProviderEvent } from "./types.ts";

/*
 * Stripe's verified events as ours: payments, refunds and disputes. An event we do not act on is
 * null; an authentic event we cannot read safely (an amount that is not an integer, a currency we do
 * not sell in, a dispute status we do not know) throws, so nothing moves on a guess and Stripe
 * delivers it again.
 */

export function toProviderEvent(event: Stripe.Event): ProviderEvent | null {
  switch (event.type) {
    case "charge.dispute.created":
    case "charge.dispute.updated":
    case "charge.dispute.closed":
    case "charge.dispute.funds_withdrawn":
    case "charge.dispute.funds_reinstated":
      return toDisputeEvent(event, event.data.object);
    default:
      return toPaymentEvent(event);
  }
}

function toPaymentEvent(event: Stripe.Event): PaymentEvent | null {
  const common = { id: event.id, createdAt: new Date(event.created * 1000), raw: event };
  switch (event.type) {
    case "payment_intent.succeeded": {
      const intent = event.data.object;
      return {
        ...common,
        type: "payment.succeeded",
        paymentId: intent.id,
        orderId: intent.metadata?.orderId ?? null,
        // What was actually taken, which is what the order's ledger must record.
        amountMinor: integerAmount(intent.amount_received, event.id),
        currency: knownCurrency(intent.currency, event.id),
      };
    }
    case "payment_intent.payment_failed": {
      const intent = event.data.object;
      const failure = intent.last_payment_error;
      const failureReason = failure?.message ?? failure?.code;
      return {
        ...common,
        type: "payment.failed",
        paymentId: intent.id,
        orderId: intent.metadata?.orderId ?? null,
        amountMinor: integerAmount(intent.amount, event.id),
        currency: knownCurrency(intent.currency, event.id),
        ...(failureReason ? { failureReason } : {}),
      };
    }
    case "charge.refunded": {
      const charge = event.data.object;
      // Whole or partial (issue 21): `amount_refunded` is what the charge's refunds add up to, which
      // is what the order records (decision 037), so a redelivered or late event changes nothing.
      if (charge.amount_refunded <= 0) return null;
      const paymentId =
        typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
      // A charge made without a PaymentIntent was not made by us.
      if (!paymentId) return null;
      return {
        ...common,
        type: "refund.succeeded",
        paymentId,
        orderId: charge.metadata?.orderId ?? null,
        amountMinor: integerAmount(charge.amount_refunded, event.id),
        currency: knownCurrency(charge.currency, event.id),
      };
    }
    default:
      return null;
  }
}

/**
 * Every dispute event carries the whole dispute, so each one is read the same way: the snapshot
 * stands whatever the event's type or its order of delivery.
 */
function toDisputeEvent(event: Stripe.Event, dispute: Stripe.Dispute): DisputeEvent | null {
  const intent = dispute.payment_intent;
  const paymentId = typeof intent === "string" ? intent : intent?.id;
  // A dispute of a charge made without a PaymentIntent is not of a payment of ours.
  if (!paymentId) return null;
  const status = disputeStatus(dispute.status, event.id);
  const closed = status === "won" || status === "lost" || status === "inquiry_closed";
  const transactions = dispute.balance_transactions ?? [];
  const moved = transactions.reduce((sum, t) => sum + signedInteger(t.amount, event.id), 0);
  const fees = transactions.reduce((sum, t) => sum + signedInteger(t.fee, event.id), 0);
  const dueBy = dispute.evidence_details?.due_by;
  // Stripe keeps the dispute's own metadata apart from the payment's; an expanded payment has ours.
  const orderId =
    dispute.metadata?.orderId ?? (typeof intent === "object" ? intent?.metadata?.orderId : undefined) ?? null;
  return {
    id: event.id,
    type: "dispute",
    dispute: {
      disputeId: dispute.id,
      paymentId,
      orderId,
      amountMinor: integerAmount(dispute.amount, event.id),
      currency: knownCurrency(dispute.currency, event.id),
      reason: dispute.reason,
      status,
      evidenceDueBy: closed || !dueBy ? null : new Date(dueBy * 1000),
      // A withdrawal is negative, its reinstatement positive: withdrawn while they add up below 0.
      fundsWithdrawn: moved < 0,
      // A returned fee is a negative fee on the reinstatement.
      feeMinor: Math.max(0, fees),
    },
    createdAt: new Date(event.created * 1000),
    raw: event,
  };
}

/**
 * Stripe's dispute statuses as ours. Beyond the seven of the type:
 * - `prevented` (Stripe's dispute prevention, 2025-08-27): the dispute was stopped before it became
 *   a chargeback, either blocked or resolved by refunding the payment, and that refund arrives as
 *   its own `charge.refunded`. No money moves through the dispute and no dispute fee is charged, so
 *   it is closed like an inquiry: taking it as `lost` would take the money from the creator a
 *   second time, on top of the refund.
 * - `appeal_needs_response` / `appeal_under_review`: a lost dispute being appealed. The money stays
 *   withdrawn until an appeal is won (a later `won` gives it back), and our evidence cannot answer
 *   an appeal (Stripe takes another kind), so it stays `lost` for us.
 * Any other status throws: a state Stripe adds later is read before it moves money.
 */
function disputeStatus(status: Stripe.Dispute.Status, eventId: string): DisputeStatus {
  switch (status) {
    case "warning_needs_response":
    case "warning_under_review":
      return "inquiry";
    case "warning_closed":
    case "prevented":
      return "inquiry_closed";
    case "needs_response":
      return "needs_response";
    case "under_review":
      return "under_review";
    case "won":
      return "won";
    case "lost":
      return "lost";
    case "appeal_needs_response":
    case "appeal_under_review":
      return "lost";
    default:
      throw new Error(`Stripe event ${eventId} carries a dispute status we do not know: ${String(status)}`);
  }
}

function integerAmount(value: unknown, eventId: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0)
    throw new Error(`Stripe event ${eventId} carries an invalid amount`);
  return value;
}

/** A balance transaction's amount or fee: negative for money taken back or a fee returned. */
function signedInteger(value: unknown, eventId: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value))
    throw new Error(`Stripe event ${eventId} carries an invalid balance transaction`);
  return value;
}

function knownCurrency(value: unknown, eventId: string): Currency {
  const parsed = currencySchema.safeParse(typeof value === "string" ? value.toUpperCase() : value);
  if (!parsed.success)
    throw new Error(`Stripe event ${eventId} is in a currency we do not sell in: ${String(value)}`);
  return parsed.data;
}
