import type { DisputeStatusName } from "@salelink/contracts";
import { and, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.ts";
import {
  disputes,
  invoices,
  jobs,
  links,
  orderAccess,
  orders,
  reports,
  users,
} from "../../../db/schema/index.ts";
import type { RefundedParts } from "../../wallet/postings.ts";

/* The disputes' SQL (issue 32): their rows, what the order gives up to them, and the evidence. */

export type DisputeRow = typeof disputes.$inferSelect;

/** The dispute under way of an order (money held, no outcome yet), if any. */
export async function openDisputeOf(db: DbOrTx, orderId: string) {
  const [row] = await db
    .select({ id: disputes.id })
    .from(disputes)
    .where(and(eq(disputes.orderId, orderId), inArray(disputes.status, ["needs_response", "under_review"])))
    .limit(1);
  return row ?? null;
}

/** The dispute of a provider's id, locked; null when it is new to us. */
export async function lockDispute(db: DbOrTx, provider: string, providerDisputeId: string) {
  const [row] = await db
    .select()
    .from(disputes)
    .where(and(eq(disputes.provider, provider), eq(disputes.providerDisputeId, providerDisputeId)))
    .for("update");
  return row ?? null;
}

export async function lockDisputeById(db: DbOrTx, id: string) {
  const [row] = await db.select().from(disputes).where(eq(disputes.id, id)).for("update");
  return row ?? null;
}

export async function insertDispute(db: DbOrTx, values: typeof disputes.$inferInsert): Promise<DisputeRow> {
  const [row] = await db.insert(disputes).values(values).returning();
  if (!row) throw new Error("dispute not inserted");
  return row;
}

export async function updateDispute(
  db: DbOrTx,
  id: string,
  values: Partial<typeof disputes.$inferInsert>,
): Promise<DisputeRow> {
  const [row] = await db
    .update(disputes)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(disputes.id, id))
    .returning();
  if (!row) throw new Error("dispute lost");
  return row;
}

/** What a dispute holds of each part of the sale, added to (or, won, taken off) the order's. */
export async function addDisputedParts(db: DbOrTx, orderId: string, parts: RefundedParts, sign: 1 | -1) {
  await db
    .update(orders)
    .set({
      disputedMinor: sql`${orders.disputedMinor} + ${sign * parts.amountMinor}`,
      disputedFeeMinor: sql`${orders.disputedFeeMinor} + ${sign * parts.feeMinor}`,
      disputedCommissionMinor: sql`${orders.disputedCommissionMinor} + ${sign * parts.commissionMinor}`,
      disputedPartnerMinor: sql`${orders.disputedPartnerMinor} + ${sign * parts.partnerCommissionMinor}`,
      disputedNetMinor: sql`${orders.disputedNetMinor} + ${sign * parts.netMinor}`,
      disputedVatMinor: sql`${orders.disputedVatMinor} + ${sign * parts.vatMinor}`,
      updatedAt: new Date(),
    })
    .where(eq(orders.id, orderId));
}

/** A lost dispute that took all that was left of the sale closes it, as a whole refund does. */
export async function closeOrderByDispute(db: DbOrTx, orderId: string): Promise<boolean> {
  const closed = await db
    .update(orders)
    .set({ status: "refunded", refundedAt: new Date(), updatedAt: new Date() })
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.status, "paid"),
        sql`${orders.refundedMinor} + ${orders.disputedMinor} >= ${orders.totalMinor}`,
      ),
    )
    .returning({ id: orders.id });
  return closed.length > 0;
}

/** The disputes of one of the creator's sales, oldest first. */
export async function disputesOfOrder(db: DbOrTx, orderId: string): Promise<DisputeRow[]> {
  return db.select().from(disputes).where(eq(disputes.orderId, orderId)).orderBy(disputes.createdAt);
}

