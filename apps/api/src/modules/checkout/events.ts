import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Db, Tx } from "../../db/client.ts";
import {
  campaigns,
  creatorProfiles,
  links,
  orders,
  paymentEvents,
  promoCodes,
  users,
} from "../../db/schema/index.ts";
import { jobKind } from "../../jobs/index.ts";
import { hashToken } from "../../lib/tokens.ts";
import type { PaymentEvent, PaymentProvider } from "../../providers/payments/types.ts";
import { referralBlocked } from "../affiliates/self-referral.ts";
import { linkTag, queueRevalidate } from "../catalogue/revalidate.ts";
import { queueMail } from "../mail/jobs.ts";
import { balancesOf, post } from "../wallet/ledger.ts";
import { holdReleased, orderPaid, orderRefunded, type SaleFacts, splitSale } from "../wallet/postings.ts";
import { formatForMail } from "./money-text.ts";
import { orderAccessToken } from "./service.ts";
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

type OrderRow = typeof orders.$inferSelect;

export type ApplyResult = "applied" | "duplicate" | "ignored";

/** Releases a paid order's hold when it ends; queued when the order is paid. */
export const releaseHoldJob = jobKind("orders.release-hold", z.object({ orderId: z.uuid() }));

export { formatForMail } from "./money-text.ts";

/** The referrer of a creator for a sale now: the campaign's owner, within the attribution window. */
async function referrerOf(tx: Tx, config: Config, creatorId: string, now: Date): Promise<string | null> {
  const [row] = await tx
    .select({ createdAt: users.createdAt, ownerId: campaigns.ownerId })
    .from(users)
    .innerJoin(campaigns, eq(campaigns.id, users.referredByCampaignId))
    .where(eq(users.id, creatorId));
  if (!row || row.ownerId === creatorId) return null;
  // A self-referral (shared e-mail, sign-up device or IBAN with its referrer) earns nothing.
  if (await referralBlocked(tx, creatorId)) return null;
  const until = new Date(row.createdAt);
  until.setUTCMonth(until.getUTCMonth() + config.rules.affiliateDurationMonths);
  return now < until ? row.ownerId : null;
}

function saleFacts(order: OrderRow): SaleFacts {
  if (order.feeMinor === null || order.netMinor === null || order.availableAt === null) {
    throw new Error(`order ${order.id} has no split`);
  }
  return {
    orderId: order.id,
    creatorId: order.creatorId,
    referrerId: order.referrerId,
    currency: order.currency,
    split: {
      grossMinor: order.totalMinor,
      feeMinor: order.feeMinor,
      commissionMinor: order.commissionMinor ?? 0,
      netMinor: order.netMinor,
    },
    availableAt: order.availableAt,
  };
}

async function markPaid(tx: Tx, config: Config, order: OrderRow, paidAt: Date): Promise<OrderRow> {
  const referrerId = await referrerOf(tx, config, order.creatorId, paidAt);
  const split = splitSale(
    order.totalMinor,
    config.rules.platformFeeBps,
    referrerId ? config.rules.affiliateCommissionBps : null,
  );
  const availableAt = new Date(paidAt.getTime() + config.rules.holdDays * 86_400_000);
  const token = orderAccessToken(config, order.id);
  const [paid] = await tx
    .update(orders)
    .set({
      status: "paid",
      paidAt,
      availableAt,
      referrerId,
      feeMinor: split.feeMinor,
      commissionMinor: split.commissionMinor,
      netMinor: split.netMinor,
      accessTokenHash: hashToken(token),
      failureReason: null,
      updatedAt: new Date(),
    })
    .where(eq(orders.id, order.id))
    .returning();
  if (!paid) throw new Error("order lost");
  await post(tx, orderPaid(saleFacts(paid)));
  await tx
    .update(links)
    .set({ salesCount: sql`${links.salesCount} + 1` })
    .where(eq(links.id, order.linkId));
  if (order.promoCodeId) {
    await tx
      .update(promoCodes)
      .set({ usedCount: sql`${promoCodes.usedCount} + 1` })
      .where(eq(promoCodes.id, order.promoCodeId));
  }
  const [link] = await tx
    .select({ title: links.title, creator: creatorProfiles.displayName })
    .from(links)
    .leftJoin(creatorProfiles, eq(creatorProfiles.id, links.profileId))
    .where(eq(links.id, order.linkId));
  await queueMail(
    tx,
    {
      to: order.buyerEmail,
      locale: order.locale,
      template: "order-receipt",
      params: {
        url: `${config.WEB_ORIGIN}/order/${token}`,
        title: link?.title ?? "",
        creator: link?.creator ?? "",
        amount: formatForMail(order.totalMinor, order.currency, order.locale),
      },
    },
    { dedupeKey: `receipt:${order.id}` },
  );
  await releaseHoldJob.enqueue(
    tx,
    { orderId: order.id },
    { runAt: availableAt, dedupeKey: `release:${order.id}` },
  );
  return paid;
}

