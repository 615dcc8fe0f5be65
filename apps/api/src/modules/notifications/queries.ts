import type { SaleNotificationMode } from "@salelink/contracts";
import { and, asc, count, eq, gte, isNotNull, isNull, lt, sql, sum } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { links, orders, users } from "../../db/schema/index.ts";

/*
 * The sale notifications' SQL (issue 21). Sales are read by the creator and the time they were
 * paid (orders_creator_paid_idx); an order paid in the window counts whatever happened to it since.
 */

export async function saleNotificationsOf(db: DbOrTx, userId: string): Promise<SaleNotificationMode | null> {
  const [row] = await db
    .select({ mode: users.saleNotifications })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  return row?.mode ?? null;
}

export async function setSaleNotifications(
  db: DbOrTx,
  params: { userId: string; mode: SaleNotificationMode },
): Promise<void> {
  await db
    .update(users)
    .set({ saleNotifications: params.mode, updatedAt: new Date() })
    .where(and(eq(users.id, params.userId), isNull(users.deletedAt)));
}

/** Where and in which language a creator's sale e-mails go, and whether they want them; null when deleted. */
export async function notificationRecipient(db: DbOrTx, creatorId: string) {
  const [row] = await db
    .select({ email: users.email, locale: users.locale, mode: users.saleNotifications })
    .from(users)
    .where(and(eq(users.id, creatorId), isNull(users.deletedAt)));
  return row ?? null;
}

const paidIn = (creatorId: string, from: Date, to: Date) =>
  and(
    eq(orders.creatorId, creatorId),
    isNotNull(orders.paidAt),
    gte(orders.paidAt, from),
    lt(orders.paidAt, to),
  );

/** A creator's sales paid in [from, to): their number and total per currency. */
export async function salesTotalsIn(
  db: DbOrTx,
  params: { creatorId: string; from: Date; to: Date },
): Promise<{ currency: string; sales: number; totalMinor: number }[]> {
  const rows = await db
    .select({ currency: orders.currency, sales: count(), totalMinor: sum(orders.totalMinor).mapWith(Number) })
    .from(orders)
    .where(paidIn(params.creatorId, params.from, params.to))
    .groupBy(orders.currency)
    .orderBy(asc(orders.currency));
  return rows.map((r) => ({ ...r, totalMinor: r.totalMinor ?? 0 }));
}

/** The first `limit` sales paid in [from, to), oldest first: what a grouped e-mail lists. */
export async function firstSalesIn(
  db: DbOrTx,
  params: { creatorId: string; from: Date; to: Date; limit: number },
): Promise<{ title: string; totalMinor: number; currency: string }[]> {
  return db
    .select({ title: links.title, totalMinor: orders.totalMinor, currency: orders.currency })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .where(paidIn(params.creatorId, params.from, params.to))
    .orderBy(asc(orders.paidAt), asc(orders.id))
    .limit(params.limit);
}

/**
 * The digest's figures: per creator who chose the digest, per link and currency, the sales paid in
 * [from, to). Creators without a sale in the window have no row.
 */
export async function digestSales(
  db: DbOrTx,
  params: { from: Date; to: Date },
): Promise<
  {
    creatorId: string;
    email: string;
    locale: "en" | "fr" | "es";
    linkId: string;
    title: string;
    currency: string;
    sales: number;
    totalMinor: number;
  }[]
> {
  const rows = await db
    .select({
      creatorId: users.id,
      email: users.email,
      locale: users.locale,
      linkId: links.id,
      title: links.title,
      currency: orders.currency,
      sales: count(),
      totalMinor: sum(orders.totalMinor).mapWith(Number),
    })
    .from(users)
    .innerJoin(
      orders,
      and(
        eq(orders.creatorId, users.id),
        isNotNull(orders.paidAt),
        gte(orders.paidAt, params.from),
        lt(orders.paidAt, params.to),
      ),
    )
    .innerJoin(links, eq(links.id, orders.linkId))
    .where(and(eq(users.saleNotifications, "digest"), isNull(users.deletedAt)))
    .groupBy(users.id, users.email, users.locale, links.id, links.title, orders.currency)
    .orderBy(asc(users.id), sql`count(*) desc`, asc(links.id));
  return rows.map((r) => ({ ...r, totalMinor: r.totalMinor ?? 0 }));
}
