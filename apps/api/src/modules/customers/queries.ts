import type { CustomerFilter, CustomerSortKey } from "@salelink/contracts";
import { and, asc, count, desc, eq, inArray, isNotNull, like, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { customers, links, orders } from "../../db/schema/index.ts";
import { containing } from "../../lib/like.ts";

/** A paid order's buyer, as the payment paths record them (one by one and in batches). */
export interface PaidBuyer {
  creatorId: string;
  email: string;
  paidAt: Date;
}

/**
 * Records paid orders' buyers as their creators' customers, in the payment's transaction: one row
 * per creator and address, its first and last purchase and its count of orders. The rows of one
 * batch are merged first: an upsert may not touch one row twice.
 */
export async function recordCustomers(db: DbOrTx, buyers: readonly PaidBuyer[]): Promise<void> {
  const merged = new Map<
    string,
    { creatorId: string; email: string; first: Date; last: Date; count: number }
  >();
  for (const b of buyers) {
    const key = `${b.creatorId}|${b.email}`;
    const row = merged.get(key);
    if (!row)
      merged.set(key, { creatorId: b.creatorId, email: b.email, first: b.paidAt, last: b.paidAt, count: 1 });
    else {
      if (b.paidAt < row.first) row.first = b.paidAt;
      if (b.paidAt > row.last) row.last = b.paidAt;
      row.count += 1;
    }
  }
  if (merged.size === 0) return;
  // Sorted, so that concurrent batches take the rows' locks in one order.
  const rows = [...merged.values()].sort((a, b) =>
    a.creatorId === b.creatorId ? (a.email < b.email ? -1 : 1) : a.creatorId < b.creatorId ? -1 : 1,
  );
  await db
    .insert(customers)
    .values(
      rows.map((r) => ({
        creatorId: r.creatorId,
        email: r.email,
        firstPaidAt: r.first,
        lastPaidAt: r.last,
        ordersCount: r.count,
      })),
    )
    .onConflictDoUpdate({
      target: [customers.creatorId, customers.email],
      set: {
        firstPaidAt: sql`least(${customers.firstPaidAt}, excluded.first_paid_at)`,
        lastPaidAt: sql`greatest(${customers.lastPaidAt}, excluded.last_paid_at)`,
        ordersCount: sql`${customers.ordersCount} + excluded.orders_count`,
      },
    });
}

// --- The customers screen ----------------------------------------------------------------------
// Every read carries the creator's id: another creator's customer, order or link is never found.

const customerColumns = {
  id: customers.id,
  email: customers.email,
  firstPaidAt: customers.firstPaidAt,
  lastPaidAt: customers.lastPaidAt,
  ordersCount: customers.ordersCount,
  unsubscribedAt: customers.unsubscribedAt,
};
export interface CustomerRow {
  id: string;
  email: string;
  firstPaidAt: Date;
  lastPaidAt: Date;
  ordersCount: number;
  unsubscribedAt: Date | null;
}

/** A paid (or since refunded) order of the creator's. */
const paidOrderOf = (creatorId: string) => and(eq(orders.creatorId, creatorId), isNotNull(orders.paidAt));

/**
 * The creator's customers the filter matches: part of the address (its % and _ taken literally),
 * and having bought one of the creator's links (another creator's link matches nobody).
 */
function matching(creatorId: string, filter: CustomerFilter): SQL | undefined {
  const q = filter.q?.trim();
  return and(
    eq(customers.creatorId, creatorId),
    // The addresses are stored lower-cased: LIKE on the lowered text, cheaper than ILIKE.
    q ? like(customers.email, containing(q.toLowerCase())) : undefined,
    filter.linkId ? boughtLink(creatorId, filter.linkId) : undefined,
  );
}

/**
 * Bought the link, when the link is the creator's (checked once for the query): the orders' side is
 * then read from `orders_link_buyer_paid_idx` alone.
 */
const boughtLink = (creatorId: string, linkId: string) =>
  and(
    sql`exists (select 1 from ${links} where ${and(eq(links.id, linkId), eq(links.ownerId, creatorId))})`,
    sql`exists (select 1 from ${orders} where ${and(
      eq(orders.linkId, linkId),
      eq(orders.buyerEmail, customers.email),
      isNotNull(orders.paidAt),
    )})`,
  );

/** Newest last purchase first (the index's order), newest first purchase first, or most orders first. */
const orderings: Record<CustomerSortKey, SQL[]> = {
  last: [desc(customers.lastPaidAt), desc(customers.id)],
  first: [desc(customers.firstPaidAt), desc(customers.id)],
  orders: [desc(customers.ordersCount), desc(customers.lastPaidAt), desc(customers.id)],
};

export function customerPage(
  db: DbOrTx,
  params: { creatorId: string; filter: CustomerFilter; sort: CustomerSortKey; offset: number; limit: number },
): Promise<CustomerRow[]> {
  return db
    .select(customerColumns)
    .from(customers)
    .where(matching(params.creatorId, params.filter))
    .orderBy(...orderings[params.sort])
    .offset(params.offset)
    .limit(params.limit);
}

export async function customerCount(db: DbOrTx, params: { creatorId: string; filter: CustomerFilter }) {
  const [row] = await db
    .select({ n: count() })
    .from(customers)
    .where(matching(params.creatorId, params.filter));
  return row?.n ?? 0;
}

/**
 * The export's next batch in last-purchase order, after the row `after` (its id): keyset paging, so
 * each batch costs the same however deep the export goes.
 */
export function customerBatch(
  db: DbOrTx,
  params: { creatorId: string; filter: CustomerFilter; after: string | null; limit: number },
): Promise<CustomerRow[]> {
  return db
    .select(customerColumns)
    .from(customers)
    .where(
      and(
        matching(params.creatorId, params.filter),
        params.after
          ? sql`(${customers.lastPaidAt}, ${customers.id}) < (select c.last_paid_at, c.id from ${customers} c
              where c.id = ${params.after} and c.creator_id = ${params.creatorId})`
          : undefined,
      ),
    )
    .orderBy(...orderings.last)
    .limit(params.limit);
}

export async function findCustomer(
  db: DbOrTx,
  params: { creatorId: string; id: string },
): Promise<CustomerRow | null> {
  const [row] = await db
    .select(customerColumns)
    .from(customers)
    .where(and(eq(customers.id, params.id), eq(customers.creatorId, params.creatorId)))
    .limit(1);
  return row ?? null;
}

/**
 * What each of these addresses paid the creator, per currency, less what refunds took back: for one
 * page's rows only (found by `orders_buyer_paid_idx`), never for the whole list.
 */
export function paidTotals(db: DbOrTx, params: { creatorId: string; emails: string[] }) {
  if (params.emails.length === 0) return Promise.resolve([]);
  return db
    .select({
      email: orders.buyerEmail,
      currency: orders.currency,
      amountMinor:
        sql<number>`coalesce(sum(${orders.totalMinor} - ${orders.refundedMinor} - ${orders.disputedMinor}), 0)::bigint`.mapWith(
          Number,
        ),
    })
    .from(orders)
    .where(and(inArray(orders.buyerEmail, params.emails), paidOrderOf(params.creatorId)))
    .groupBy(orders.buyerEmail, orders.currency)
    .orderBy(asc(orders.buyerEmail), asc(orders.currency));
}

/** The address's orders of the creator, paid or refunded since, newest first, with their link's title. */
export function ordersOfCustomer(db: DbOrTx, params: { creatorId: string; email: string; limit: number }) {
  return db
    .select({
      id: orders.id,
      linkId: orders.linkId,
      linkTitle: links.title,
      status: orders.status,
      currency: orders.currency,
      totalMinor: orders.totalMinor,
      refundedMinor: orders.refundedMinor,
      paidAt: sql<Date>`${orders.paidAt}`.mapWith(orders.paidAt),
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .where(and(eq(orders.buyerEmail, params.email), paidOrderOf(params.creatorId)))
    .orderBy(desc(orders.paidAt), desc(orders.createdAt), desc(orders.id))
    .limit(params.limit);
}

// --- Account deletion ----------------------------------------------------------------------------

/**
 * A deleted account's address leaves every creator's customers (found through its paid orders, so
 * each row by the unique index) and every order, which keeps `erased` in its place as the account
 * does. Pending and failed orders hold it too: the last statement reads the whole table, once per
 * deletion.
 */
export async function eraseBuyer(db: DbOrTx, params: { email: string; erased: string }): Promise<void> {
  await db.delete(customers).where(
    and(
      eq(customers.email, params.email),
      inArray(
        customers.creatorId,
        db
          .selectDistinct({ creatorId: orders.creatorId })
          .from(orders)
          .where(and(eq(orders.buyerEmail, params.email), isNotNull(orders.paidAt))),
      ),
    ),
  );
  await db.update(orders).set({ buyerEmail: params.erased }).where(eq(orders.buyerEmail, params.email));
}
