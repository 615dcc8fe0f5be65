import type { Currency } from "@salelink/contracts";
import { isVatAccount, type LedgerAccount, vatAccount } from "@salelink/contracts/ledger";
import type { EntryInput, Posting } from "./entries.ts";
import { type ClaimedCommissions, orderRefunded, type RefundedParts, type SaleFacts } from "./postings.ts";

/*
 * A chargeback's postings (issue 32, decision 042), pure like the rest of the money rules: the
 * disputed share taken as a refund takes it, the platform's part parked until the bank decides, given
 * back when won, moved out of the VAT owed and the fees when lost, and the provider's fee.
 */

const isPlatformShare = (e: EntryInput) => e.account === "platform_fees" || isVatAccount(e.account);

/**
 * A chargeback opens (issue 32): the bank took the disputed amount from the provider's balance, so
 * that share of the sale is taken back at once as a refund would take it, from the creator and the
 * commissions' earners (`coverShortfall` then decides what falls to debts). The platform's part of
 * it (the VAT, its fee) waits in `disputes_held` until the bank decides: the VAT owed and the fees
 * change only when the dispute is lost, with its credit note.
 */
export function disputeOpened(
  s: SaleFacts,
  released: boolean,
  dispute: { amountMinor: number; reference: string },
): { posting: Posting; taken: Posting } {
  const taken = orderRefunded(s, released, {
    amountMinor: dispute.amountMinor,
    reference: dispute.reference,
  });
  const held = taken.entries.filter(isPlatformShare).reduce((sum, e) => sum + e.amountMinor, 0);
  const entries = taken.entries.filter((e) => !isPlatformShare(e));
  if (held !== 0)
    entries.push({ account: "disputes_held", ownerId: null, currency: s.currency, amountMinor: held });
  return { posting: { kind: "dispute", reference: dispute.reference, entries }, taken };
}

/** A lost dispute: the platform's part it held leaves the VAT owed and the platform's fees. */
export function disputeLost(
  s: Pick<SaleFacts, "currency" | "vatCountry">,
  taken: RefundedParts,
  reference: string,
): Posting | null {
  const platform = taken.feeMinor - taken.commissionMinor;
  const entries: EntryInput[] = [];
  if (taken.vatMinor !== 0) {
    if (!s.vatCountry) throw new RangeError(`dispute ${reference}: VAT without a country`);
    entries.push({
      account: vatAccount(s.vatCountry),
      ownerId: null,
      currency: s.currency,
      amountMinor: -taken.vatMinor,
    });
  }
  if (platform !== 0)
    entries.push({ account: "platform_fees", ownerId: null, currency: s.currency, amountMinor: -platform });
  if (entries.length === 0) return null;
  entries.push({
    account: "disputes_held",
    ownerId: null,
    currency: s.currency,
    amountMinor: taken.vatMinor + platform,
  });
  return { kind: "dispute_lost", reference, entries };
}

/**
 * A won dispute gives back exactly what its `dispute` posting took of each part (issue 32), to where
 * that money now belongs: the held balances while the sale is held, else the creator's available
 * balance and the commissions' claimable balances, or their earners' wallets when they were claimed
 * meanwhile. The bank returns the amount to the provider's balance.
 */
export function disputeWon(
  s: Pick<SaleFacts, "creatorId" | "referrerId" | "partnerId" | "currency" | "availableAt">,
  taken: RefundedParts,
  state: { released: boolean; claimed: ClaimedCommissions },
  reference: string,
): Posting {
  const { currency } = s;
  const { released, claimed } = state;
  const entries: EntryInput[] = [
    { account: "provider", ownerId: null, currency, amountMinor: -taken.amountMinor },
    {
      account: released ? "available" : "pending",
      ownerId: s.creatorId,
      currency,
      amountMinor: taken.netMinor,
    },
    // The VAT and the platform's fee it held come back from `disputes_held`, untouched meanwhile.
    {
      account: "disputes_held",
      ownerId: null,
      currency,
      amountMinor: taken.vatMinor + taken.feeMinor - taken.commissionMinor,
    },
  ];
  const earner = (claimedYet: boolean, pending: LedgerAccount, claimable: LedgerAccount) =>
    !released ? pending : claimedYet ? "available" : claimable;
  // Without a referrer (a partner) the parts hold no such commission, refundedParts reading it off
  // the earner's entries: an entry pushed anyway is 0, and the filter below drops it.
  // Stryker disable next-line ConditionalExpression: equivalent, see above
  if (s.referrerId)
    entries.push({
      account: earner(claimed.commission, "affiliate_pending", "affiliate_claimable"),
      ownerId: s.referrerId,
      currency,
      amountMinor: taken.commissionMinor,
    });
  // Stryker disable next-line ConditionalExpression: equivalent, as for the referrer above
  if (s.partnerId)
    entries.push({
      account: earner(claimed.partner, "partner_pending", "partner_claimable"),
      ownerId: s.partnerId,
      currency,
      amountMinor: taken.partnerCommissionMinor,
    });
  return {
    kind: "dispute_won",
    reference,
    entries: entries
      .filter((e) => e.amountMinor !== 0)
      // Held again until the sale's hold ends, as when it was paid.
      .map((e) => (e.account.endsWith("pending") ? { ...e, availableAt: s.availableAt } : e)),
  };
}

/**
 * The provider's fee for a dispute (issue 32): it leaves the provider's balance, and its bearer pays
 * it, the creator by default (from their available balance, or as a debt: `coverShortfall`), or the
 * platform. Given back (`dispute_fee_returned`) when the bank returns it.
 */
export function disputeFee(p: {
  disputeId: string;
  creatorId: string;
  currency: Currency;
  amountMinor: number;
  borneBy: "creator" | "platform";
  returned?: boolean;
}): Posting {
  if (!Number.isSafeInteger(p.amountMinor) || p.amountMinor <= 0)
    throw new RangeError(`disputeFee(${p.amountMinor})`);
  const sign = p.returned ? -1 : 1;
  const bearer: EntryInput =
    p.borneBy === "creator"
      ? {
          account: "available",
          ownerId: p.creatorId,
          currency: p.currency,
          amountMinor: -sign * p.amountMinor,
        }
      : { account: "platform_fees", ownerId: null, currency: p.currency, amountMinor: -sign * p.amountMinor };
  return {
    kind: p.returned ? "dispute_fee_returned" : "dispute_fee",
    reference: p.disputeId,
    entries: [
      bearer,
      { account: "provider", ownerId: null, currency: p.currency, amountMinor: sign * p.amountMinor },
    ],
  };
}
