import { formatMoney } from "@salelink/contracts/money";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Tx } from "../../db/client.ts";
import { jobKind } from "../../jobs/index.ts";
import { hashToken } from "../../lib/tokens.ts";
import type { PaymentEvent, PaymentProvider } from "../../providers/payments/types.ts";
import { referralBlocked } from "../affiliates/self-referral/service.ts";
import { linkTag, queueRevalidate } from "../catalogue/revalidate.ts";
import { orderAccessToken } from "../checkout/order-access.ts";
import { recordCustomers } from "../customers/queries.ts";
import { issueCreditNote, issueInvoices } from "../invoices/service.ts";
import { queueMail } from "../mail/jobs.ts";
import type { MailJobPayload } from "../mail/templates.ts";
import { queueSaleNotification } from "../notifications/service.ts";
import { post } from "../wallet/ledger.ts";
import { holdReleased, orderPaid, splitSale } from "../wallet/postings.ts";
import {
  countSale,
  hasRefundEvent,
  linkForMail,
  linkOfPayment,
  linkPaymentEvent,
  linkTitle,
  lockOrder,
  type OrderRow,
  orderOfPayment,
  type PaidOrderValues,
  recordPaymentEvent,
  referringCampaign,
  referringCampaigns,
  refundedOfPayment,
  setOrderFailed,
  setOrderPaid,
  setOrderRefunded,
  setOrderReleased,
  settleRefunds,
  uncountSale,
} from "./queries.ts";
import { takeBackShare } from "./reversal.ts";
import { saleFacts } from "./sale-facts.ts";
import {
  completeUnfulfilledRefund,
  isUnfulfilled,
  markUnfulfilled,
  unfulfilledReason,
} from "./unfulfilled.ts";

/*
 * Applying a provider's events. Each is recorded under its provider's id in the same transaction as
 * its effect, so a redelivery (or ten concurrent ones) changes nothing, and the order of delivery
 * does not matter: a failure after a success is ignored, a refund that arrives before its payment is
 * applied when the payment is.
 */

export type ApplyResult = "applied" | "duplicate" | "ignored";

/** Releases a paid order's hold when it ends; queued when the order is paid. */
export const releaseHoldJob = jobKind("orders.release-hold", z.object({ orderId: z.uuid() }));

/**
 * Who may earn a commission on a creator's sales, and until when: the owner of the campaign that
 * referred them, for the attribution window after they signed up. Null when nobody does.
 */
export async function referralOf(tx: Tx, config: Config, creatorId: string): Promise<Referral | null> {
  return referralFrom(tx, config, creatorId, await referringCampaign(tx, creatorId));
}

export interface Referral {
  ownerId: string;
  until: Date;
}

async function referralFrom(
  tx: Tx,
  config: Config,
  creatorId: string,
  row: { createdAt: Date; ownerId: string } | null | undefined,
): Promise<Referral | null> {
  if (!row || row.ownerId === creatorId) return null;
  // A self-referral (shared e-mail, sign-up device or IBAN with its referrer) earns nothing.
  if (await referralBlocked(tx, creatorId)) return null;
  const until = new Date(row.createdAt);
  until.setUTCMonth(until.getUTCMonth() + config.rules.affiliateDurationMonths);
  return { ownerId: row.ownerId, until };
}

/**
 * `referralOf` for the creators of a batch of payments: one query for all, then the self-referral
 * checks for the few who were referred.
 */
export async function referralsOf(
  tx: Tx,
  config: Config,
  creatorIds: string[],
): Promise<Map<string, Referral | null>> {
  const rows = await referringCampaigns(tx, creatorIds);
  const out = new Map<string, Referral | null>();
  for (const id of creatorIds) out.set(id, await referralFrom(tx, config, id, rows.get(id)));
  return out;
}

/**
 * What paying an order sets on it (split, hold, referrer, token hash), and the buyer's token. A
 * partner's commission uses the rate the order was attributed at (checkout), never today's.
 */
