import type { Currency, Locale } from "@salelink/contracts";
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
import { queueMail } from "../mail/jobs.ts";
import { balancesOf, post } from "../wallet/ledger.ts";
import { holdReleased, orderPaid, orderRefunded, type SaleFacts, splitSale } from "../wallet/postings.ts";
import { orderAccessToken } from "./service.ts";

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

/** An amount for an e-mail, in the buyer's language, from a decimal string (no float). */
export function formatForMail(minor: number, currency: Currency, locale: Locale): string {
  const text = String(minor).padStart(3, "0");
  const decimal = `${text.slice(0, -2)}.${text.slice(-2)}` as `${number}`;
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(decimal);
}

/** The referrer of a creator for a sale now: the campaign's owner, within the attribution window. */
async function referrerOf(tx: Tx, config: Config, creatorId: string, now: Date): Promise<string | null> {
  const [row] = await tx
    .select({ createdAt: users.createdAt, ownerId: campaigns.ownerId })
    .from(users)
    .innerJoin(campaigns, eq(campaigns.id, users.referredByCampaignId))
    .where(eq(users.id, creatorId));
  if (!row || row.ownerId === creatorId) return null;
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

  const [order] = await tx
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.provider, provider),
        or(
          eq(orders.providerPaymentId, event.paymentId),
          event.orderId ? eq(orders.id, event.orderId) : sql`false`,
        ),
      ),
    )
    .for("update");
  if (!order) return "ignored";
  await tx.update(paymentEvents).set({ orderId: order.id }).where(eq(paymentEvents.id, recorded.id));
  // An event for another amount or currency than the order's is recorded, never acted on.
  if (event.amountMinor !== order.totalMinor || event.currency !== order.currency) return "ignored";

  if (event.type === "payment.succeeded") {
    if (order.status !== "pending" && order.status !== "failed") return "ignored";
    const paid = await markPaid(tx, config, order, event.createdAt);
    const [earlierRefund] = await tx
      .select({ id: paymentEvents.id })
      .from(paymentEvents)
      .where(
        and(
          eq(paymentEvents.provider, provider),
          eq(paymentEvents.paymentId, event.paymentId),
          eq(paymentEvents.type, "refund.succeeded"),
        ),
      )
      .limit(1);
    if (earlierRefund) await markRefunded(tx, paid);
    return "applied";
  }
  if (event.type === "payment.failed") {
    if (order.status !== "pending") return "ignored";
    await tx
      .update(orders)
      .set({ status: "failed", failureReason: event.failureReason ?? "declined", updatedAt: new Date() })
      .where(eq(orders.id, order.id));
    return "applied";
  }
  // refund.succeeded: a refund of a payment not yet known as paid waits for it (see above).
  if (order.status !== "paid") return "ignored";
  await markRefunded(tx, order);
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
