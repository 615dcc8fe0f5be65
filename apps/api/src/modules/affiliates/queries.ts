import type { Currency } from "@salelink/contracts";
import {
  type AnyColumn,
  and,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  type SQL,
  sql,
} from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { campaigns, commissionClaims, orders, referralSales, users } from "../../db/schema/index.ts";

/*
 * The affiliate programme's SQL (campaigns, figures, earnings, claims; clicks and self-referral
 * checks have their own). The reads are computed from the orders (each paid order of a referred
 * account carries its referrer and commission): the owner's id is in every where, through the
 * campaign's owner_id and the order's referrer_id. Amounts are per currency, in minor units.
 */

export type CampaignRow = typeof campaigns.$inferSelect;
export type Money = { currency: Currency; amount: number }[];

export async function campaignsOf(db: DbOrTx, ownerId: string): Promise<CampaignRow[]> {
  return db
    .select()
    .from(campaigns)
    .where(eq(campaigns.ownerId, ownerId))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id));
}

export async function campaignOf(db: DbOrTx, ownerId: string, id: string): Promise<CampaignRow | undefined> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, id), eq(campaigns.ownerId, ownerId)));
  return row;
}

/** A new campaign of the owner, with its own token (sign-up's first one, or POST /campaigns). */
export async function insertCampaign(
  db: DbOrTx,
  params: { ownerId: string; name: string; token: string },
): Promise<CampaignRow> {
  const [row] = await db.insert(campaigns).values(params).returning();
  if (!row) throw new Error("campaign not inserted");
  return row;
}

/** Renames or (un)archives one of the owner's campaigns; null when it is not the owner's. */
export async function updateCampaign(
  db: DbOrTx,
  params: { ownerId: string; id: string; set: Partial<Pick<CampaignRow, "name" | "status">> },
): Promise<CampaignRow | null> {
  const [row] = await db
    .update(campaigns)
    .set(params.set)
    .where(and(eq(campaigns.id, params.id), eq(campaigns.ownerId, params.ownerId)))
    .returning();
  return row ?? null;
}

const sumOf = (column: AnyColumn) => sql<number>`coalesce(sum(${column}), 0)::bigint`.mapWith(Number);

const sum = (condition: ReturnType<typeof sql>, column: AnyColumn | SQL = orders.commissionMinor) =>
  sql<number>`coalesce(sum(${column}) filter (where ${condition}), 0)::bigint`.mapWith(Number);

// The three states of a commission that still counts (DESIGN section 3): held, claimable, claimed.
// A refund takes a claimed commission back from its earner (decision 042): what a refund or a
// chargeback took is no longer claimed. They are computed from
// the orders by the rollups' refresh (wallet/summary/queries.ts, referral_sales) and read from there.

/** Orders of the owner's referred accounts that carry the owner as referrer (within the window). */
const earnedBy = (ownerId: string) =>
  and(
    eq(campaigns.ownerId, ownerId),
    eq(orders.referrerId, ownerId),
    inArray(orders.status, ["paid", "refunded"]),
  );

export interface CampaignFigures {
  signups: number;
  sales: number;
  pending: Money;
  claimable: Money;
  claimed: Money;
}

