import { and, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Config } from "../../config.ts";
import type { DbOrTx } from "../../db/client.ts";
import { links, orders, promoCodes, users } from "../../db/schema/index.ts";
import { type Held, noneHeld } from "./reservations.ts";

export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;

/** Live reservations: pending orders started within the reservation period. */
export const liveSince = (config: Config) =>
  sql`now() - make_interval(mins => ${config.CHECKOUT_RESERVATION_MINUTES})`;

/**
 * The live reservations of a capped promo code, leaving out the given orders (the one being paid,
 * or a buyer's own earlier checkout that a new one replaces). A link's stock is counted in units
 * instead (stock-queries.ts); codes with a cap are few and keep the count under their row's lock.
 */
export async function heldByPromo(
  db: DbOrTx,
  config: Config,
  promoCodeId: string,
  exceptOrderIds: string[] = [],
): Promise<Held> {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      oldest: sql<string | Date | null>`min(${orders.createdAt})`,
    })
    .from(orders)
    .where(
      and(
        eq(orders.promoCodeId, promoCodeId),
        eq(orders.status, "pending"),
        gt(orders.createdAt, liveSince(config)),
        ...exceptOrderIds.map((id) => ne(orders.id, id)),
      ),
    );
  if (!row || row.count === 0) return noneHeld;
  return { count: row.count, oldest: row.oldest ? new Date(row.oldest) : null };
}

/**
 * What checkout reads of a link that is not deleted, by its public token, with whether its owner is
 * suspended: one round trip, and no lock (a limited stock is claimed unit by unit, stock-queries.ts).
 */
export async function linkForCheckout(db: DbOrTx, token: string) {
  const [link] = await db
    .select({
      id: links.id,
      ownerId: links.ownerId,
      token: links.token,
      title: links.title,
      priceMinor: links.priceMinor,
      currency: links.currency,
      status: links.status,
      stockLimit: links.stockLimit,
      pricesIncludeVat: links.pricesIncludeVat,
      refundWindowDays: links.refundWindowDays,
      ownerSuspended: sql<boolean>`${users.suspendedAt} is not null`,
    })
    .from(links)
    .innerJoin(users, eq(users.id, links.ownerId))
    .where(and(eq(links.token, token), isNull(links.deletedAt)));
  return link ?? null;
}
export type CheckoutLink = NonNullable<Awaited<ReturnType<typeof linkForCheckout>>>;

/** This buyer's checkouts of this link still holding something. */
export async function liveCheckoutsOf(
  db: DbOrTx,
  config: Config,
  linkId: string,
  buyerEmail: string,
): Promise<string[]> {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.linkId, linkId),
        eq(orders.buyerEmail, buyerEmail),
        eq(orders.status, "pending"),
        gt(orders.createdAt, liveSince(config)),
      ),
    );
  return rows.map((o) => o.id);
}

/** A capped promo code's limit and uses, its row locked: two checkouts never both take its last use. */
export async function lockPromoUses(
  db: DbOrTx,
  id: string,
): Promise<{ usageLimit: number | null; usedCount: number } | null> {
  const [code] = await db
    .select({ usageLimit: promoCodes.usageLimit, usedCount: promoCodes.usedCount })
    .from(promoCodes)
    .where(eq(promoCodes.id, id))
    .for("update");
  return code ?? null;
}

/** Fails the orders that are still pending among `ids`; the ones that failed now are returned. */
export function failPendingOrders(
  db: DbOrTx,
  ids: string[],
  failureReason: string,
): Promise<{ status: OrderRow["status"] }[]> {
  return db
    .update(orders)
    .set({ status: "failed", failureReason, updatedAt: new Date() })
    .where(and(inArray(orders.id, ids), eq(orders.status, "pending")))
    .returning({ status: orders.status });
}

export async function insertOrder(db: DbOrTx, values: NewOrder) {
  const [row] = await db.insert(orders).values(values).returning({
    id: orders.id,
    totalMinor: orders.totalMinor,
    currency: orders.currency,
    createdAt: orders.createdAt,
  });
  return row ?? null;
}

export async function setProviderPaymentId(db: DbOrTx, orderId: string, paymentId: string): Promise<void> {
  await db.update(orders).set({ providerPaymentId: paymentId }).where(eq(orders.id, orderId));
}

/** An order and its link, for the browser holding the checkout's secret. */
export async function orderWithLink(db: DbOrTx, orderId: string) {
  const [row] = await db
    .select({
      id: orders.id,
      status: orders.status,
      failureReason: orders.failureReason,
      checkoutSecretHash: orders.checkoutSecretHash,
      totalMinor: orders.totalMinor,
      currency: orders.currency,
      providerPaymentId: orders.providerPaymentId,
      billingCountry: orders.billingCountry,
      vatScheme: orders.vatScheme,
      vatCountry: orders.vatCountry,
      vatRateBps: orders.vatRateBps,
      vatMinor: orders.vatMinor,
      pricesIncludeVat: orders.pricesIncludeVat,
      linkId: links.id,
      linkToken: links.token,
      stockLimit: links.stockLimit,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .where(eq(orders.id, orderId));
  return row ?? null;
}

export async function orderStatus(db: DbOrTx, orderId: string): Promise<OrderRow["status"] | null> {
  const [current] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
  return current?.status ?? null;
}

/**
 * A checkout not paid yet, locked while its card's country decides its VAT (issue 22). A failed one
 * counts: after a declined card the buyer tries another on the same payment, and a payment that
 * then succeeds is taken as a late one (orders/events.ts).
 */
export async function lockUnpaidOrder(db: DbOrTx, orderId: string) {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), inArray(orders.status, ["pending", "failed"])))
    .for("update");
  return row ?? null;
}

/** The VAT the card's country decided, and the total when VAT is added to the price. */
export async function setOrderVat(
  db: DbOrTx,
  orderId: string,
  values: {
    vatScheme: OrderVatScheme | null;
    vatCountry: (typeof orders.$inferSelect)["vatCountry"];
    vatRateBps: number | null;
    vatMinor: number;
    totalMinor: number;
    vatEvidence: Record<string, unknown> | null;
  },
): Promise<void> {
  await db
    .update(orders)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(orders.id, orderId));
}
type OrderVatScheme = NonNullable<(typeof orders.$inferSelect)["vatScheme"]>;