/**
 * Refunded: the money goes back the way it came. After the hold, the creator's share is taken from
 * their available balance; whatever they have already withdrawn is borne by the platform's fees
 * account (the creator's balance never goes below zero).
 */
async function markRefunded(tx: Tx, order: OrderRow): Promise<void> {
  const posting = orderRefunded(saleFacts(order), order.releasedAt !== null);
  // Money already withdrawn (a creator's payout, a referrer's claimed commission) cannot be taken
  // back from a balance that never goes below zero: the platform's fees bear that part.
  const covered: typeof posting.entries = [];
  for (const entry of posting.entries) {
    if (entry.ownerId === null || entry.amountMinor >= 0) {
      covered.push(entry);
      continue;
    }
    // A claimed commission left with its claim: taking it from the referrer's claimable balance would
    // take another order's commission, still unclaimed, instead.
    if (entry.account === "affiliate_claimable" && order.commissionClaimId !== null) {
      covered.push({ ...entry, account: "platform_fees", ownerId: null });
      continue;
    }
    const balance =
      (await balancesOf(tx, entry.ownerId)).find(
        (b) => b.account === entry.account && b.currency === entry.currency,
      )?.balanceMinor ?? 0;
    const shortfall = Math.max(0, -entry.amountMinor - balance);
    if (shortfall < -entry.amountMinor)
      covered.push({ ...entry, amountMinor: entry.amountMinor + shortfall });
    if (shortfall > 0) {
      covered.push({
        account: "platform_fees",
        ownerId: null,
        currency: entry.currency,
        amountMinor: -shortfall,
      });
    }
  }
  posting.entries = covered;
  await post(tx, posting);
  await tx
    .update(orders)
    .set({ status: "refunded", refundedAt: new Date(), updatedAt: new Date() })
    .where(eq(orders.id, order.id));
  await tx
    .update(links)
    .set({ salesCount: sql`greatest(${links.salesCount} - 1, 0)` })
    .where(eq(links.id, order.linkId));
  // However the refund started (the admin console, the provider's dashboard), the buyer is told.
  const [link] = await tx.select({ title: links.title }).from(links).where(eq(links.id, order.linkId));
  await queueMail(
    tx,
    {
      to: order.buyerEmail,
      locale: order.locale,
      template: "order-refunded",
      params: {
        title: link?.title ?? "",
        amount: formatForMail(order.totalMinor, order.currency, order.locale),
      },
    },
    { dedupeKey: `refunded:${order.id}` },
  );
}

/** Whether the provider has already reported a refund of this payment. */
async function refundEventOf(tx: Tx, provider: PaymentProvider["kind"], paymentId: string) {
  const [row] = await tx
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(
      and(
        eq(paymentEvents.provider, provider),
        eq(paymentEvents.paymentId, paymentId),
        eq(paymentEvents.type, "refund.succeeded"),
      ),
    )
    .limit(1);
  return !!row;
}

