import type { AdminOrderListQuery } from "@salelink/contracts";
import { and, desc, eq, ilike, inArray, isNotNull, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { DbOrTx } from "../../db/client.ts";
import {
  campaigns,
  creatorProfiles,
  files,
  links,
  orderRefunds,
  orders,
  paymentEvents,
  promoCodes,
  users,
} from "../../db/schema/index.ts";
import type { PaymentEvent, PaymentProvider } from "../../providers/payments/types.ts";
import type { RefundedParts } from "../wallet/postings.ts";

/*
 * The orders module's SQL: an order's life after its payment (events, holds, refunds), the buyer's
 * order page and the console's order search. Locks are taken where the callers' comments say why.
 */

export type OrderRow = typeof orders.$inferSelect;
type ProviderKind = PaymentProvider["kind"];

// --- Orders --------------------------------------------------------------------------------------

/** The order's row, locked for the rest of the transaction; null when there is none. */
export async function lockOrder(db: DbOrTx, orderId: string): Promise<OrderRow | null> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId)).for("update");
  return order ?? null;
}

/** The order a provider's payment belongs to: by its payment id, or by the order id it carries. */
export async function orderOfPayment(
  db: DbOrTx,
  provider: ProviderKind,
  paymentId: string,
  orderId: string | null | undefined,
): Promise<{ id: string; linkId: string } | null> {
  const [found] = await db
    .select({ id: orders.id, linkId: orders.linkId })
    .from(orders)
    .where(
      and(
        eq(orders.provider, provider),
        or(eq(orders.providerPaymentId, paymentId), orderId ? eq(orders.id, orderId) : sql`false`),
      ),
    );
  return found ?? null;
}

export type PaidOrderValues = Pick<
  OrderRow,
  | "paidAt"
  | "availableAt"
  | "referrerId"
  | "feeMinor"
  | "commissionMinor"
  | "partnerCommissionMinor"
  | "netMinor"
  | "accessTokenHash"
>;

/** Marks the order paid with its split and the hash of its buyer's token; null when it is gone. */
export async function setOrderPaid(
  db: DbOrTx,
  orderId: string,
  values: PaidOrderValues,
): Promise<OrderRow | null> {
  const [paid] = await db
    .update(orders)
    .set({ status: "paid", ...values, failureReason: null, updatedAt: new Date() })
    .where(eq(orders.id, orderId))
    .returning();
  return paid ?? null;
}

/** A failed order: declined, or paid when it could no longer be fulfilled (the reason says which). */
export async function setOrderFailed(db: DbOrTx, orderId: string, failureReason: string): Promise<void> {
  await db
    .update(orders)
    .set({ status: "failed", failureReason, updatedAt: new Date() })
    .where(eq(orders.id, orderId));
}

/**
 * Adds what a refund took back to the order's refunded parts; the last refund (`full`) closes it:
 * "refunded", its content no longer given.
 */
export async function setOrderRefunded(
  db: DbOrTx,
  orderId: string,
  parts: RefundedParts,
  full: boolean,
): Promise<void> {
  const now = new Date();
  await db
    .update(orders)
    .set({
      ...(full ? { status: "refunded" as const, refundedAt: now } : {}),
      lastRefundedAt: now,
      refundedMinor: sql`${orders.refundedMinor} + ${parts.amountMinor}`,
      refundedFeeMinor: sql`${orders.refundedFeeMinor} + ${parts.feeMinor}`,
      refundedCommissionMinor: sql`${orders.refundedCommissionMinor} + ${parts.commissionMinor}`,
      refundedPartnerMinor: sql`${orders.refundedPartnerMinor} + ${parts.partnerCommissionMinor}`,
      refundedNetMinor: sql`${orders.refundedNetMinor} + ${parts.netMinor}`,
      refundedVatMinor: sql`${orders.refundedVatMinor} + ${parts.vatMinor}`,
      updatedAt: now,
    })
    .where(eq(orders.id, orderId));
}

