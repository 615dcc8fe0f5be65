import { and, asc, eq, lte, not, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client.ts";
import { linkStockUnits, orders } from "../../db/schema/index.ts";
import type { StockState } from "./reservations.ts";

/*
 * A limited link's stock as units (decision 032, db/schema/stock.ts). Every statement here touches
 * the unit rows of one link only, never the link's row: buyers of one link do not queue behind each
 * other, and a payment needs no lock on the link.
 */

/** Raw results differ by driver in type, not in shape: both carry `rows`. */
async function rowsOf<T extends z.ZodType>(db: DbOrTx, query: SQL, row: T): Promise<z.output<T>[]> {
  return z.object({ rows: z.array(row) }).parse(await db.execute(query)).rows;
}

/** The reservation's end counts from the order's own creation time, as its liveness does (liveSince). */
const reservationEnd = (orderId: string, minutes: number) =>
  sql`(select ${orders.createdAt} from ${orders} where ${orders.id} = ${orderId}) + make_interval(mins => ${minutes})`;

/**
 * Gives `orderId` a free unit of the link for `minutes`; false when none is free. Without `wait`,
 * units other checkouts are claiming right now are skipped (no queue on a popular link); with it,
 * their outcome is awaited, so a unit that a failing checkout gives back is still found.
 */
export async function claimFreeUnit(
  db: DbOrTx,
  params: { linkId: string; orderId: string; minutes: number; wait: boolean },
): Promise<boolean> {
  const free = db
    .select({ unitNo: linkStockUnits.unitNo })
    .from(linkStockUnits)
    .where(
      and(
        eq(linkStockUnits.linkId, params.linkId),
        not(linkStockUnits.sold),
        lte(linkStockUnits.heldUntil, sql`now()`),
      ),
    )
    .orderBy(asc(linkStockUnits.heldUntil))
    .limit(1)
    .for("update", params.wait ? {} : { skipLocked: true });
  const claimed = await db
    .update(linkStockUnits)
    .set({ orderId: params.orderId, heldUntil: reservationEnd(params.orderId, params.minutes) })
    .where(and(eq(linkStockUnits.linkId, params.linkId), sql`${linkStockUnits.unitNo} = (${free})`))
    .returning({ unitNo: linkStockUnits.unitNo });
  return claimed.length > 0;
}

/**
 * A checkout's claim in one round trip: gives `orderId` a free unit nobody else is claiming, and
 * says whether another such unit was left (locked until the commit, so the next buyer takes a third
 * one). Not `claimed`: every free unit is being claimed by someone now, or there is none.
 */
export async function claimUnitAndLook(
  db: DbOrTx,
  params: { linkId: string; orderId: string; minutes: number },
): Promise<{ claimed: boolean; anotherFree: boolean }> {
  const [row] = await rowsOf(
    db,
    sql`with free as (
      select unit_no from ${linkStockUnits}
      where link_id = ${params.linkId} and not sold and held_until <= now()
      order by held_until limit 2 for update skip locked
    ), claimed as (
      update ${linkStockUnits} set order_id = ${params.orderId},
        held_until = ${reservationEnd(params.orderId, params.minutes)}
      where link_id = ${params.linkId} and unit_no = (select min(unit_no) from free)
      returning unit_no
    )
    select (select count(*) from claimed)::int as claimed, (select count(*) from free)::int as free`,
    z.object({ claimed: z.coerce.number(), free: z.coerce.number() }),
  );
  return { claimed: (row?.claimed ?? 0) > 0, anotherFree: (row?.free ?? 0) > 1 };
}

/**
 * A payment's stock step in one round trip: the order's own unit, if it still holds it (within its
 * reservation, or after it while nobody has claimed it), becomes sold. `limited` says whether the
 * link has a stock at all.
 */
export async function sellOwnUnit(
  db: DbOrTx,
  params: { linkId: string; orderId: string },
): Promise<{ limited: boolean; sold: boolean } | null> {
  const [row] = await rowsOf(
    db,
    sql`with own as (
      update ${linkStockUnits} set sold = true, held_until = '-infinity'
      where link_id = ${params.linkId} and order_id = ${params.orderId} and not sold
      returning 1
    )
    select stock_limit is not null as limited, exists (select 1 from own) as sold
    from links where id = ${params.linkId}`,
    z.object({ limited: z.boolean(), sold: z.boolean() }),
  );
  return row ?? null;
}

/**
 * A batch of payments' stock step (orders/apply-batch.ts) in one statement: each order's own unit,
 * if it still holds it, becomes sold, as `sellOwnUnit` does one by one. Answers the orders whose
 * unit was sold; any other has lost its unit and takes `unfulfilledReason`'s path.
 */
export async function sellOwnUnits(
  db: DbOrTx,
  pairs: { linkId: string; orderId: string }[],
): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const json = JSON.stringify(pairs.map((p) => ({ link_id: p.linkId, order_id: p.orderId })));
  const rows = await rowsOf(
    db,
    sql`update ${linkStockUnits} u set sold = true, held_until = '-infinity'
    from jsonb_to_recordset(${json}::jsonb) as x(link_id uuid, order_id uuid)
    where u.link_id = x.link_id and u.order_id = x.order_id and not u.sold
    returning u.order_id::text as order_id`,
    z.object({ order_id: z.string() }),
  );
  return new Set(rows.map((row) => row.order_id));
}

