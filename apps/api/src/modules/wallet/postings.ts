import type { Currency } from "@salelink/contracts";
import { isVatAccount, type LedgerAccount, vatAccount } from "@salelink/contracts/ledger";
import type { VatCountry } from "@salelink/contracts/vat-countries";
import type { EntryInput, Posting } from "./entries.ts";

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
  /** The VAT in the gross (issue 22): owed to the buyer's country, nobody's earnings. */
  vatMinor: number;
  /** The platform fee, charged to the creator. */
  feeMinor: number;
  /** The referrer's share of the fee; 0 without a referrer. */
  commissionMinor: number;
  /** The partner's commission (a creator's partner programme), out of the creator's share; 0 without. */
  partnerCommissionMinor: number;
  /** What the creator earns. */
  netMinor: number;
}

/**
 * What a sale's gross becomes (decisions 035, 039). The VAT in it is set apart first: the platform
 * fee is a share of the amount paid net of VAT, and a platform referrer's commission a share of that
 * fee. A partner's commission is a share of the amount net of VAT too, rounded half up like every
 * share, and comes out of the creator's part: it is capped at that part, so the creator's net is
 * never negative (a 90 % rate on a 5-cent sale whose fee rounded up).
 */
export function splitSale(
  grossMinor: number,
  feeBps: number,
  commissionBps: number | null,
  partnerBps: number | null = null,
  vatMinor = 0,
): SaleSplit {
  if (!Number.isSafeInteger(vatMinor) || vatMinor < 0 || vatMinor > grossMinor) {
    throw new RangeError(`splitSale: VAT ${vatMinor} of ${grossMinor}`);
  }
  const base = grossMinor - vatMinor;
  const feeMinor = shareOf(base, feeBps);
  const commissionMinor = commissionBps === null ? 0 : shareOf(feeMinor, commissionBps);
  const creatorShare = base - feeMinor;
  const partnerCommissionMinor = partnerBps === null ? 0 : Math.min(shareOf(base, partnerBps), creatorShare);
  return {
    grossMinor,
    vatMinor,
    feeMinor,
    commissionMinor,
    partnerCommissionMinor,
    netMinor: creatorShare - partnerCommissionMinor,
  };
}

export interface SaleFacts {
  orderId: string;
  creatorId: string;
  referrerId: string | null;
  /** The partner whose link brought the sale, when it earns a commission. */
  partnerId: string | null;
  currency: Currency;
  split: SaleSplit;
  /** The country whose VAT the sale carries (null when none is charged). */
  vatCountry?: VatCountry | null;
  /** The end of the hold. */
  availableAt: Date;
}

/**
 * Paid: the provider holds the gross; the creator's net and the commissions (the platform referrer's,
 * the partner's) are held.
 */