/** The refunds asked of the provider that the payment's refunded total now covers are through. */
export async function settleRefunds(
  db: DbOrTx,
  orderId: string,
  cumulative: number,
): Promise<{ by: "creator" | "admin"; reason: string }[]> {
  return db
    .update(orderRefunds)
    .set({ status: "succeeded", settledAt: new Date() })
    .where(
      and(
        eq(orderRefunds.orderId, orderId),
        eq(orderRefunds.status, "asked"),
        lte(orderRefunds.cumulativeMinor, cumulative),
      ),
    )
    .returning({ by: orderRefunds.by, reason: orderRefunds.reason });
}

/** The money of an unfulfilled order is back with its buyer; its status stays "failed". */
export async function setUnfulfilledRefunded(db: DbOrTx, orderId: string): Promise<void> {
  await db
    .update(orders)
    .set({ refundedAt: new Date(), updatedAt: new Date() })
    .where(eq(orders.id, orderId));
}

export async function setOrderReleased(db: DbOrTx, orderId: string, now: Date): Promise<void> {
  await db.update(orders).set({ releasedAt: now, updatedAt: now }).where(eq(orders.id, orderId));
}

/** Paid orders whose hold would be over at `asOf` and is not released yet (only `orderIds` if given). */
export async function dueHoldOrderIds(db: DbOrTx, asOf: Date, orderIds?: string[]): Promise<string[]> {
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
  return due.map((row) => row.id);
}

// --- Links, promo codes and referrers, as a payment sees them ------------------------------------

/** What a payment needs of its link: whether its stock is limited (its page then changes), its token. */
export async function linkOfPayment(
  db: DbOrTx,
  linkId: string,
): Promise<{ token: string; stockLimit: number | null } | null> {
  const [link] = await db
    .select({ token: links.token, stockLimit: links.stockLimit })
    .from(links)
    .where(eq(links.id, linkId));
  return link ?? null;
}

export async function linkStock(
  db: DbOrTx,
  linkId: string,
): Promise<{ stockLimit: number | null; salesCount: number } | null> {
  const [link] = await db
    .select({ stockLimit: links.stockLimit, salesCount: links.salesCount })
    .from(links)
    .where(eq(links.id, linkId));
  return link ?? null;
}

/** The promo code's limit and uses, its row locked until the payment is settled. */
export async function lockPromoUsage(
  db: DbOrTx,
  promoCodeId: string,
): Promise<{ usageLimit: number | null; usedCount: number } | null> {
  const [promo] = await db
    .select({ usageLimit: promoCodes.usageLimit, usedCount: promoCodes.usedCount })
    .from(promoCodes)
    .where(eq(promoCodes.id, promoCodeId))
    .for("update");
  return promo ?? null;
}

export async function countSale(db: DbOrTx, linkId: string, promoCodeId: string | null): Promise<void> {
  await db
    .update(links)
    .set({ salesCount: sql`${links.salesCount} + 1` })
    .where(eq(links.id, linkId));
  if (promoCodeId) {
    await db
      .update(promoCodes)
      .set({ usedCount: sql`${promoCodes.usedCount} + 1` })
      .where(eq(promoCodes.id, promoCodeId));
  }
}

/** A refunded sale leaves the link's count (a promo code's use stays spent). */
export async function uncountSale(db: DbOrTx, linkId: string): Promise<void> {
  await db
    .update(links)
    .set({ salesCount: sql`greatest(${links.salesCount} - 1, 0)` })
    .where(eq(links.id, linkId));
}

/** What the buyer's mails name: the link's title and its creator's display name. */
export async function linkForMail(
  db: DbOrTx,
  linkId: string,
): Promise<{ title: string; creator: string | null } | null> {
  const [link] = await db
    .select({ title: links.title, creator: creatorProfiles.displayName })
    .from(links)
    .leftJoin(creatorProfiles, eq(creatorProfiles.id, links.profileId))
    .where(eq(links.id, linkId));
  return link ?? null;
}

export async function linkTitle(db: DbOrTx, linkId: string): Promise<string | null> {
  const [link] = await db.select({ title: links.title }).from(links).where(eq(links.id, linkId));
  return link?.title ?? null;
}