/** Applies one verified provider event inside `tx`: once, whatever the order of deliveries. */
export async function applyPaymentEvent(
  tx: Tx,
  config: Config,
  provider: PaymentProvider["kind"],
  event: PaymentEvent,
): Promise<ApplyResult> {
  const [recorded] = await tx
    .insert(paymentEvents)
    .values({
      provider,
      eventId: event.id,
      type: event.type,
      paymentId: event.paymentId,
      orderId: null,
      payload: event.raw,
    })
    .onConflictDoNothing({ target: [paymentEvents.provider, paymentEvents.eventId] })
    .returning({ id: paymentEvents.id });
  if (!recorded) return "duplicate";

  const [found] = await tx
    .select({ id: orders.id, linkId: orders.linkId })
    .from(orders)
    .where(
      and(
        eq(orders.provider, provider),
        or(
          eq(orders.providerPaymentId, event.paymentId),
          event.orderId ? eq(orders.id, event.orderId) : sql`false`,
        ),
      ),
    );
  if (!found) return "ignored";
  // The link's row first, then the order's, in the order checkout and cancel take them: a payment
  // re-checks the stock against a count nobody changes meanwhile, and no two paths deadlock.
  const [link] = await tx
    .select({ token: links.token, stockLimit: links.stockLimit })
    .from(links)
    .where(eq(links.id, found.linkId))
    .for("update");
  const [order] = await tx.select().from(orders).where(eq(orders.id, found.id)).for("update");
  if (!order || !link) return "ignored";
  await tx.update(paymentEvents).set({ orderId: order.id }).where(eq(paymentEvents.id, recorded.id));
  // An event for another amount or currency than the order's is recorded, never acted on.
  if (event.amountMinor !== order.totalMinor || event.currency !== order.currency) return "ignored";

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
      if (await refundEventOf(tx, provider, event.paymentId)) {
        await completeUnfulfilledRefund(tx, order);
      }
      return "applied";
    }
    const paid = await markPaid(tx, config, order, event.createdAt);
    await refreshPage();
    if (await refundEventOf(tx, provider, event.paymentId)) await markRefunded(tx, paid);
    return "applied";
  }
  if (event.type === "payment.failed") {
    if (order.status !== "pending") return "ignored";
    await tx
      .update(orders)
      .set({ status: "failed", failureReason: event.failureReason ?? "declined", updatedAt: new Date() })
      .where(eq(orders.id, order.id));
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
  await markRefunded(tx, order);
  await refreshPage();
  return "applied";
}

/** The hold of a paid order is over: its creator's share becomes available, the commission claimable. */
export async function releaseHold(
  tx: Tx,
  orderId: string,
  now: Date = new Date(),
): Promise<"released" | "not-due" | "skipped"> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  if (!order || order.status !== "paid" || order.releasedAt !== null) return "skipped";
  if (!order.availableAt || order.availableAt > now) return "not-due";
  await post(tx, holdReleased(saleFacts(order)));
  await tx.update(orders).set({ releasedAt: now, updatedAt: now }).where(eq(orders.id, order.id));
  return "released";
}

/**
 * Development and tests only: release every hold that would be over at `asOf`, as if the clock had
 * moved there (the browser tests show a sale going from pending to available).
 */
export async function releaseHoldsAsOf(db: Db, asOf: Date, orderIds?: string[]): Promise<number> {
  const due = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.status, "paid"),
        isNull(orders.releasedAt),
        lte(orders.availableAt, asOf),
        orderIds ? inArray(orders.id, orderIds) : undefined,
      ),
    );
  let released = 0;
  for (const { id } of due) {
    if ((await db.transaction((tx) => releaseHold(tx, id, asOf))) === "released") released++;
  }
  return released;
}
