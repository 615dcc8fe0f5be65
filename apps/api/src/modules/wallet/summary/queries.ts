import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.ts";
import { jobs, links, orders, rollupWatermarks, salesDaily } from "../../../db/schema/index.ts";
import { rowsOf } from "../queries.ts";

/*
 * The dashboard rollups' SQL (decision 031): their refresh from `orders`, and the sales summary's
 * reads, each bounded by an index (a creator's rollup rows, or the latest few orders).
 */

export const SALES_WATERMARK = "sales";

/** The rollups' watermark, or undefined before the first refresh (a database migrated empty). */
export async function watermarkOf(db: DbOrTx, name: string) {
  const [row] = await db
    .select({ refreshedAt: rollupWatermarks.refreshedAt })
    .from(rollupWatermarks)
    .where(eq(rollupWatermarks.name, name));
  return row;
}

/**
 * Whether an order changed since the rollups' coverage ended (or they were never computed): when
 * none did, they are exact and a refresh has nothing to write. One probe of orders_updated_idx.
 */
export async function ordersChangedSinceCoverage(db: DbOrTx, name: string): Promise<boolean> {
  const rows = rowsOf<{ changed: boolean }>(
    await db.execute(sql`
    select coalesce((
      select exists (select 1 from orders where updated_at >= w.covered_until)
      from rollup_watermarks w where w.name = ${name}
    ), true) as changed`),
  );
  return rows[0]?.changed !== false;
}

/**
 * Locks the watermark for the caller's transaction (a second refresh waits, then sees this one's
 * result) and moves it: answers where the previous refresh's coverage ended, as text so that its
 * microseconds survive, and the refresh's time. The new coverage ends at the start of the oldest
 * transaction still open (its order changes, committed later, are dated from then at the earliest),
 * minus `overlapMs` for the API clocks that date `updated_at`. It is computed before the caller
 * looks for changed orders, so whatever that look cannot see yet is after the new coverage.
 */
export async function advanceWatermark(
  tx: DbOrTx,
  params: { name: string; overlapMs: number },
): Promise<{ since: string; refreshedAt: Date }> {
  await tx
    .insert(rollupWatermarks)
    .values({ name: params.name, coveredUntil: sql`'-infinity'`, refreshedAt: sql`'-infinity'` })
    .onConflictDoNothing();
  const rows = rowsOf<{ since: string; refreshed_at: string | Date }>(
    await tx.execute(sql`
    with previous as (
      select covered_until from rollup_watermarks where name = ${params.name} for update
    ), oldest as (
      select min(xact_start) as started from pg_stat_activity
      where xact_start is not null and datname = current_database()
    )
    update rollup_watermarks w
    set covered_until = least(now(), coalesce((select started from oldest), now()))
          - (${params.overlapMs}::double precision * interval '1 millisecond'),
        refreshed_at = now()
    from previous
    where w.name = ${params.name}
    returning previous.covered_until::text as since, w.refreshed_at`),
  );
  const row = rows[0];
  if (!row) throw new Error(`rollup watermark ${params.name} lost`);
  return { since: row.since, refreshedAt: new Date(row.refreshed_at) };
}

/**
 * The (creator, payment day) buckets of orders changed since `since`, as a subquery: whole buckets,
 * so a refresh writes exactly what the orders say now, whatever it missed or saw twice before.
 */
const changedSalesBuckets = (since: string) => sql`
  select distinct creator_id, (paid_at at time zone 'UTC')::date as day
  from orders where updated_at >= ${since}::timestamptz and paid_at is not null`;

/** Recomputes the sales_daily buckets of orders changed since `since`; answers the rows written. */
export async function refreshSalesDaily(tx: DbOrTx, since: string): Promise<number> {
  // Emptied first, so a (link, currency) row left without any order goes; the insert then recomputes
  // every bucket changed since `since` as its own statement sees them (the same ones, or more).
  await tx.execute(sql`
    delete from sales_daily s using (${changedSalesBuckets(since)}) d
    where s.creator_id = d.creator_id and s.day = d.day`);
  const rows = rowsOf<{ n: number }>(
    await tx.execute(sql`
    with written as (
      insert into sales_daily (creator_id, day, link_id, currency, orders, gross_minor, fee_minor,
                               net_minor, refunds, refunded_net_minor)
      select o.creator_id, d.day, o.link_id, o.currency,
        count(*) filter (where o.status = 'paid'),
        -- A sale partly refunded (decision 037), or held or taken by a chargeback (issue 32), counts
        -- for what is left of it.
        coalesce(sum(o.total_minor - o.refunded_minor - o.disputed_minor) filter (where o.status = 'paid'), 0),
        coalesce(sum(o.fee_minor - o.refunded_fee_minor - o.disputed_fee_minor) filter (where o.status = 'paid'), 0),
        coalesce(sum(o.net_minor - o.refunded_net_minor - o.disputed_net_minor) filter (where o.status = 'paid'), 0),
        count(*) filter (where o.status = 'refunded'),
        coalesce(sum(o.net_minor) filter (where o.status = 'refunded'), 0)
          + coalesce(sum(o.refunded_net_minor + o.disputed_net_minor) filter (where o.status = 'paid'), 0)
      from (${changedSalesBuckets(since)}) d
      join orders o on o.creator_id = d.creator_id and o.paid_at is not null
        and o.paid_at >= (d.day::timestamp at time zone 'UTC')
        and o.paid_at < ((d.day + 1)::timestamp at time zone 'UTC')
      where o.status in ('paid', 'refunded')
      group by o.creator_id, d.day, o.link_id, o.currency
      on conflict (creator_id, day, link_id, currency) do update set
        orders = excluded.orders, gross_minor = excluded.gross_minor, fee_minor = excluded.fee_minor,
        net_minor = excluded.net_minor, refunds = excluded.refunds,
        refunded_net_minor = excluded.refunded_net_minor
      returning 1
    ) select count(*)::int as n from written`),
  );
  return rows[0]?.n ?? 0;
}