/** What the evidence is made of: the sale, its buyer, its link, its invoice and the delivery. */
export async function evidenceFacts(db: DbOrTx, orderId: string) {
  const [sale] = await db
    .select({
      id: orders.id,
      buyerEmail: orders.buyerEmail,
      buyerName: orders.buyerName,
      buyerAddress: orders.buyerAddress,
      billingCountry: orders.billingCountry,
      vatEvidence: orders.vatEvidence,
      vatCountry: orders.vatCountry,
      vatScheme: orders.vatScheme,
      vatMinor: orders.vatMinor,
      totalMinor: orders.totalMinor,
      currency: orders.currency,
      paidAt: orders.paidAt,
      createdAt: orders.createdAt,
      refundWindowDays: sql<number>`coalesce(${orders.refundWindowDays}, ${links.refundWindowDays})`,
      title: links.title,
      description: links.description,
      linkId: links.id,
      creatorEmail: users.email,
      /** The creator's language: what the creator is told in. */
      locale: users.locale,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .innerJoin(users, eq(users.id, orders.creatorId))
    .where(eq(orders.id, orderId));
  if (!sale) return null;
  const [invoiceRows, access, receipt, reportRows] = await Promise.all([
    db
      .select({
        kind: invoices.kind,
        series: invoices.series,
        number: invoices.number,
        issuedAt: invoices.issuedAt,
      })
      .from(invoices)
      .where(eq(invoices.orderId, orderId))
      .orderBy(invoices.issuedAt),
    db.select().from(orderAccess).where(eq(orderAccess.orderId, orderId)),
    db
      .select({ finishedAt: jobs.finishedAt })
      .from(jobs)
      .where(and(eq(jobs.dedupeKey, `receipt:${orderId}`), eq(jobs.status, "done"))),
    db
      .select({ reason: reports.reason, status: reports.status, createdAt: reports.createdAt })
      .from(reports)
      .where(eq(reports.orderId, orderId)),
  ]);
  return {
    sale,
    invoices: invoiceRows,
    access,
    receiptSentAt: receipt[0]?.finishedAt ?? null,
    reports: reportRows,
  };
}

/** Counts a visit of the order page (with its files unlocked): first, last, how many. */
export async function recordOrderAccess(db: DbOrTx, orderId: string): Promise<void> {
  await db
    .insert(orderAccess)
    .values({ orderId, kind: "order_page" })
    .onConflictDoUpdate({
      target: [orderAccess.orderId, orderAccess.kind],
      set: { lastAt: sql`now()`, count: sql`${orderAccess.count} + 1` },
    });
}

/** The admin's list: disputes, newest first, with their creator. */
export async function disputeList(
  db: DbOrTx,
  query: { status?: DisputeStatusName | undefined; cursor?: string | undefined; limit: number },
) {
  const cursorRow = query.cursor
    ? (
        await db.select({ createdAt: disputes.createdAt }).from(disputes).where(eq(disputes.id, query.cursor))
      )[0]
    : undefined;
  return db
    .select({ dispute: disputes, creatorEmail: users.email })
    .from(disputes)
    .innerJoin(users, eq(users.id, disputes.creatorId))
    .where(
      and(
        query.status ? eq(disputes.status, query.status) : undefined,
        cursorRow ? lt(disputes.createdAt, cursorRow.createdAt) : undefined,
      ),
    )
    .orderBy(desc(disputes.createdAt), desc(disputes.id))
    .limit(query.limit + 1);
}

/**
 * Each of these creators' dispute rate since `since`: disputes opened over sales paid (chargebacks
 * per sale, what card networks watch).
 */
export async function disputeRates(db: DbOrTx, creatorIds: string[], since: Date) {
  if (creatorIds.length === 0) return [];
  const [sales, opened] = await Promise.all([
    db
      .select({ creatorId: orders.creatorId, n: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(inArray(orders.creatorId, creatorIds), gte(orders.paidAt, since)))
      .groupBy(orders.creatorId),
    db
      .select({ creatorId: disputes.creatorId, n: sql<number>`count(*)::int` })
      .from(disputes)
      .where(and(inArray(disputes.creatorId, creatorIds), gte(disputes.createdAt, since)))
      .groupBy(disputes.creatorId),
  ]);
  return creatorIds.map((creatorId) => ({
    creatorId,
    sales: Number(sales.find((s) => s.creatorId === creatorId)?.n ?? 0),
    disputes: Number(opened.find((d) => d.creatorId === creatorId)?.n ?? 0),
  }));
}

export type EvidenceFacts = NonNullable<Awaited<ReturnType<typeof evidenceFacts>>>;