export function paidValues(
  config: Config,
  order: OrderRow,
  referral: { ownerId: string; until: Date } | null,
  paidAt: Date,
): { values: PaidOrderValues; token: string } {
  const referrerId = referral && paidAt < referral.until ? referral.ownerId : null;
  const split = splitSale(
    order.totalMinor,
    config.rules.platformFeeBps,
    referrerId ? config.rules.affiliateCommissionBps : null,
    order.partnerId !== null && order.partnerBlocked === null ? order.partnerRateBps : null,
    order.vatMinor,
  );
  const token = orderAccessToken(config, order.id);
  return {
    token,
    values: {
      paidAt,
      availableAt: new Date(paidAt.getTime() + config.rules.holdDays * 86_400_000),
      referrerId,
      feeMinor: split.feeMinor,
      commissionMinor: split.commissionMinor,
      partnerCommissionMinor: order.partnerId === null ? null : split.partnerCommissionMinor,
      netMinor: split.netMinor,
      accessTokenHash: hashToken(token),
    },
  };
}

/** The buyer's receipt, queued once per order. */
export function receiptMail(
  config: Config,
  order: OrderRow,
  token: string,
  link: { title: string; creator: string | null } | null,
  amount = formatMoney(order.totalMinor, order.currency, order.locale),
): { mail: MailJobPayload; dedupeKey: string } {
  return {
    mail: {
      to: order.buyerEmail,
      locale: order.locale,
      template: "order-receipt",
      params: {
        url: `${config.WEB_ORIGIN}/order/${token}`,
        libraryUrl: `${config.WEB_ORIGIN}/purchases`,
        title: link?.title ?? "",
        creator: link?.creator ?? "",
        amount,
        invoiceOf: order.id,
      },
    },
    dedupeKey: `receipt:${order.id}`,
  };
}

async function markPaid(tx: Tx, config: Config, order: OrderRow, paidAt: Date): Promise<OrderRow> {
  const { values, token } = paidValues(config, order, await referralOf(tx, config, order.creatorId), paidAt);
  const paid = await setOrderPaid(tx, order.id, values);
  if (!paid) throw new Error("order lost");
  await post(tx, orderPaid(saleFacts(paid)));
  await countSale(tx, order.linkId, order.promoCodeId);
  await recordCustomers(tx, [{ creatorId: order.creatorId, email: order.buyerEmail, paidAt }]);
  const link = await linkForMail(tx, order.linkId);
  const receipt = receiptMail(config, order, token, link);
  await queueMail(tx, receipt.mail, { dedupeKey: receipt.dedupeKey });
  await queueSaleNotification(tx, config, { creatorId: order.creatorId, paidAt });
  await releaseHoldJob.enqueue(
    tx,
    { orderId: order.id },
    { runAt: values.availableAt ?? undefined, dedupeKey: `release:${order.id}` },
  );
  // Last: the invoice's number is taken under its counter's lock, held until the commit.
  await issueInvoices(tx, config, [{ order: paid, title: link?.title ?? "" }]);
  return paid;
}

/**
 * Refunded, wholly or in part (issue 21): the provider reports what the payment's refunds add up to
 * (`cumulative`); what is new since the last one is reversed, as that share of the sale as it stands
 * (decision 037). The money goes back the way it came; what its owners no longer hold (withdrawn,
 * claimed) becomes their debt (decision 042). The last refund closes the order.
 */
async function markRefunded(tx: Tx, order: OrderRow, cumulative = order.totalMinor): Promise<boolean> {
  // What a chargeback holds or took (issue 32) is not the refunds' to take back: the provider's
  // refunded total never counts it.
  const left = order.totalMinor - order.refundedMinor - order.disputedMinor;
  const amountMinor = Math.min(Math.min(cumulative, order.totalMinor) - order.refundedMinor, left);
  if (amountMinor <= 0) return false;
  const full = amountMinor === left;
  // The first and whole refund keeps the order's id as its reference, as before partial refunds.
  const reference =
    full && order.refundedMinor === 0 ? order.id : `${order.id}:${order.refundedMinor + amountMinor}`;
  const { parts } = await takeBackShare(tx, order, { kind: "refund", reference, amountMinor });
  await setOrderRefunded(tx, order.id, parts, full);
  const settled = await settleRefunds(tx, order.id, order.refundedMinor + amountMinor);
  const creatorReason = settled.find((r) => r.by === "creator")?.reason;
  if (full) await uncountSale(tx, order.linkId);
  // However the refund started (the creator, the admin console, the provider's dashboard), the
  // buyer is told.
  const title = await linkTitle(tx, order.linkId);
  await issueCreditNote(tx, order, { parts, reference, title: title ?? "" });
  await queueMail(
    tx,
    {
      to: order.buyerEmail,
      locale: order.locale,
      template: "order-refunded",
      params: {
        title: title ?? "",
        amount: formatMoney(amountMinor, order.currency, order.locale),
        ...(full ? {} : { partial: true }),
        ...(creatorReason ? { reason: creatorReason } : {}),
      },
    },
    { dedupeKey: full && order.refundedMinor === 0 ? `refunded:${order.id}` : `refunded:${reference}` },
  );
  return true;
}