/** Affiliates with an order changed since `since`, as a subquery. */
const changedReferrers = (since: string) => sql`
  select distinct referrer_id from orders
  where updated_at >= ${since}::timestamptz and referrer_id is not null`;

/** Recomputes the referral_sales rows of every affiliate with an order changed since `since`. */
export async function refreshReferralSales(tx: DbOrTx, since: string): Promise<number> {
  await tx.execute(sql`
    delete from referral_sales r using (${changedReferrers(since)}) c where r.referrer_id = c.referrer_id`);
  // The states of a commission as GET /campaigns always counted them (affiliates/queries.ts).
  const rows = rowsOf<{ n: number }>(
    await tx.execute(sql`
    with written as (
      insert into referral_sales (referrer_id, creator_id, currency, sales, pending_minor,
                                  claimable_minor, claimed_minor)
      select o.referrer_id, o.creator_id, o.currency,
        count(*) filter (where o.status = 'paid'),
        coalesce(sum(o.commission_minor - o.refunded_commission_minor - o.disputed_commission_minor)
                 filter (where o.status = 'paid' and o.released_at is null), 0),
        coalesce(sum(o.commission_minor - o.refunded_commission_minor - o.disputed_commission_minor)
                 filter (where o.status = 'paid' and o.released_at is not null
                         and o.commission_claim_id is null), 0),
        -- A refund or a chargeback takes a claimed commission back too (decision 042).
        coalesce(sum(o.commission_minor - o.refunded_commission_minor - o.disputed_commission_minor)
                 filter (where o.commission_claim_id is not null), 0)
      from orders o
      where o.referrer_id in (${changedReferrers(since)}) and o.status in ('paid', 'refunded')
      group by o.referrer_id, o.creator_id, o.currency
      on conflict (referrer_id, creator_id, currency) do update set
        sales = excluded.sales, pending_minor = excluded.pending_minor,
        claimable_minor = excluded.claimable_minor, claimed_minor = excluded.claimed_minor
      returning 1
    ) select count(*)::int as n from written`),
  );
  return rows[0]?.n ?? 0;
}

/**
 * Forgets this kind's finished runs of the last hour but the latest minute's: a run every few
 * seconds would otherwise leave tens of thousands of rows a day. Bounded by the jobs' due index.
 */
export async function pruneFinishedRuns(tx: DbOrTx, kind: string): Promise<void> {
  await tx
    .delete(jobs)
    .where(
      and(
        eq(jobs.status, "done"),
        eq(jobs.kind, kind),
        sql`${jobs.runAt} between now() - interval '1 hour' and now() - interval '1 minute'`,
      ),
    );
}

// ---------------------------------------------------------------------------------------------
// Reads

/** Paid sales and their net per currency, over all time (a currency with none paid left out). */
export function salesTotals(db: DbOrTx, creatorId: string) {
  return db
    .select({
      currency: salesDaily.currency,
      sales: sql<number>`sum(${salesDaily.orders})::int`.mapWith(Number),
      amount: sql<number>`sum(${salesDaily.netMinor})::bigint`.mapWith(Number),
    })
    .from(salesDaily)
    .where(eq(salesDaily.creatorId, creatorId))
    .groupBy(salesDaily.currency)
    .having(sql`sum(${salesDaily.orders}) > 0`)
    .orderBy(salesDaily.currency);
}

/** Paid sales per UTC day and currency from `fromDay` (YYYY-MM-DD), oldest first. */
export function salesDays(db: DbOrTx, creatorId: string, fromDay: string) {
  return db
    .select({
      date: sql<string>`to_char(${salesDaily.day}, 'YYYY-MM-DD')`,
      currency: salesDaily.currency,
      sales: sql<number>`sum(${salesDaily.orders})::int`.mapWith(Number),
      amount: sql<number>`sum(${salesDaily.netMinor})::bigint`.mapWith(Number),
    })
    .from(salesDaily)
    .where(and(eq(salesDaily.creatorId, creatorId), sql`${salesDaily.day} >= ${fromDay}::date`))
    .groupBy(salesDaily.day, salesDaily.currency)
    .having(sql`sum(${salesDaily.orders}) > 0`)
    .orderBy(salesDaily.day, salesDaily.currency);
}

/** The creator's latest paid or refunded orders, live (an index walk of `limit` rows). */
export function latestOrders(db: DbOrTx, creatorId: string, limit: number) {
  return db
    .select({
      id: orders.id,
      title: links.title,
      total: orders.totalMinor,
      currency: orders.currency,
      status: orders.status,
      paidAt: orders.paidAt,
      email: orders.buyerEmail,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .where(
      and(
        eq(orders.creatorId, creatorId),
        // Matches orders_creator_paid_idx's predicate: the walk skips the orders never paid.
        isNotNull(orders.paidAt),
        inArray(orders.status, ["paid", "refunded"]),
      ),
    )
    .orderBy(desc(orders.paidAt))
    .limit(limit);
}