/** `linkForMail` for many links in one query (a batch of payments), by link id. */
export async function linksForMail(
  db: DbOrTx,
  linkIds: string[],
): Promise<Map<string, { title: string; creator: string | null }>> {
  if (linkIds.length === 0) return new Map();
  const rows = await db
    .select({ id: links.id, title: links.title, creator: creatorProfiles.displayName })
    .from(links)
    .leftJoin(creatorProfiles, eq(creatorProfiles.id, links.profileId))
    .where(inArray(links.id, linkIds));
  return new Map(rows.map(({ id, ...link }) => [id, link]));
}

/** `referringCampaign` for many creators in one query (a batch of payments); the unreferred are absent. */
export async function referringCampaigns(
  db: DbOrTx,
  creatorIds: string[],
): Promise<Map<string, { createdAt: Date; ownerId: string }>> {
  if (creatorIds.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, createdAt: users.createdAt, ownerId: campaigns.ownerId })
    .from(users)
    .innerJoin(campaigns, eq(campaigns.id, users.referredByCampaignId))
    .where(inArray(users.id, creatorIds));
  return new Map(rows.map(({ id, ...row }) => [id, row]));
}

/** The creator's sign-up date and the owner of the campaign that referred them, if any. */
export async function referringCampaign(
  db: DbOrTx,
  creatorId: string,
): Promise<{ createdAt: Date; ownerId: string } | null> {
  const [row] = await db
    .select({ createdAt: users.createdAt, ownerId: campaigns.ownerId })
    .from(users)
    .innerJoin(campaigns, eq(campaigns.id, users.referredByCampaignId))
    .where(eq(users.id, creatorId));
  return row ?? null;
}

// --- Provider events -----------------------------------------------------------------------------

/** Records an event under its provider's id; null when it was already recorded (a redelivery). */
export async function recordPaymentEvent(
  db: DbOrTx,
  provider: ProviderKind,
  event: Pick<PaymentEvent, "id" | "paymentId" | "amountMinor" | "raw"> & { type: string },
): Promise<string | null> {
  const [recorded] = await db
    .insert(paymentEvents)
    .values({
      provider,
      eventId: event.id,
      type: event.type,
      paymentId: event.paymentId,
      orderId: null,
      amountMinor: event.amountMinor,
      payload: event.raw,
    })
    .onConflictDoNothing({ target: [paymentEvents.provider, paymentEvents.eventId] })
    .returning({ id: paymentEvents.id });
  return recorded?.id ?? null;
}

export async function linkPaymentEvent(db: DbOrTx, eventId: string, orderId: string): Promise<void> {
  await db.update(paymentEvents).set({ orderId }).where(eq(paymentEvents.id, eventId));
}

/** Whether the provider has already reported a refund of this payment. */
/** What a payment's refund events report as refunded, the largest total (0 when none came). */
export async function refundedOfPayment(
  db: DbOrTx,
  provider: ProviderKind,
  paymentId: string,
): Promise<number> {
  const [row] = await db
    .select({ amount: sql<number>`coalesce(max(${paymentEvents.amountMinor}), 0)`.mapWith(Number) })
    .from(paymentEvents)
    .where(
      and(
        eq(paymentEvents.provider, provider),
        eq(paymentEvents.paymentId, paymentId),
        eq(paymentEvents.type, "refund.succeeded"),
      ),
    );
  return Number(row?.amount ?? 0);
}

