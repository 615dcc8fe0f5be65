import type { Currency } from "@salelink/contracts";
import type { Posting } from "./entries.ts";

/*
 * A payout's movements, pure like the rest of the money rules: requested (available to in transit),
 * paid (out to the bank), failed (back to available, once), returned by the bank after it was paid.
 */

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

/**
 * Returned by the bank after it was paid (issue 32): the money is back with the platform (its
 * transfer taken back from the connected account) and returns to available, once, repaying any debt.
 */
export function payoutReturned(p: PayoutFacts): Posting {
  return {
    kind: "payout_returned",
    reference: p.payoutId,
    entries: [
      { account: "provider", ownerId: null, currency: p.currency, amountMinor: -p.amountMinor },
      { account: "available", ownerId: p.userId, currency: p.currency, amountMinor: p.amountMinor },
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
