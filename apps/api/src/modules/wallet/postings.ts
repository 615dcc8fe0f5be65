import type { Currency } from "@salelink/contracts";
import type { LedgerAccount } from "@salelink/contracts/ledger";
import type { EntryInput, Posting } from "./ledger.ts";

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

/** A part of a posting to reverse: `numerator / denominator` of every entry (1/1 by default). */
export interface Fraction {
  numerator: number;
  denominator: number;
}

const key = (e: EntryInput) => `${e.ownerId ?? ""}|${e.account}|${e.currency}`;

/** The combined effect of several postings, one entry per account, holder and currency moved. */
export function netEntries(...postings: Posting[]): EntryInput[] {
  const net = new Map<string, EntryInput>();
  for (const e of postings.flatMap((p) => p.entries)) {
    const row = net.get(key(e));
    if (row) row.amountMinor += e.amountMinor;
    else
      net.set(key(e), {
        account: e.account,
        ownerId: e.ownerId,
        currency: e.currency,
        amountMinor: e.amountMinor,
      });
  }
  return [...net.values()].filter((e) => e.amountMinor !== 0);
}

/**
 * Undoes a posting, wholly or in part (DESIGN section 4: a correction is a reversal): every entry
 * with its sign flipped, scaled by `part`. Each scaled amount is within one minor unit of exact; the
 * units that rounding leaves over go to the entries with the largest remainders, so every currency
 * still sums to zero. Held money's `availableAt` is not carried: a reversal is never held.
 */
export function reverse(
  entries: readonly EntryInput[],
  as: Pick<Posting, "kind" | "reference">,
  part: Fraction = { numerator: 1, denominator: 1 },
): Posting {
  const { numerator: n, denominator: d } = part;
  if (!Number.isSafeInteger(n) || !Number.isSafeInteger(d) || n < 0 || d <= 0 || n > d) {
    throw new RangeError(`reverse by ${n}/${d}`);
  }
  const scaled = entries.map((e) => {
    const exact = -e.amountMinor * n;
    const floor = Math.floor(exact / d);
    return { entry: e, amountMinor: floor, remainder: exact - floor * d };
  });
  for (const currency of new Set(entries.map((e) => e.currency))) {
    const same = scaled.filter((s) => s.entry.currency === currency);
    // The exact amounts sum to zero, so the floors fall short by a whole number of units.
    let left = -same.reduce((sum, s) => sum + s.amountMinor, 0);
    for (const s of [...same].sort((a, b) => b.remainder - a.remainder)) {
      if (left <= 0) break;
      s.amountMinor += 1;
      left -= 1;
    }
  }
  return {
    kind: as.kind,
    reference: as.reference,
    entries: scaled
      .filter((s) => s.amountMinor !== 0)
      .map((s) => ({
        account: s.entry.account,
        ownerId: s.entry.ownerId,
        currency: s.entry.currency,
        amountMinor: s.amountMinor,
      })),
  };
}

/**
 * Refunded: the sale as it stands is reversed. While held, every amount goes back the way it came;
 * after the hold, the money is taken back from the balances the release moved it to (available,
 * claimable). What those balances can no longer cover is `coverShortfall`'s business.
 */
export function orderRefunded(s: SaleFacts, released: boolean): Posting {
  const sale = released ? netEntries(orderPaid(s), holdReleased(s)) : orderPaid(s).entries;
  return reverse(sale, { kind: "refund", reference: s.orderId });
}

/**
 * Who bears what a reversal cannot take back. A user's balance never goes below zero, so a debit
 * larger than the balance it hits (money already withdrawn: a creator's payout) is taken up to that
 * balance and the rest is borne by the platform's fees. A commission already claimed left with its
 * claim: taking it from the referrer's claimable balance would take another order's commission,
 * still unclaimed, so the platform's fees bear all of it.
 */
export function coverShortfall(
  entries: readonly EntryInput[],
  balanceOf: (ownerId: string, account: LedgerAccount, currency: Currency) => number,
  opts: { commissionClaimed: boolean },
): EntryInput[] {
  const covered: EntryInput[] = [];
  for (const entry of entries) {
    if (entry.ownerId === null || entry.amountMinor >= 0) {
      covered.push(entry);
      continue;
    }
    if (entry.account === "affiliate_claimable" && opts.commissionClaimed) {
      covered.push({ ...entry, account: "platform_fees", ownerId: null });
      continue;
    }
    const balance = balanceOf(entry.ownerId, entry.account, entry.currency);
    const shortfall = Math.max(0, -entry.amountMinor - balance);
    if (shortfall < -entry.amountMinor)
      covered.push({ ...entry, amountMinor: entry.amountMinor + shortfall });
    if (shortfall > 0) {
      covered.push({
        account: "platform_fees",
        ownerId: null,
        currency: entry.currency,
        amountMinor: -shortfall,
      });
    }
  }
  return covered;
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