/** Applies one verified provider event inside `tx`: once, whatever the order of deliveries. */
export async function applyPaymentEvent(
  tx: Tx,
  config: Config,
  provider: PaymentProvider["kind"],
  event: PaymentEvent,
): Promise<ApplyResult> {
  const recorded = await recordPaymentEvent(tx, provider, event);
  if (!recorded) return "duplicate";

  const found = await orderOfPayment(tx, provider, event.paymentId, event.orderId);
  if (!found) return "ignored";
  // The order's row only: the stock re-check takes its own locks (unfulfilledReason), and the link's
  // row is taken last, by the sale's count, as the batches take it (apply-batch.ts).
  const order = await lockOrder(tx, found.id);
  const link = await linkOfPayment(tx, found.linkId);
  if (!order || !link) return "ignored";
  await linkPaymentEvent(tx, recorded, order.id);
  // An event for another amount or currency than the order's is recorded, never acted on.
  // A refund's amount is what the payment's refunds add up to, at most the order's total.
  const refund = event.type === "refund.succeeded";
  if (event.currency !== order.currency) return "ignored";
  if (refund ? event.amountMinor > order.totalMinor : event.amountMinor !== order.totalMinor)
    return "ignored";

  // A limited stock's page shows what is left: a payment or a failure changes it.
  const refreshPage = () =>
    link.stockLimit !== null ? queueRevalidate(tx, config, [linkTag(link.token)]) : Promise.resolve();

  if (event.type === "payment.succeeded") {
    if (order.status !== "pending" && order.status !== "failed") return "ignored";
    if (isUnfulfilled(order)) return "ignored";
    // A payment can arrive late (a declined card retried, a reservation over): never past a limit.
    const reason = await unfulfilledReason(tx, config, order);
    if (reason) {
      await markUnfulfilled(tx, order, reason, order.providerPaymentId ?? event.paymentId);
      if (await hasRefundEvent(tx, provider, event.paymentId)) {
        await completeUnfulfilledRefund(tx, order);
      }
      return "applied";
    }
    const paid = await markPaid(tx, config, order, event.createdAt);
    await refreshPage();
    const refundedSoFar = await refundedOfPayment(tx, provider, event.paymentId);
    if (refundedSoFar > 0) await markRefunded(tx, paid, refundedSoFar);
    return "applied";
  }
  if (event.type === "payment.failed") {
    if (order.status !== "pending") return "ignored";
    await setOrderFailed(tx, order.id, event.failureReason ?? "declined");
    // Its reservation is given back at once.
    await refreshPage();
    return "applied";
  }
  // refund.succeeded: the provider confirms the refund of an unfulfilled payment (the job may not
  // have recorded it yet); a refund of a payment not yet known as paid waits for it (see above).
  if (isUnfulfilled(order)) {
    await completeUnfulfilledRefund(tx, order);
    return "applied";
  }
  if (order.status !== "paid") return "ignored";
  // An older total delivered after a newer one has nothing new to take back.
  if (!(await markRefunded(tx, order, event.amountMinor))) return "ignored";
  await refreshPage();
  return "applied";
}

/** The hold of a paid order is over: its creator's share becomes available, the commission claimable. */
export async function releaseHold(
  tx: Tx,
  orderId: string,
  now: Date = new Date(),
): Promise<"released" | "not-due" | "skipped"> {
  const order = await lockOrder(tx, orderId);
  if (order?.status !== "paid" || order.releasedAt !== null) return "skipped";
  if (!order.availableAt || order.availableAt > now) return "not-due";
  // A chargeback may hold all that was left of the sale (issue 32): nothing to move, still released.
  const release = holdReleased(saleFacts(order));
  if (release.entries.length > 0) await post(tx, release);
  await setOrderReleased(tx, order.id, now);
  return "released";
}