/** Sign-ups, sales and commissions per campaign; every id asked for is in the map. */
export async function campaignFigures(
  db: DbOrTx,
  ownerId: string,
  campaignIds: readonly string[],
): Promise<Map<string, CampaignFigures>> {
  const figures = new Map<string, CampaignFigures>(
    campaignIds.map((id) => [id, { signups: 0, sales: 0, pending: [], claimable: [], claimed: [] }]),
  );
  if (campaignIds.length === 0) return figures;
  const ids = [...campaignIds];
  const signups = await db
    .select({ campaignId: campaigns.id, n: sql<number>`count(*)::int` })
    .from(users)
    .innerJoin(campaigns, eq(campaigns.id, users.referredByCampaignId))
    .where(and(eq(campaigns.ownerId, ownerId), inArray(campaigns.id, ids)))
    .groupBy(campaigns.id);
  for (const row of signups) {
    const f = figures.get(row.campaignId);
    if (f) f.signups = row.n;
  }
  // From the rollup of the owner's referral orders (decision 031): one row per referred account and
  // currency, the three states above.
  const money = await db
    .select({
      campaignId: campaigns.id,
      currency: referralSales.currency,
      sales: sql<number>`sum(${referralSales.sales})::int`.mapWith(Number),
      pending: sumOf(referralSales.pendingMinor),
      claimable: sumOf(referralSales.claimableMinor),
      claimed: sumOf(referralSales.claimedMinor),
    })
    .from(referralSales)
    .innerJoin(users, eq(users.id, referralSales.creatorId))
    .innerJoin(campaigns, eq(campaigns.id, users.referredByCampaignId))
    .where(
      and(eq(referralSales.referrerId, ownerId), eq(campaigns.ownerId, ownerId), inArray(campaigns.id, ids)),
    )
    .groupBy(campaigns.id, referralSales.currency)
    .orderBy(referralSales.currency);
  for (const row of money) {
    const f = figures.get(row.campaignId);
    if (!f) continue;
    f.sales += row.sales;
    if (row.pending) f.pending.push({ currency: row.currency, amount: row.pending });
    if (row.claimable) f.claimable.push({ currency: row.currency, amount: row.claimable });
    if (row.claimed) f.claimed.push({ currency: row.currency, amount: row.claimed });
  }
  return figures;
}

/** Whose commissions a claim takes: a platform referrer's (`affiliate`) or a partner's (`partner`). */
export type CommissionOf = "affiliate" | "partner";

// What is left of a commission once partial refunds took their share back (decision 037), and a
// chargeback holds or took its own (issue 32).
const commissionColumns = {
  affiliate: {
    earner: orders.referrerId,
    amount:
      sql<number>`(${orders.commissionMinor} - ${orders.refundedCommissionMinor} - ${orders.disputedCommissionMinor})`.mapWith(
        Number,
      ),
    claim: orders.commissionClaimId,
  },
  partner: {
    earner: orders.partnerId,
    amount:
      sql<number>`(${orders.partnerCommissionMinor} - ${orders.refundedPartnerMinor} - ${orders.disputedPartnerMinor})`.mapWith(
        Number,
      ),
    claim: orders.partnerClaimId,
  },
} as const;

/** Everything the owner could claim now, per currency: what POST /campaigns/claim (or /programmes/claim) would move. */
export async function claimableOf(
  db: DbOrTx,
  ownerId: string,
  of: CommissionOf = "affiliate",
): Promise<Money> {
  const c = commissionColumns[of];
  // Live from the orders, never from the rollups: the claim button moves this amount.
  const isClaimable = sql`${orders.status} = 'paid' and ${orders.releasedAt} is not null and ${c.claim} is null`;
  const rows = await db
    .select({ currency: orders.currency, amount: sum(isClaimable, c.amount) })
    .from(orders)
    .where(and(eq(c.earner, ownerId), eq(orders.status, "paid")))
    .groupBy(orders.currency)
    .orderBy(orders.currency);
  return rows.filter((r) => r.amount > 0);
}

/** The orders a claim takes, locked until the claim's transaction ends. */
export async function lockClaimableOrders(tx: DbOrTx, ownerId: string, of: CommissionOf = "affiliate") {
  const c = commissionColumns[of];
  return tx
    .select({ id: orders.id, currency: orders.currency, commission: c.amount })
    .from(orders)
    .where(
      and(
        eq(c.earner, ownerId),
        eq(orders.status, "paid"),
        isNotNull(orders.releasedAt),
        isNull(c.claim),
        gt(c.amount, 0),
      ),
    )
    .for("update");
}

/**
 * Queues two claims of one account on its row: the second sees the orders the first has marked.
 * "No key update", not "update": a refund holding one of the orders locked writes ledger entries
 * referencing this user (a key-share lock on the row), and must not wait for us while we wait for it.
 */
export async function lockClaimant(tx: DbOrTx, params: { userId: string }): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, params.userId)).for("no key update");
}

export async function insertClaim(tx: DbOrTx, params: { userId: string }): Promise<string> {
  const [claim] = await tx.insert(commissionClaims).values(params).returning({ id: commissionClaims.id });
  if (!claim) throw new Error("claim not inserted");
  return claim.id;
}

