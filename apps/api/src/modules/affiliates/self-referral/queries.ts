import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../../db/client.ts";
import {
  type AccountSignalKind,
  accountSignals,
  campaigns,
  orders,
  type ReferralFlagSignal,
  referralFlags,
  users,
} from "../../../db/schema/index.ts";

export type { AccountSignalKind, ReferralFlagSignal };

/*
 * The self-referral checks' SQL: account signals (keyed hashes only), referral flags, and the
 * commissions a flag voids. Called inside the caller's transaction.
 */

const referrers = alias(users, "referrer");

/** Keeps a signal of the account (once). */
export async function insertSignal(
  tx: DbOrTx,
  params: { userId: string; kind: AccountSignalKind; hash: string },
): Promise<void> {
  await tx.insert(accountSignals).values(params).onConflictDoNothing();
}

/**
 * The referrer's unclaimed commissions on the referred account's paid orders, locked: a claim or a
 * hold release in flight waits, then sees them voided.
 */
export function lockUnclaimedCommissions(tx: DbOrTx, params: { referredId: string; referrerId: string }) {
  return tx
    .select({
      id: orders.id,
      currency: orders.currency,
      // What partial refunds (decision 037) and a chargeback (issue 32) left of it.
      commission:
        sql<number>`(${orders.commissionMinor} - ${orders.refundedCommissionMinor} - ${orders.disputedCommissionMinor})`.mapWith(
          Number,
        ),
      releasedAt: orders.releasedAt,
    })
    .from(orders)
    .where(
      and(
        eq(orders.creatorId, params.referredId),
        eq(orders.referrerId, params.referrerId),
        eq(orders.status, "paid"),
        isNull(orders.commissionClaimId),
        sql`${orders.commissionMinor} > ${orders.refundedCommissionMinor} + ${orders.disputedCommissionMinor}`,
      ),
    )
    .orderBy(orders.id)
    .for("update");
}

/** Zeroes a voided commission on its order, so hold release and refunds move no commission. */
export async function zeroCommission(tx: DbOrTx, params: { orderId: string }): Promise<void> {
  await tx
    .update(orders)
    // Nothing left: what partial refunds and a chargeback took back stays recorded as taken back.
    .set({
      commissionMinor: sql`${orders.refundedCommissionMinor} + ${orders.disputedCommissionMinor}`,
      updatedAt: new Date(),
    })
    .where(eq(orders.id, params.orderId));
}

/** The first strong signal (by kind) the two accounts share, if any. */
export async function sharedSignalKind(
  tx: DbOrTx,
  params: { userId: string; otherUserId: string },
): Promise<ReferralFlagSignal | null> {
  const other = alias(accountSignals, "other");
  const [shared] = await tx
    .select({ kind: accountSignals.kind })
    .from(accountSignals)
    .innerJoin(other, and(eq(other.kind, accountSignals.kind), eq(other.hash, accountSignals.hash)))
    .where(and(eq(accountSignals.userId, params.userId), eq(other.userId, params.otherUserId)))
    .orderBy(accountSignals.kind)
    .limit(1);
  return shared?.kind ?? null;
}

/** The signal of an earlier flag of this referred account, if it was flagged. */
export async function flagOf(tx: DbOrTx, params: { referredId: string }): Promise<ReferralFlagSignal | null> {
  const [flag] = await tx
    .select({ signal: referralFlags.signal })
    .from(referralFlags)
    .where(eq(referralFlags.referredId, params.referredId));
  return flag?.signal ?? null;
}

/** A referred account and its referrer (the campaign's owner, never itself), with both e-mails. */
export async function referralPair(tx: DbOrTx, params: { referredId: string }) {
  const [pair] = await tx
    .select({
      email: users.email,
      referrerId: referrers.id,
      referrerEmail: referrers.email,
    })
    .from(users)
    .innerJoin(campaigns, eq(campaigns.id, users.referredByCampaignId))
    .innerJoin(referrers, eq(referrers.id, campaigns.ownerId))
    .where(and(eq(users.id, params.referredId), ne(campaigns.ownerId, params.referredId)));
  return pair ?? null;
}

/** Flags a referral for good; answers the signal stored now, or null when a flag already existed. */
export async function insertFlag(
  tx: DbOrTx,
  params: { referredId: string; referrerId: string; signal: ReferralFlagSignal },
): Promise<ReferralFlagSignal | null> {
  const [created] = await tx
    .insert(referralFlags)
    .values(params)
    .onConflictDoNothing()
    .returning({ signal: referralFlags.signal });
  return created?.signal ?? null;
}

/** The other accounts holding the same payout IBAN signal as this one. */
export async function accountsSharingIban(tx: DbOrTx, params: { userId: string }): Promise<string[]> {
  const other = alias(accountSignals, "other");
  const rows = await tx
    .selectDistinct({ userId: other.userId })
    .from(accountSignals)
    .innerJoin(other, and(eq(other.kind, accountSignals.kind), eq(other.hash, accountSignals.hash)))
    .where(
      and(
        eq(accountSignals.userId, params.userId),
        eq(accountSignals.kind, "iban"),
        ne(other.userId, params.userId),
      ),
    );
  return rows.map((r) => r.userId);
}

/** The accounts among `userIds` that the referrer referred (through any of its campaigns). */
export async function referredAmong(tx: DbOrTx, params: { referrerId: string; userIds: string[] }) {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .innerJoin(campaigns, eq(campaigns.id, users.referredByCampaignId))
    .where(and(eq(campaigns.ownerId, params.referrerId), inArray(users.id, params.userIds)));
  return rows.map((r) => r.id);
}

/** Flags for the admin console, newest first, with both accounts' e-mail addresses. */
export function referralFlagRows(db: DbOrTx, params: { limit: number }) {
  const referred = alias(users, "referred");
  return db
    .select({
      referredId: referralFlags.referredId,
      referredEmail: referred.email,
      referrerId: referralFlags.referrerId,
      referrerEmail: referrers.email,
      signal: referralFlags.signal,
      createdAt: referralFlags.createdAt,
      voided: sql<number>`(select count(*) from ledger_transactions t
        join orders o on o.id::text = t.reference
        where t.kind = 'commission_void' and o.creator_id = ${referralFlags.referredId})::int`,
    })
    .from(referralFlags)
    .innerJoin(referred, eq(referred.id, referralFlags.referredId))
    .innerJoin(referrers, eq(referrers.id, referralFlags.referrerId))
    .orderBy(sql`${referralFlags.createdAt} desc`, referralFlags.referredId)
    .limit(params.limit);
}
