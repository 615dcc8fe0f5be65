import { and, desc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.ts";
import { links, orderRefunds, orders } from "../../../db/schema/index.ts";

/** A sale, locked while a refund is decided: one of its creator's (or any, for an admin: `creatorId` null). */
export async function lockSale(db: DbOrTx, params: { orderId: string; creatorId: string | null }) {
  const [row] = await db
    .select({
      id: orders.id,
      creatorId: orders.creatorId,
      status: orders.status,
      paymentId: orders.providerPaymentId,
      totalMinor: orders.totalMinor,
      refundedMinor: orders.refundedMinor,
      currency: orders.currency,
      paidAt: orders.paidAt,
      refundWindowDays: links.refundWindowDays,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .where(
      and(
        eq(orders.id, params.orderId),
        params.creatorId ? eq(orders.creatorId, params.creatorId) : undefined,
      ),
    )
    .for("update", { of: orders });
  return row ?? null;
}
export type LockedSale = NonNullable<Awaited<ReturnType<typeof lockSale>>>;

/** The refund under way for an order, if any (at most one: the partial unique index). */
export async function refundUnderWay(db: DbOrTx, orderId: string) {
  const [row] = await db
    .select({ id: orderRefunds.id })
    .from(orderRefunds)
    .where(and(eq(orderRefunds.orderId, orderId), eq(orderRefunds.status, "asked")))
    .limit(1);
  return row ?? null;
}

export async function insertRefund(db: DbOrTx, values: typeof orderRefunds.$inferInsert): Promise<string> {
  const [row] = await db.insert(orderRefunds).values(values).returning({ id: orderRefunds.id });
  if (!row) throw new Error("refund not inserted");
  return row.id;
}

/** A refund with what asking the provider again needs. */
export async function refundToAsk(db: DbOrTx, refundId: string) {
  const [row] = await db
    .select({
      id: orderRefunds.id,
      orderId: orderRefunds.orderId,
      status: orderRefunds.status,
      amountMinor: orderRefunds.amountMinor,
      cumulativeMinor: orderRefunds.cumulativeMinor,
      currency: orderRefunds.currency,
      paymentId: orders.providerPaymentId,
    })
    .from(orderRefunds)
    .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
    .where(eq(orderRefunds.id, refundId));
  return row ?? null;
}

/** The provider refused: the refund is over, and the sale can be refunded again. */
export async function failRefund(db: DbOrTx, params: { refundId: string; failure: string }): Promise<void> {
  await db
    .update(orderRefunds)
    .set({ status: "failed", failure: params.failure.slice(0, 500), settledAt: new Date() })
    .where(and(eq(orderRefunds.id, params.refundId), eq(orderRefunds.status, "asked")));
}

/** One of the creator's sales as its page shows it. */
export async function saleRow(db: DbOrTx, params: { orderId: string; creatorId: string }) {
  const [row] = await db
    .select({
      id: orders.id,
      linkId: orders.linkId,
      linkTitle: links.title,
      refundWindowDays: links.refundWindowDays,
      buyerEmail: orders.buyerEmail,
      status: orders.status,
      currency: orders.currency,
      totalMinor: orders.totalMinor,
      feeMinor: orders.feeMinor,
      partnerCommissionMinor: orders.partnerCommissionMinor,
      netMinor: orders.netMinor,
      refundedMinor: orders.refundedMinor,
      paidAt: orders.paidAt,
      availableAt: orders.availableAt,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .where(and(eq(orders.id, params.orderId), eq(orders.creatorId, params.creatorId)));
  return row ?? null;
}

export async function refundsOf(db: DbOrTx, orderId: string) {
  return db
    .select({
      id: orderRefunds.id,
      amountMinor: orderRefunds.amountMinor,
      currency: orderRefunds.currency,
      reason: orderRefunds.reason,
      by: orderRefunds.by,
      status: orderRefunds.status,
      failure: orderRefunds.failure,
      createdAt: orderRefunds.createdAt,
      settledAt: orderRefunds.settledAt,
    })
    .from(orderRefunds)
    .where(eq(orderRefunds.orderId, orderId))
    .orderBy(desc(orderRefunds.createdAt), desc(sql`${orderRefunds.id}`));
}