export function orderPaid(s: SaleFacts): Posting {
  const { currency, split } = s;
  const entries: Posting["entries"] = [
    { account: "provider", ownerId: null, currency, amountMinor: -split.grossMinor },
  ];
  if (split.netMinor !== 0) {
    entries.push({
      account: "pending",
      ownerId: s.creatorId,
      currency,
      amountMinor: split.netMinor,
      availableAt: s.availableAt,
    });
  }
  if (split.vatMinor !== 0) {
    if (!s.vatCountry) throw new RangeError(`order ${s.orderId}: VAT without a country`);
    entries.push({ account: vatAccount(s.vatCountry), ownerId: null, currency, amountMinor: split.vatMinor });
  }
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
  if (s.partnerId && split.partnerCommissionMinor > 0) {
    entries.push({
      account: "partner_pending",
      ownerId: s.partnerId,
      currency,
      amountMinor: split.partnerCommissionMinor,
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

/** The hold is over: the creator's net becomes available, the commissions claimable. */
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
  if (s.partnerId && split.partnerCommissionMinor > 0) {
    entries.push(
      {
        account: "partner_pending",
        ownerId: s.partnerId,
        currency,
        amountMinor: -split.partnerCommissionMinor,
      },
      {
        account: "partner_claimable",
        ownerId: s.partnerId,
        currency,
        amountMinor: split.partnerCommissionMinor,
      },
    );
  }
  return { kind: "hold_release", reference: s.orderId, entries };
}

/** A part of a posting to reverse: `numerator / denominator` of every entry (1/1 by default). */
export interface Fraction {
  numerator: number;
  denominator: number;
}

// Stryker disable next-line StringLiteral: equivalent, null's key only has to differ from a uuid's
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
export function orderRefunded(
  s: SaleFacts,
  released: boolean,
  refund: { amountMinor: number; reference?: string } = { amountMinor: s.split.grossMinor },
): Posting {
  // A partial refund (issue 21) takes back the same share of every part of the sale as it stands.
  return reverse(
    saleAsItStands(s, released),
    { kind: "refund", reference: refund.reference ?? s.orderId },
    { numerator: refund.amountMinor, denominator: s.split.grossMinor },
  );
}

/** Where each part of a sale now sits: held, or (after the hold) available and claimable. */
function saleAsItStands(s: SaleFacts, released: boolean): EntryInput[] {
  return released ? netEntries(orderPaid(s), holdReleased(s)) : orderPaid(s).entries;
}

/** What a refund took back of each part of a sale's split, read off its reversal (before any cover). */
export interface RefundedParts {
  amountMinor: number;
  vatMinor: number;
  feeMinor: number;
  commissionMinor: number;
  partnerCommissionMinor: number;
  netMinor: number;
}

export function refundedParts(reversal: Posting): RefundedParts {
  const parts: RefundedParts = {
    amountMinor: 0,
    vatMinor: 0,
    feeMinor: 0,
    commissionMinor: 0,
    partnerCommissionMinor: 0,
    netMinor: 0,
  };
  for (const e of reversal.entries) {
    const taken = -e.amountMinor;
    if (e.account === "provider") parts.amountMinor += e.amountMinor;
    else if (isVatAccount(e.account)) parts.vatMinor += taken;
    else if (e.account === "pending" || e.account === "available") parts.netMinor += taken;
    else if (e.account === "platform_fees") parts.feeMinor += taken;
    else if (e.account === "affiliate_pending" || e.account === "affiliate_claimable") {
      // The referrer's commission came out of the fee: the fee taken back includes it.
      parts.commissionMinor += taken;
      parts.feeMinor += taken;
    } else if (e.account === "partner_pending" || e.account === "partner_claimable")
      parts.partnerCommissionMinor += taken;
    else throw new RangeError(`a sale's reversal moves ${e.account}`);
  }
  return parts;
}

/** Which of a sale's commissions its earner has already claimed into their wallet. */
export interface ClaimedCommissions {
  /** The platform referrer's. */
  commission: boolean;
  /** The creator's partner's. */
  partner: boolean;
}

/**
 * Who bears what a reversal cannot take back (decision 042): always the owner of the money, never
 * the platform. A commission already claimed left its claimable balance with its claim, so it is
 * taken from its earner's wallet (the referrer's or the partner's available balance), not from the
 * claimable balance (another order's commission, still unclaimed, is there) nor from the creator.
 * Each user's debit is then taken up to the balance it hits; what that balance no longer holds
 * (withdrawn, claimed, paid out) becomes the owner's debt in that currency. Credits and the
 * platform's own entries (its fee given back, the VAT, the provider) pass unchanged.
 */
export function coverShortfall(
  entries: readonly EntryInput[],
  balanceOf: (ownerId: string, account: LedgerAccount, currency: Currency) => number,
  claimed: ClaimedCommissions,
): EntryInput[] {
  const retargeted = entries.map((entry): EntryInput => {
    // Stryker disable next-line EqualityOperator: equivalent, netEntries below drops a zero entry
    if (entry.amountMinor >= 0) return entry;
    if (
      (entry.account === "affiliate_claimable" && claimed.commission) ||
      (entry.account === "partner_claimable" && claimed.partner)
    )
      return { ...entry, account: "available" };
    return entry;
  });
  // An earner's own share and a claimed commission of theirs may both debit their available
  // balance: checked against it once, together.
  // Stryker disable next-line StringLiteral: equivalent, netEntries reads only the entries
  const merged = netEntries({ kind: "refund", reference: "", entries: retargeted });
  const covered: EntryInput[] = [];
  const debts: EntryInput[] = [];
  for (const entry of merged) {
    // Stryker disable next-line EqualityOperator: equivalent, netEntries left no zero entry in merged
    if (entry.ownerId === null || entry.amountMinor >= 0) {
      covered.push(entry);
      continue;
    }
    const held = Math.max(0, balanceOf(entry.ownerId, entry.account, entry.currency));
    const taken = Math.min(held, -entry.amountMinor);
    if (taken > 0) covered.push({ ...entry, amountMinor: -taken });
    const shortfall = -entry.amountMinor - taken;
    // Never negative (taken is at most the debit); a zero debt would be dropped by netEntries below.
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, see above
    if (shortfall > 0) debts.push({ ...entry, account: "debt", amountMinor: -shortfall });
  }
  // One debt entry per owner and currency, however many of their balances fell short.
  // Stryker disable next-line StringLiteral: equivalent, netEntries reads only the entries
  return [...covered, ...netEntries({ kind: "refund", reference: "", entries: debts })];
}

/**
 * A referrer claims their platform commissions (`claim`), or a partner their partner programmes'
 * (`partner_claim`): claimable moves into their wallet.
 */
export function commissionClaimed(p: {
  claimId: string;
  userId: string;
  currency: Currency;
  amountMinor: number;
  of?: "affiliate" | "partner";
}): Posting {
  const partner = p.of === "partner";
  return {
    kind: partner ? "partner_claim" : "claim",
    reference: p.claimId,
    entries: [
      {
        account: partner ? "partner_claimable" : "affiliate_claimable",
        ownerId: p.userId,
        currency: p.currency,
        amountMinor: -p.amountMinor,
      },
      { account: "available", ownerId: p.userId, currency: p.currency, amountMinor: p.amountMinor },
    ],
  };
}
