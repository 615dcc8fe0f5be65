import type { Currency } from "@salelink/contracts";
import { and, asc, desc, eq, gt, gte, inArray, ne, notInArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.ts";
import {
  ledgerEntries,
  ledgerTransactions,
  links,
  orderRefunds,
  orders,
  payouts,
} from "../../../db/schema/index.ts";

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
      disputedMinor: orders.disputedMinor,
      currency: orders.currency,
      paidAt: orders.paidAt,
      // Fixed on the order at checkout (issue 32): a later change of the link's window moves nothing.
      refundWindowDays: sql<number>`coalesce(${orders.refundWindowDays}, ${links.refundWindowDays})`,
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
      refundWindowDays: sql<number>`coalesce(${orders.refundWindowDays}, ${links.refundWindowDays})`,
      buyerEmail: orders.buyerEmail,
      status: orders.status,
      currency: orders.currency,
      totalMinor: orders.totalMinor,
      feeMinor: orders.feeMinor,
      partnerCommissionMinor: orders.partnerCommissionMinor,
      netMinor: orders.netMinor,
      refundedMinor: orders.refundedMinor,
      disputedMinor: orders.disputedMinor,
      vatMinor: orders.vatMinor,
      vatRateBps: orders.vatRateBps,
      vatCountry: orders.vatCountry,
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

/**
 * The payout that carried a sale's net to the bank (issue 23, decision 041). Payouts spend the
 * creator's available balance in the sale's currency first in, first out. What came into it makes
 * a running total, one slot per sale (its release, less what its own refunds took back from the
 * balance: "orderId" or "orderId:cumulative" references), per claim and so on, in the order each
 * first came in; the payouts that did not fail make another, in the order they were asked. The
 * sale's payout is the first whose running total reaches the sale's. A refund is counted at its own
 * sale's slot, not when it happened: a later refund then never leaves a later sale's money unpaid
 * for good, and never makes an unrefunded sale look taken back. A failed payout gave its money
 * back: neither its request nor its return counts. Null while the sale is held, while its money
 * still waits in the balance, or when its refunds took it all back. One query, whatever the number
 * of sales and payouts (the owner's index on the entries, the user's on the payouts).
 */
export async function payoutOfSale(
  db: DbOrTx,
  params: { creatorId: string; orderId: string; currency: Currency },
) {
  const { creatorId, currency } = params;
  const slotOf = sql<string>`case when ${inArray(ledgerTransactions.kind, ["hold_release", "refund"])}
    then split_part(${ledgerTransactions.reference}, ':', 1) else ${ledgerTransactions.id}::text end`;
  const slots = db.$with("sale_slots").as(
    db
      .select({
        slot: sql<string>`${slotOf}`.as("slot"),
        amount: sql<string>`sum(${ledgerEntries.amountMinor})`.as("slot_amount"),
        firstAt: sql<Date>`min(${ledgerEntries.createdAt})`.as("first_at"),
        firstId: sql<number>`min(${ledgerEntries.id})`.as("first_id"),
      })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(
        and(
          eq(ledgerEntries.ownerId, creatorId),
          eq(ledgerEntries.account, "available"),
          eq(ledgerEntries.currency, currency),
          notInArray(ledgerTransactions.kind, ["payout_requested", "payout_failed"]),
        ),
      )
      // By position: the expression again would bind its kinds anew, and not match the select's.
      .groupBy(sql`1`),
  );
  const positions = db.$with("sale_positions").as(
    db
      .select({
        slot: slots.slot,
        amount: slots.amount,
        position: sql<string>`sum(${slots.amount}) over (order by ${slots.firstAt}, ${slots.firstId})`.as(
          "position",
        ),
      })
      .from(slots),
  );
  const sale = db.$with("sale_position").as(
    db
      .select({ salePosition: sql<string>`${positions.position}`.as("sale_position") })
      .from(positions)
      .where(and(eq(positions.slot, params.orderId), gt(positions.amount, sql`0`))),
  );
  const paidOut = db.$with("sale_payouts").as(
    db
      .select({
        id: payouts.id,
        status: payouts.status,
        requestedAt: payouts.requestedAt,
        paidAt: payouts.paidAt,
        paidTotal: sql<string>`sum(${payouts.amountMinor})
          over (order by ${payouts.requestedAt}, ${payouts.id})`.as("paid_total"),
      })
      .from(payouts)
      .where(
        and(eq(payouts.userId, creatorId), eq(payouts.currency, currency), ne(payouts.status, "failed")),
      ),
  );
  const [row] = await db
    .with(slots, positions, sale, paidOut)
    .select({
      id: paidOut.id,
      status: paidOut.status,
      requestedAt: paidOut.requestedAt,
      paidAt: paidOut.paidAt,
    })
    .from(paidOut)
    .innerJoin(sale, gte(paidOut.paidTotal, sale.salePosition))
    // Strictly increasing in the window's order (every payout is positive): the smallest is the first.
    .orderBy(asc(paidOut.paidTotal))
    .limit(1);
  return row ?? null;
}