export async function hasRefundEvent(
  db: DbOrTx,
  provider: ProviderKind,
  paymentId: string,
): Promise<boolean> {
  const [row] = await db
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

// --- The buyer's order page ----------------------------------------------------------------------

/** What the order page shows of an order: its link, creator and file. */
function orderPageRows(db: DbOrTx) {
  return db
    .select({
      id: orders.id,
      status: orders.status,
      totalMinor: orders.totalMinor,
      currency: orders.currency,
      paidAt: orders.paidAt,
      vatScheme: orders.vatScheme,
      vatCountry: orders.vatCountry,
      vatRateBps: orders.vatRateBps,
      vatMinor: orders.vatMinor,
      pricesIncludeVat: orders.pricesIncludeVat,
      title: links.title,
      description: links.description,
      creatorId: creatorProfiles.id,
      creatorName: creatorProfiles.displayName,
      creatorHandle: creatorProfiles.handle,
      storageKey: files.storageKey,
      kind: files.kind,
      contentType: files.contentType,
      sizeBytes: files.sizeBytes,
      originalName: files.originalName,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .leftJoin(creatorProfiles, eq(creatorProfiles.id, links.profileId))
    .leftJoin(files, and(eq(files.id, links.fileId), eq(files.ownerId, links.ownerId)))
    .$dynamic();
}
export type OrderPageRow = NonNullable<Awaited<ReturnType<typeof orderPageRow>>>;

/** The order behind a receipt's token (by its hash), with its link, creator and file. */
export async function orderPageRow(db: DbOrTx, accessTokenHash: string) {
  const [row] = await orderPageRows(db).where(eq(orders.accessTokenHash, accessTokenHash));
  return row ?? null;
}

/**
 * The orders a buyer paid with this address (checkout stores it lower-cased), newest first, paid
 * or refunded since: the buyer's library (issue 21).
 */
export async function ordersOfBuyer(db: DbOrTx, params: { email: string; limit: number }) {
  return (
    orderPageRows(db)
      .where(
        and(
          eq(orders.buyerEmail, params.email),
          isNotNull(orders.paidAt),
          inArray(orders.status, ["paid", "refunded"]),
        ),
      )
      // A payment's time is the provider's, to the second: the checkout's breaks ties.
      .orderBy(desc(orders.paidAt), desc(orders.createdAt), desc(orders.id))
      .limit(params.limit)
  );
}

/** The buyer's paid (or refunded) order by its token's hash, when it was paid with this address. */
export async function orderOfBuyer(db: DbOrTx, params: { email: string; accessTokenHash: string }) {
  const [row] = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.accessTokenHash, params.accessTokenHash),
        eq(orders.buyerEmail, params.email),
        isNotNull(orders.paidAt),
        inArray(orders.status, ["paid", "refunded"]),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Whether the address paid for anything (the library's link is sent only then). */
export async function buyerHasOrders(db: DbOrTx, params: { email: string }): Promise<boolean> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.buyerEmail, params.email), isNotNull(orders.paidAt)))
    .limit(1);
  return row !== undefined;
}

// --- The console's order search ------------------------------------------------------------------

const creators = alias(users, "creators");

/** A LIKE pattern matching `text` anywhere, its own % and _ taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** One page of orders, newest first, plus one more row when there is a next page. */
export async function searchOrderRows(db: DbOrTx, query: AdminOrderListQuery) {
  const conditions: (SQL | undefined)[] = [query.status ? eq(orders.status, query.status) : undefined];
  const text = query.q?.trim();
  if (text) {
    const pattern = containing(text);
    conditions.push(
      z.uuid().safeParse(text).success
        ? eq(orders.id, text)
        : or(ilike(orders.buyerEmail, pattern), ilike(links.title, pattern), ilike(creators.email, pattern)),
    );
  }
  if (query.cursor) {
    // Compared in SQL: a round trip through a JS Date would drop the microseconds PostgreSQL keeps.
    conditions.push(
      sql`(${orders.createdAt}, ${orders.id}) < (select ${orders.createdAt}, ${orders.id} from ${orders} where ${orders.id} = ${query.cursor})`,
    );
  }
  return db
    .select({
      id: orders.id,
      status: orders.status,
      total: orders.totalMinor,
      currency: orders.currency,
      buyerEmail: orders.buyerEmail,
      linkId: links.id,
      linkTitle: links.title,
      creatorId: creators.id,
      creatorEmail: creators.email,
      provider: orders.provider,
      createdAt: orders.createdAt,
      paidAt: orders.paidAt,
      refundedAt: orders.refundedAt,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .innerJoin(creators, eq(creators.id, orders.creatorId))
    .where(and(...conditions))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(query.limit + 1);
}
