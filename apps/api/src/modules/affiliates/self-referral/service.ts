import type { AdminReferralFlagList, Currency } from "@salelink/contracts";
import type { DbOrTx } from "../../../db/client.ts";
import { type Posting, post } from "../../wallet/ledger.ts";
import type { ReferralFlagSignal } from "./queries.ts";
import * as q from "./queries.ts";
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
  const held = await q.lockUnclaimedCommissions(tx, { referredId, referrerId });
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
    await q.zeroCommission(tx, { orderId: order.id });
  }
  return held.length;
}

/** The first strong signal the two accounts share, if any (partner programmes ask it too). */
export async function sharedSignal(
  tx: DbOrTx,
  a: { id: string; email: string },
  b: { id: string; email: string },
): Promise<ReferralFlagSignal | null> {
  if (normaliseEmail(a.email) === normaliseEmail(b.email)) return "email";
  return q.sharedSignalKind(tx, { userId: a.id, otherUserId: b.id });
}

/**
 * Looks at a referred account against its referrer; flags the referral and voids its unclaimed
 * commissions when they share a strong signal. Answers the flag's signal (an earlier flag's too),
 * or null for a referral that stands (or no referral).
 */
export async function reviewReferral(tx: DbOrTx, referredId: string): Promise<ReferralFlagSignal | null> {
  const flagged = await q.flagOf(tx, { referredId });
  if (flagged) return flagged;
  const pair = await q.referralPair(tx, { referredId });
  if (!pair) return null;
  const signal = await sharedSignal(
    tx,
    { id: referredId, email: pair.email },
    { id: pair.referrerId, email: pair.referrerEmail },
  );
  if (!signal) return null;
  const created = await q.insertFlag(tx, { referredId, referrerId: pair.referrerId, signal });
  await voidUnclaimed(tx, referredId, pair.referrerId);
  return created ?? signal;
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
  const sharing = await q.accountsSharingIban(tx, { userId });
  if (sharing.length === 0) return;
  await reviewReferral(tx, userId);
  const referred = await q.referredAmong(tx, { referrerId: userId, userIds: sharing });
  for (const id of referred) await reviewReferral(tx, id);
}

/** Flags for the admin console, newest first, with both accounts' e-mail addresses. */
export async function listReferralFlags(db: DbOrTx, limit: number): Promise<AdminReferralFlagList> {
  const rows = await q.referralFlagRows(db, { limit });
  return {
    items: rows.map((r) => ({
      referred: { id: r.referredId, email: r.referredEmail },
      referrer: { id: r.referrerId, email: r.referrerEmail },
      signal: r.signal,
      flaggedAt: r.createdAt.toISOString(),
      voidedCommissions: r.voided,
    })),
  };
}
