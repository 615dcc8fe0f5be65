import type { Currency, PartnerMembershipStatus, PartnerSortKey } from "@salelink/contracts";
import { type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.ts";
import { rowsOf } from "../../wallet/queries.ts";

/*
 * The figures of partner programmes, from the orders each partner's code brought and their clicks:
 * for the creator's partners screen (every partner of one programme, sorted and paged) and for a
 * partner's page of one programme. Read live from the orders (a programme's partners are few next
 * to a launch's sales, and the claim button moves what "owed" shows). Creator-side reads carry the
 * creator's id, partner-side ones the partner's, in their `where`.
 */

export interface FiguresRow {
  id: string;
  partnerId: string;
  email: string;
  status: PartnerMembershipStatus;
  code: string;
  createdAt: Date;
  decidedAt: Date | null;
  removedAt: Date | null;
  clicks: number;
  botClicks: number;
  filteredClicks: number;
  sales: number;
  refunds: number;
  blockedSelf: number;
  blockedShared: number;
  money: {
    currency: Currency;
    revenueMinor: number;
    heldMinor: number;
    owedMinor: number;
    paidMinor: number;
  }[];
  total: number;
}

const sortColumns: Record<PartnerSortKey, SQL> = {
  createdAt: sql.raw("m.created_at"),
  clicks: sql.raw("clicks"),
  sales: sql.raw("sales"),
  revenue: sql.raw("revenue_sum"),
  held: sql.raw("held_sum"),
  owed: sql.raw("owed_sum"),
  paid: sql.raw("paid_sum"),
};

/** Which memberships: a creator's (optionally of one status), or one membership of a partner. */
type Scope =
  | { creatorId: string; status?: PartnerMembershipStatus }
  | { partnerId: string; membershipId: string };

function scopeWhere(scope: Scope): SQL {
  if ("creatorId" in scope) {
    return scope.status
      ? sql`pm.creator_id = ${scope.creatorId} and pm.status = ${scope.status}`
      : sql`pm.creator_id = ${scope.creatorId}`;
  }
  return sql`pm.partner_id = ${scope.partnerId} and pm.id = ${scope.membershipId}`;
}

/**
 * The memberships in `scope` with their figures, sorted (money: the sum of its currencies' minor
 * units; ties newest first) and paged; `total` is the count before paging. A sale counts once paid
 * and until refunded; a blocked attribution (decision 035) counts apart and earns nothing. A
 * commission is held until its sale's hold ends, then owed until claimed; a claimed one stays paid
 * even when its sale is refunded later (the creator bears that reversal).
 */
export async function membershipFigures(
  db: DbOrTx,
  scope: Scope,
  page: { sort: PartnerSortKey; dir: "asc" | "desc"; offset: number; limit: number },
): Promise<FiguresRow[]> {
  const direction = sql.raw(page.dir === "asc" ? "asc" : "desc");
  const rows = rowsOf<
    Omit<FiguresRow, "createdAt" | "decidedAt" | "removedAt"> & {
      createdAt: string | Date;
      decidedAt: string | Date | null;
      removedAt: string | Date | null;
    }
  >(
    await db.execute(sql`
    with m as (
      select pm.id, pm.partner_id, pm.creator_id, pm.status, pm.code, pm.created_at, pm.decided_at,
        pm.removed_at, u.email
      from partner_memberships pm join users u on u.id = pm.partner_id
      where ${scopeWhere(scope)}
    ),
    c as (
      select d.membership_id, sum(d.clicks) as clicks, sum(d.bot_clicks) as bots,
        sum(d.filtered_clicks) as filtered
      from partner_click_days d where d.membership_id in (select id from m) group by d.membership_id
    ),
    o as (
      select o.partner_membership_id as mid, o.currency,
        count(*) filter (where o.status = 'paid' and o.partner_blocked is null) as sales,
        count(*) filter (where o.status = 'refunded' and o.partner_blocked is null) as refunds,
        count(*) filter (where o.status = 'paid' and o.partner_blocked = 'self-purchase') as blocked_self,
        count(*) filter (where o.status = 'paid' and o.partner_blocked = 'shared-signals') as blocked_shared,
        coalesce(sum(o.total_minor - o.refunded_minor) filter (where o.status = 'paid' and o.partner_blocked is null), 0) as revenue,
        -- What partial refunds left (decision 037).
        coalesce(sum(o.partner_commission_minor - o.refunded_partner_minor - o.disputed_partner_minor) filter (
          where o.status = 'paid' and o.released_at is null and o.partner_claim_id is null), 0) as held,
        coalesce(sum(o.partner_commission_minor - o.refunded_partner_minor - o.disputed_partner_minor) filter (
          where o.status = 'paid' and o.released_at is not null and o.partner_claim_id is null), 0) as owed,
        -- A refund or a chargeback takes a claimed commission back from the partner (decision 042).
        coalesce(sum(o.partner_commission_minor - o.refunded_partner_minor - o.disputed_partner_minor) filter (
          where o.partner_claim_id is not null), 0) as paid
      from orders o
      where o.partner_membership_id in (select id from m)
        and o.creator_id in (select creator_id from m)
        and o.status in ('paid', 'refunded')
      group by o.partner_membership_id, o.currency
    ),
    a as (
      select mid, sum(sales) as sales, sum(refunds) as refunds, sum(blocked_self) as blocked_self,
        sum(blocked_shared) as blocked_shared, sum(revenue) as revenue_sum, sum(held) as held_sum,
        sum(owed) as owed_sum, sum(paid) as paid_sum,
        jsonb_agg(jsonb_build_object('currency', currency, 'revenueMinor', revenue, 'heldMinor', held,
          'owedMinor', owed, 'paidMinor', paid) order by currency) as money
      from o group by mid
    )
    select m.id, m.partner_id as "partnerId", m.email, m.status, m.code, m.created_at as "createdAt",
      m.decided_at as "decidedAt", m.removed_at as "removedAt",
      coalesce(c.clicks, 0)::bigint as clicks, coalesce(c.bots, 0)::bigint as "botClicks",
      coalesce(c.filtered, 0)::bigint as "filteredClicks",
      coalesce(a.sales, 0)::bigint as sales, coalesce(a.refunds, 0)::bigint as refunds,
      coalesce(a.blocked_self, 0)::bigint as "blockedSelf",
      coalesce(a.blocked_shared, 0)::bigint as "blockedShared",
      coalesce(a.money, '[]'::jsonb) as money,
      count(*) over () as total
    from m left join c on c.membership_id = m.id left join a on a.mid = m.id
    order by ${sortColumns[page.sort]} ${direction} nulls last, m.created_at desc, m.id desc
    offset ${page.offset} limit ${page.limit}`),
  );
  const toDate = (v: string | Date) => (v instanceof Date ? v : new Date(v));
  return rows.map((r) => ({
    ...r,
    createdAt: toDate(r.createdAt),
    decidedAt: r.decidedAt === null ? null : toDate(r.decidedAt),
    removedAt: r.removedAt === null ? null : toDate(r.removedAt),
    clicks: Number(r.clicks),
    botClicks: Number(r.botClicks),
    filteredClicks: Number(r.filteredClicks),
    sales: Number(r.sales),
    refunds: Number(r.refunds),
    blockedSelf: Number(r.blockedSelf),
    blockedShared: Number(r.blockedShared),
    money: (typeof r.money === "string" ? JSON.parse(r.money) : r.money).map(
      (x: FiguresRow["money"][number]) => ({
        currency: x.currency,
        revenueMinor: Number(x.revenueMinor),
        heldMinor: Number(x.heldMinor),
        owedMinor: Number(x.owedMinor),
        paidMinor: Number(x.paidMinor),
      }),
    ),
    total: Number(r.total),
  }));
}

export interface DayRow {
  date: string;
  clicks: number;
  sales: number;
  commission: { currency: Currency; amount: number }[];
}

/**
 * A membership's clicks, sales and commission per UTC day from `fromDay` (inclusive), only the days
 * with some; the caller checked the membership is the partner's.
 */
export async function membershipDays(
  db: DbOrTx,
  params: { membershipId: string; fromDay: string },
): Promise<DayRow[]> {
  const rows = rowsOf<{ date: string; clicks: string | number; sales: string | number; commission: unknown }>(
    await db.execute(sql`
    with c as (
      select d.day, sum(d.clicks) as clicks from partner_click_days d
      where d.membership_id = ${params.membershipId} and d.day >= ${params.fromDay}::date group by d.day
    ),
    s as (
      select (o.paid_at at time zone 'UTC')::date as day, o.currency, count(*) as sales,
        sum(coalesce(o.partner_commission_minor, 0) - o.refunded_partner_minor - o.disputed_partner_minor) as commission
      from orders o
      where o.partner_membership_id = ${params.membershipId} and o.status = 'paid'
        and o.partner_blocked is null and o.paid_at >= ${params.fromDay}::date
      group by 1, 2
    ),
    sd as (
      select day, sum(sales) as sales,
        jsonb_agg(jsonb_build_object('currency', currency, 'amount', commission) order by currency)
          filter (where commission > 0) as commission
      from s group by day
    )
    select to_char(coalesce(c.day, sd.day), 'YYYY-MM-DD') as date, coalesce(c.clicks, 0) as clicks,
      coalesce(sd.sales, 0) as sales, coalesce(sd.commission, '[]'::jsonb) as commission
    from c full join sd on sd.day = c.day
    order by 1`),
  );
  return rows.map((r) => ({
    date: r.date,
    clicks: Number(r.clicks),
    sales: Number(r.sales),
    commission: (
      (typeof r.commission === "string" ? JSON.parse(r.commission) : r.commission) as {
        currency: Currency;
        amount: number | string;
      }[]
    ).map((x) => ({ currency: x.currency, amount: Number(x.amount) })),
  }));
}
