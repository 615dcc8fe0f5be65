import type { Currency } from "@salelink/contracts";
import type { Posting } from "./ledger.ts";

/*
 * The money movements of the platform, as pure functions from facts to balanced postings. The
 * services that cause them (checkout, hold release, claims, payouts, refunds) post these inside
 * their own database transactions.
 */

/** `amount × bps / 10000`, rounded half up, in integers only (bps: basis points). */
export function shareOf(amountMinor: number, bps: number): number {
  if (!Number.isSafeInteger(amountMinor) || !Number.isInteger(bps) || amountMinor < 0 || bps < 0) {
    throw new RangeError(`shareOf(${amountMinor}, ${bps})`);
  }
  return Math.floor((amountMinor * bps + 5000) / 10000);
}

export interface SaleSplit {
  grossMinor: number;
  /** The platform fee, charged to the creator. */
  feeMinor: number;
  /** The referrer's share of the fee; 0 without a referrer. */
  commissionMinor: number;
  /** What the creator earns. */
  netMinor: number;
}

export function splitSale(grossMinor: number, feeBps: number, commissionBps: number | null): SaleSplit {
  const feeMinor = shareOf(grossMinor, feeBps);
  const commissionMinor = commissionBps === null ? 0 : shareOf(feeMinor, commissionBps);
  return { grossMinor, feeMinor, commissionMinor, netMinor: grossMinor - feeMinor };
}

export interface SaleFacts {
  orderId: string;
  creatorId: string;
  referrerId: string | null;
  currency: Currency;
  split: SaleSplit;
  /** The end of the hold. */
  availableAt: Date;
}

/** Paid: the provider holds the gross; the creator's net and the referrer's commission are held. */
export function orderPaid(s: SaleFacts): Posting {
  const { currency, split } = s;
  const entries: Posting["entries"] = [
    { account: "provider", ownerId: null, currency, amountMinor: -split.grossMinor },
    {
      account: "pending",
      ownerId: s.creatorId,
      currency,
      amountMinor: split.netMinor,
      availableAt: s.availableAt,
    },
  ];
  const platformShare = split.feeMinor - split.commissionMinor;
  if (platformShare !== 0)
    entries.push({ account: "platform_fees", ownerId: null, currency, amountMinor: platformShare });
  if (s.referrerId && split.commissionMinor > 0) {
    entries.push({
      account: "affiliate_pending",
      ownerId: s.referrerId,
      currency,
      amountMinor: split.commissionMinor,
      availableAt: s.availableAt,
    });
  }
  return {
    kind: "order_paid",
    reference: s.orderId,
    memo: { gross: split.grossMinor, fee: split.feeMinor },
    entries,
  };
}

/** The hold is over: the creator's net becomes available, the commission claimable. */
export function holdReleased(s: SaleFacts): Posting {
  const { currency, split } = s;
  const entries: Posting["entries"] = [];
  if (split.netMinor > 0) {
    entries.push(
      { account: "pending", ownerId: s.creatorId, currency, amountMinor: -split.netMinor },
      { account: "available", ownerId: s.creatorId, currency, amountMinor: split.netMinor },
    );
  }
  if (s.referrerId && split.commissionMinor > 0) {
    entries.push(
      { account: "affiliate_pending", ownerId: s.referrerId, currency, amountMinor: -split.commissionMinor },
      { account: "affiliate_claimable", ownerId: s.referrerId, currency, amountMinor: split.commissionMinor },
    );
  }
  return { kind: "hold_release", reference: s.orderId, entries };
}

/**
 * Refunded while still held: every amount goes back the way it came. After the hold, the money is
 * taken back from the balances it reached (`released: true`); the posting then fails, rolling back
 * the refund, if the creator has already withdrawn it.
 */
export function orderRefunded(s: SaleFacts, released: boolean): Posting {
  const { currency, split } = s;
  const entries: Posting["entries"] = [
    { account: "provider", ownerId: null, currency, amountMinor: split.grossMinor },
    {
      account: released ? "available" : "pending",
      ownerId: s.creatorId,
      currency,
      amountMinor: -split.netMinor,
    },
  ];
  const platformShare = split.feeMinor - split.commissionMinor;
  if (platformShare !== 0)
    entries.push({ account: "platform_fees", ownerId: null, currency, amountMinor: -platformShare });
  if (s.referrerId && split.commissionMinor > 0) {
    entries.push({
      account: released ? "affiliate_claimable" : "affiliate_pending",
      ownerId: s.referrerId,
      currency,
      amountMinor: -split.commissionMinor,
    });
  }
  return { kind: "refund", reference: s.orderId, entries: entries.filter((e) => e.amountMinor !== 0) };
}

/** A referrer claims commissions: claimable moves into their wallet. */
export function commissionClaimed(p: {
  claimId: string;
  userId: string;
  currency: Currency;
  amountMinor: number;
}): Posting {
  return {
    kind: "claim",
    reference: p.claimId,
    entries: [
      {
        account: "affiliate_claimable",
        ownerId: p.userId,
        currency: p.currency,
        amountMinor: -p.amountMinor,
      },
      { account: "available", ownerId: p.userId, currency: p.currency, amountMinor: p.amountMinor },
    ],
  };
}

interface PayoutFacts {
  payoutId: string;
  userId: string;
  currency: Currency;
  amountMinor: number;
}

/** A payout is requested: the amount leaves what can be spent, in the same transaction. */
export function payoutRequested(p: PayoutFacts): Posting {
  return {
    kind: "payout_requested",
    reference: p.payoutId,
    entries: [
      { account: "available", ownerId: p.userId, currency: p.currency, amountMinor: -p.amountMinor },
      { account: "in_transit", ownerId: p.userId, currency: p.currency, amountMinor: p.amountMinor },
    ],
  };
}

/** Paid out: the money leaves the provider's balance for the creator's bank. */
export function payoutPaid(p: PayoutFacts): Posting {
  return {
    kind: "payout_paid",
    reference: p.payoutId,
    entries: [
      { account: "in_transit", ownerId: p.userId, currency: p.currency, amountMinor: -p.amountMinor },
      { account: "provider", ownerId: null, currency: p.currency, amountMinor: p.amountMinor },
    ],
  };
}

/** Failed: the amount returns to available, once. */
export function payoutFailed(p: PayoutFacts): Posting {
  return {
    kind: "payout_failed",
    reference: p.payoutId,
    entries: [
      { account: "in_transit", ownerId: p.userId, currency: p.currency, amountMinor: -p.amountMinor },
      { account: "available", ownerId: p.userId, currency: p.currency, amountMinor: p.amountMinor },
    ],
  };
}