/** Marks the orders' commissions as taken by the claim. */
export async function markClaimed(
  tx: DbOrTx,
  params: { claimId: string; orderIds: string[]; of?: CommissionOf },
) {
  if (params.orderIds.length === 0) return;
  const set =
    params.of === "partner" ? { partnerClaimId: params.claimId } : { commissionClaimId: params.claimId };
  await tx
    .update(orders)
    .set({ ...set, updatedAt: new Date() })
    .where(inArray(orders.id, params.orderIds));
}

/** Sign-ups per UTC day from `fromDay` over the given campaigns (only days with some). */
export async function signupDays(
  db: DbOrTx,
  ownerId: string,
  campaignIds: readonly string[],
  fromDay: string,
): Promise<{ date: string; signups: number }[]> {
  if (campaignIds.length === 0) return [];
  const day = sql<string>`to_char(${users.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  return db
    .select({ date: day, signups: sql<number>`count(*)::int` })
    .from(users)
    .innerJoin(campaigns, eq(campaigns.id, users.referredByCampaignId))
    .where(
      and(
        eq(campaigns.ownerId, ownerId),
        inArray(campaigns.id, [...campaignIds]),
        gte(users.createdAt, new Date(`${fromDay}T00:00:00Z`)),
      ),
    )
    .groupBy(day)
    .orderBy(day);
}

/** The accounts the owner referred, newest first, with their sales and the commissions earned. */
export async function referralsOf(db: DbOrTx, ownerId: string, limit: number) {
  const accounts = await db
    .select({ id: users.id, email: users.email, campaignId: campaigns.id, joinedAt: users.createdAt })
    .from(users)
    .innerJoin(campaigns, eq(campaigns.id, users.referredByCampaignId))
    .where(eq(campaigns.ownerId, ownerId))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit);
  if (accounts.length === 0) return [];
  const sales = await db
    .select({
      creatorId: orders.creatorId,
      currency: orders.currency,
      sales: sql<number>`count(*) filter (where ${orders.status} = 'paid')::int`,
      // What the referrer keeps: what refunds and chargebacks left of each commission (decision 042).
      earned: sum(
        sql`true`,
        sql`${orders.commissionMinor} - ${orders.refundedCommissionMinor} - ${orders.disputedCommissionMinor}`,
      ),
    })
    .from(orders)
    .where(
      and(
        eq(orders.referrerId, ownerId),
        inArray(orders.status, ["paid", "refunded"]),
        inArray(
          orders.creatorId,
          accounts.map((a) => a.id),
        ),
      ),
    )
    .groupBy(orders.creatorId, orders.currency)
    .orderBy(orders.currency);
  return accounts.map((a) => {
    const mine = sales.filter((s) => s.creatorId === a.id);
    return {
      ...a,
      sales: mine.reduce((n, s) => n + s.sales, 0),
      earned: mine.filter((s) => s.earned > 0).map((s) => ({ currency: s.currency, amount: s.earned })),
    };
  });
}

/** One row per commission, newest sale first; `cursor` is the last order id of the previous page. */
export function earningRows(
  db: DbOrTx,
  ownerId: string,
  query: { cursor?: string | undefined; limit: number },
) {
  // Payment times have the provider's one-second precision: ties go by creation, then id. Compared
  // in SQL, at the database's microsecond precision; a cursor that is not the owner's matches nothing.
  const after = query.cursor
    ? sql`(${orders.paidAt}, ${orders.createdAt}, ${orders.id}) < (
        select c.paid_at, c.created_at, c.id from orders c
        where c.id = ${query.cursor} and c.referrer_id = ${ownerId})`
    : undefined;
  return db
    .select({
      orderId: orders.id,
      campaignId: campaigns.id,
      email: users.email,
      saleAmount: orders.totalMinor,
      commission: orders.commissionMinor,
      currency: orders.currency,
      status: orders.status,
      releasedAt: orders.releasedAt,
      claimId: orders.commissionClaimId,
      paidAt: orders.paidAt,
      availableAt: orders.availableAt,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.creatorId))
    .innerJoin(campaigns, eq(campaigns.id, users.referredByCampaignId))
    .where(and(earnedBy(ownerId), gt(orders.commissionMinor, 0), isNotNull(orders.paidAt), after))
    .orderBy(desc(orders.paidAt), desc(orders.createdAt), desc(orders.id))
    .limit(query.limit);
}