/** Sells any free unit to a payment whose own unit was taken; false when the stock is gone. */
export async function sellFreeUnit(
  db: DbOrTx,
  params: { linkId: string; orderId: string },
): Promise<boolean> {
  // Waits for units being claimed now: a refund would be wrong if one of them comes back.
  if (!(await claimFreeUnit(db, { ...params, minutes: 0, wait: true }))) return false;
  await db
    .update(linkStockUnits)
    .set({ sold: true, heldUntil: sql`'-infinity'` })
    .where(and(eq(linkStockUnits.linkId, params.linkId), eq(linkStockUnits.orderId, params.orderId)));
  return true;
}

/**
 * Per limited link, when its first unsold unit is free: null when all are sold, a time not after
 * now when one is free, else the end of the earliest reservation. One index probe per link.
 */
export async function nextFreeUnit(db: DbOrTx, linkIds: string[]): Promise<Map<string, StockState>> {
  const out = new Map<string, StockState>();
  if (linkIds.length === 0) return out;
  const ids = sql.join(
    linkIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = await rowsOf(
    db,
    sql`select l.id::text as link_id, u.held_until is null as sold_out,
      case when u.held_until > now() then (extract(epoch from u.held_until) * 1000)::float8 end as until_ms
    from unnest(array[${ids}]::uuid[]) as l(id)
    left join lateral (
      select held_until from ${linkStockUnits}
      where link_id = l.id and not sold order by held_until limit 1
    ) u on true`,
    z.object({
      link_id: z.string(),
      sold_out: z.boolean(),
      until_ms: z.union([z.number(), z.string()]).nullable(),
    }),
  );
  for (const row of rows) {
    if (row.sold_out) out.set(row.link_id, { state: "sold-out" });
    else if (row.until_ms === null) out.set(row.link_id, { state: "available" });
    else out.set(row.link_id, { state: "reserved-out", availableAgainAt: new Date(Number(row.until_ms)) });
  }
  return out;
}

/**
 * Gives a link the units of a new limit. From none (a new limit): its paid orders' units sold, its
 * live reservations' held, the rest free, as migration 0016 did for every limited link. Raised: free
 * units added. Lowered: unsold units removed, free ones first, then the latest reservations (whose
 * payments then find no unit and are refunded, as before units), never a sold one.
 */
export async function setUnitsForLimit(
  db: DbOrTx,
  params: { linkId: string; limit: number | null; minutes: number },
): Promise<void> {
  const { linkId, limit } = params;
  if (limit === null) {
    await db.delete(linkStockUnits).where(eq(linkStockUnits.linkId, linkId));
    return;
  }
  const [count] = await rowsOf(
    db,
    sql`select count(*)::int as units, coalesce(max(unit_no), 0)::int as last,
      (count(*) filter (where sold))::int as sold
    from ${linkStockUnits} where link_id = ${linkId}`,
    z.object({ units: z.number(), last: z.number(), sold: z.number() }),
  );
  if (!count || count.units === 0) {
    await db.execute(sql`
      with paid as (
        select id, row_number() over (order by paid_at, id) as n from orders
        where link_id = ${linkId} and status = 'paid'
      ), held as (
        select id, created_at + make_interval(mins => ${params.minutes}) as held_until,
          row_number() over (order by created_at, id) as n
        from orders
        where link_id = ${linkId} and status = 'pending'
          and created_at > now() - make_interval(mins => ${params.minutes})
      ), sold as (select count(*)::int as n from paid)
      insert into ${linkStockUnits} (link_id, unit_no, order_id, held_until, sold)
      select ${linkId}, g.n, coalesce(p.id, h.id), coalesce(h.held_until, '-infinity'), g.n <= sold.n
      from sold cross join lateral generate_series(1, greatest(${limit}::int, sold.n)) as g(n)
      left join paid p on p.n = g.n
      left join held h on sold.n + h.n = g.n`);
    return;
  }
  if (count.units < limit) {
    await db.execute(sql`
      insert into ${linkStockUnits} (link_id, unit_no)
      select ${linkId}, g.n from generate_series(${count.last + 1}::int, ${count.last + limit - count.units}::int) as g(n)`);
    return;
  }
  const surplus = Math.min(count.units - limit, count.units - count.sold);
  if (surplus <= 0) return;
  await db.execute(sql`
    delete from ${linkStockUnits} where link_id = ${linkId} and unit_no in (
      select unit_no from ${linkStockUnits} where link_id = ${linkId} and not sold
      order by held_until > now(), held_until desc, unit_no desc limit ${surplus}
    )`);
}

/**
 * After a checkout's claim: when no free unit is left for the next buyer (units other checkouts are
 * claiming right now count as taken), the end of the earliest reservation; null while one is. The
 * free unit it finds stays locked until the commit: a buyer arriving meanwhile takes another one.
 */
export async function allReservedUntil(db: DbOrTx, linkId: string): Promise<Date | null> {
  const free = await db
    .select({ unitNo: linkStockUnits.unitNo })
    .from(linkStockUnits)
    .where(
      and(
        eq(linkStockUnits.linkId, linkId),
        not(linkStockUnits.sold),
        lte(linkStockUnits.heldUntil, sql`now()`),
      ),
    )
    .limit(1)
    .for("update", { skipLocked: true });
  if (free.length > 0) return null;
  return firstReservationEnd(db, linkId);
}

/** When the earliest live reservation of the link ends; null when none is live. */
export async function firstReservationEnd(db: DbOrTx, linkId: string): Promise<Date | null> {
  const [row] = await rowsOf(
    db,
    sql`select (extract(epoch from min(held_until)) * 1000)::float8 as until_ms
    from ${linkStockUnits} where link_id = ${linkId} and not sold and held_until > now()`,
    z.object({ until_ms: z.union([z.number(), z.string()]).nullable() }),
  );
  return row?.until_ms == null ? null : new Date(Number(row.until_ms));
}
