import type { Currency } from "@salelink/contracts";
import { and, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../db/client.ts";
import {
  accountSignals,
  campaigns,
  orders,
  type ReferralFlagSignal,
  referralFlags,
  users,
} from "../../db/schema/index.ts";
import { type Posting, post } from "../wallet/ledger.ts";
import { normaliseEmail } from "./signals.ts";

/*
 * Self-referral (issue 16): an account referred by its referrer's own second account earns the
 * referrer nothing. A referral is flagged when the two accounts share a strong signal: the same
 * mailbox (normalised e-mail), the same sign-up device (address and user agent), or the same payout
 * IBAN. A flag is for good: no commission from then on (checkout asks `referralBlocked`), the
 * unclaimed commissions are voided, one balanced reversal per order, and the admin console lists it.
 * A commission already claimed stays claimed: the money reached the wallet and may be spent; the
 * flag tells the admin.
 */

const referrers = alias(users, "referrer");

/** Moves an unclaimed commission back to the platform's fees: what the sale would have left it. */
export function commissionVoided(p: {
  orderId: string;
  referrerId: string;
  currency: Currency;
  amountMinor: number;
  released: boolean;
}): Posting {
  return {
    kind: "commission_void",
    reference: p.orderId,
    memo: { reason: "self-referral" },
    entries: [
      {
        account: p.released ? "affiliate_claimable" : "affiliate_pending",
        ownerId: p.referrerId,
        currency: p.currency,
        amountMinor: -p.amountMinor,
      },
      { account: "platform_fees", ownerId: null, currency: p.currency, amountMinor: p.amountMinor },
    ],
  };
}

/**
 * Voids the referrer's unclaimed commissions on the referred account's orders, each in its own
 * posting, and zeroes them on the orders (so hold release and refunds move no commission). The
 * orders are locked first: a claim or a hold release in flight waits, then sees them voided.
 */
async function voidUnclaimed(tx: DbOrTx, referredId: string, referrerId: string): Promise<number> {
  const held = await tx
    .select({
      id: orders.id,
      currency: orders.currency,
      commission: orders.commissionMinor,
      releasedAt: orders.releasedAt,
    })
    .from(orders)
    .where(
      and(
        eq(orders.creatorId, referredId),
        eq(orders.referrerId, referrerId),
        eq(orders.status, "paid"),
        isNull(orders.commissionClaimId),
        gt(orders.commissionMinor, 0),
      ),
    )
    .orderBy(orders.id)
    .for("update");
  for (const order of held) {
    const amountMinor = order.commission ?? 0;
    const posted = await post(
      tx,
      commissionVoided({
        orderId: order.id,
        referrerId,
        currency: order.currency,
        amountMinor,
        released: order.releasedAt !== null,
      }),
    );
    // A commission still on the order was never voided: an existing reversal means a bug, not money.
    if (!posted.created) throw new Error(`commission of order ${order.id} was already voided`);
    await tx.update(orders).set({ commissionMinor: 0, updatedAt: new Date() }).where(eq(orders.id, order.id));
  }
  return held.length;
}

/** The first strong signal the two accounts share, if any. */
async function sharedSignal(
  tx: DbOrTx,
  a: { id: string; email: string },
  b: { id: string; email: string },
): Promise<ReferralFlagSignal | null> {
  if (normaliseEmail(a.email) === normaliseEmail(b.email)) return "email";
  const other = alias(accountSignals, "other");
  const [shared] = await tx
    .select({ kind: accountSignals.kind })
    .from(accountSignals)
    .innerJoin(other, and(eq(other.kind, accountSignals.kind), eq(other.hash, accountSignals.hash)))
    .where(and(eq(accountSignals.userId, a.id), eq(other.userId, b.id)))
    .orderBy(accountSignals.kind)
    .limit(1);
  return shared?.kind ?? null;
}

/**
 * Looks at a referred account against its referrer; flags the referral and voids its unclaimed
 * commissions when they share a strong signal. Answers the flag's signal (an earlier flag's too),
 * or null for a referral that stands (or no referral).
 */
export async function reviewReferral(tx: DbOrTx, referredId: string): Promise<ReferralFlagSignal | null> {
  const [flag] = await tx
    .select({ signal: referralFlags.signal })
    .from(referralFlags)
    .where(eq(referralFlags.referredId, referredId));
  if (flag) return flag.signal;
  const [pair] = await tx
    .select({
      email: users.email,
      referrerId: referrers.id,
      referrerEmail: referrers.email,
    })
    .from(users)
    .innerJoin(campaigns, eq(campaigns.id, users.referredByCampaignId))
    .innerJoin(referrers, eq(referrers.id, campaigns.ownerId))
    .where(and(eq(users.id, referredId), ne(campaigns.ownerId, referredId)));
  if (!pair) return null;
  const signal = await sharedSignal(
    tx,
    { id: referredId, email: pair.email },
    { id: pair.referrerId, email: pair.referrerEmail },
  );
  if (!signal) return null;
  const [created] = await tx
    .insert(referralFlags)
    .values({ referredId, referrerId: pair.referrerId, signal })
    .onConflictDoNothing()
    .returning({ signal: referralFlags.signal });
  await voidUnclaimed(tx, referredId, pair.referrerId);
  return created?.signal ?? signal;
}

/** Checkout's question for a sale: does this referral earn nothing (flagged now or before)? */
export async function referralBlocked(tx: DbOrTx, creatorId: string): Promise<boolean> {
  return (await reviewReferral(tx, creatorId)) !== null;
}

/**
 * After an account's IBAN signal was recorded: reviews the referrals between it and every account
 * holding the same IBAN, both ways (it was referred by one of them, or referred one of them).
 */
export async function reviewIbanMatches(tx: DbOrTx, userId: string): Promise<void> {
  const other = alias(accountSignals, "other");
  const sharing = await tx
    .selectDistinct({ userId: other.userId })
    .from(accountSignals)
    .innerJoin(other, and(eq(other.kind, accountSignals.kind), eq(other.hash, accountSignals.hash)))
    .where(and(eq(accountSignals.userId, userId), eq(accountSignals.kind, "iban"), ne(other.userId, userId)));
  if (sharing.length === 0) return;
  await reviewReferral(tx, userId);
  const referred = await tx
    .select({ id: users.id })
    .from(users)
    .innerJoin(campaigns, eq(campaigns.id, users.referredByCampaignId))
    .where(
      and(
        eq(campaigns.ownerId, userId),
        inArray(
          users.id,
          sharing.map((s) => s.userId),
        ),
      ),
    );
  for (const r of referred) await reviewReferral(tx, r.id);
}

/** Flags for the admin console, newest first, with both accounts' e-mail addresses. */
export async function referralFlagList(tx: DbOrTx, limit: number) {
  const referred = alias(users, "referred");
  return tx
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
    .limit(limit);
}
