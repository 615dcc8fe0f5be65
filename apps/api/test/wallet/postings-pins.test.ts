import { describe, expect, it } from "vitest";
import {
  payoutFailed,
  payoutPaid,
  payoutRequested,
  payoutReturned,
} from "../../src/modules/wallet/payout-postings.ts";
import {
  commissionClaimed,
  holdReleased,
  orderPaid,
  type SaleFacts,
  type SaleSplit,
  shareOf,
  splitSale,
} from "../../src/modules/wallet/postings.ts";
import { availableAt, balanced, creator, partner, referrer, refused } from "./postings-support.ts";

/*
 * Pins of a sale's rules (issue 32's mutation run, docs/benchmarks.md): shares and splits to the unit,
 * every entry of a posting exact (account, owner, currency, amount, hold date), no zero entry, every
 * posting balanced. Refunds and reversals: postings-reverse.test.ts; debts: postings-debts.test.ts;
 * chargebacks: postings-disputes.test.ts.
 */

function sale(split: SaleSplit, overrides: Partial<SaleFacts> = {}): SaleFacts {
  return {
    orderId: "order-1",
    creatorId: creator,
    referrerId: referrer,
    partnerId: partner,
    currency: "EUR",
    split,
    availableAt,
    ...overrides,
  };
}

/** The posting, once checked balanced (two entries at least, none zero, each currency summing to 0). */

describe("shareOf", () => {
  it("rounds half up, in integers", () => {
    expect(shareOf(1999, 1000)).toBe(200);
    expect(shareOf(5, 1000)).toBe(1); // 0.5
    expect(shareOf(4, 1000)).toBe(0); // 0.4
    expect(shareOf(15, 1000)).toBe(2); // 1.5
    expect(shareOf(14, 1000)).toBe(1); // 1.4
    expect(shareOf(1234, 10000)).toBe(1234);
  });

  it("gives 0 of nothing and at 0 bps", () => {
    expect(shareOf(0, 1000)).toBe(0);
    expect(shareOf(1234, 0)).toBe(0);
  });

  it("refuses a negative or fractional amount or rate, and an unsafe amount", () => {
    refused(() => shareOf(-1, 1000), "shareOf(-1, 1000)");
    refused(() => shareOf(1000, -1), "shareOf(1000, -1)");
    refused(() => shareOf(1.5, 1000), "shareOf(1.5, 1000)");
    refused(() => shareOf(1000, 1.5), "shareOf(1000, 1.5)");
    refused(() => shareOf(2 ** 53, 1), "shareOf(9007199254740992, 1)");
  });
});

describe("splitSale", () => {
  it("takes the fee, the referrer's share of it, and leaves the creator the rest", () => {
    expect(splitSale(1999, 1000, 2000)).toStrictEqual({
      grossMinor: 1999,
      vatMinor: 0,
      feeMinor: 200,
      commissionMinor: 40,
      partnerCommissionMinor: 0,
      netMinor: 1799,
    });
    expect(splitSale(1999, 1000, null)).toStrictEqual({
      grossMinor: 1999,
      vatMinor: 0,
      feeMinor: 200,
      commissionMinor: 0,
      partnerCommissionMinor: 0,
      netMinor: 1799,
    });
  });

  it("sets the VAT apart before any share", () => {
    expect(splitSale(2000, 1000, 2000, 3300, 333)).toStrictEqual({
      grossMinor: 2000,
      vatMinor: 333,
      feeMinor: 167,
      commissionMinor: 33,
      partnerCommissionMinor: 550,
      netMinor: 950,
    });
    // All of it VAT: nothing for anyone else.
    expect(splitSale(100, 1000, 2000, 3300, 100)).toStrictEqual({
      grossMinor: 100,
      vatMinor: 100,
      feeMinor: 0,
      commissionMinor: 0,
      partnerCommissionMinor: 0,
      netMinor: 0,
    });
  });

  it("caps a partner's commission at the creator's part: the creator's net is never negative", () => {
    // Exactly the 90 % rate with the 10 % fee: the creator nets 0.
    expect(splitSale(10000, 1000, null, 9000)).toMatchObject({ partnerCommissionMinor: 9000, netMinor: 0 });
    // On 5 cents the fee rounds up to 1 and the 90 % (4.5) up to 5: capped at the 4 left.
    expect(splitSale(5, 1000, null, 9000)).toStrictEqual({
      grossMinor: 5,
      vatMinor: 0,
      feeMinor: 1,
      commissionMinor: 0,
      partnerCommissionMinor: 4,
      netMinor: 0,
    });
    expect(splitSale(1000, 1000, null, 0)).toMatchObject({ partnerCommissionMinor: 0, netMinor: 900 });
  });

  it("rounds a commission to 0, and takes nothing at a 0 % fee", () => {
    expect(splitSale(5, 1000, 2000)).toMatchObject({ feeMinor: 1, commissionMinor: 0, netMinor: 4 });
    expect(splitSale(1000, 0, 2000)).toMatchObject({ feeMinor: 0, commissionMinor: 0, netMinor: 1000 });
  });

  it("refuses a VAT that is negative, fractional or above the gross", () => {
    refused(() => splitSale(100, 1000, null, null, -1), "splitSale: VAT -1 of 100");
    refused(() => splitSale(100, 1000, null, null, 101), "splitSale: VAT 101 of 100");
    refused(() => splitSale(100, 1000, null, null, 1.5), "splitSale: VAT 1.5 of 100");
  });
});

describe("orderPaid", () => {
  it("holds the creator's net and both commissions, owes the VAT, keeps the platform's part of the fee", () => {
    const paid = orderPaid(sale(splitSale(2000, 1000, 2000, 3300, 333), { vatCountry: "FR" }));
    expect(balanced(paid)).toStrictEqual({
      kind: "order_paid",
      reference: "order-1",
      memo: { gross: 2000, fee: 167 },
      entries: [
        { account: "provider", ownerId: null, currency: "EUR", amountMinor: -2000 },
        { account: "pending", ownerId: creator, currency: "EUR", amountMinor: 950, availableAt },
        { account: "vat_FR", ownerId: null, currency: "EUR", amountMinor: 333 },
        { account: "platform_fees", ownerId: null, currency: "EUR", amountMinor: 134 },
        { account: "affiliate_pending", ownerId: referrer, currency: "EUR", amountMinor: 33, availableAt },
        { account: "partner_pending", ownerId: partner, currency: "EUR", amountMinor: 550, availableAt },
      ],
    });
  });

  it("posts no zero entry: a creator netting 0 at the 90 % partner rate", () => {
    const paid = orderPaid(sale(splitSale(10000, 1000, null, 9000), { referrerId: null }));
    expect(balanced(paid).entries).toStrictEqual([
      { account: "provider", ownerId: null, currency: "EUR", amountMinor: -10000 },
      { account: "platform_fees", ownerId: null, currency: "EUR", amountMinor: 1000 },
      { account: "partner_pending", ownerId: partner, currency: "EUR", amountMinor: 9000, availableAt },
    ]);
  });

  it("posts no zero entry: a 0 % fee, commissions that are 0", () => {
    // 0 % fee: no platform share and no commission, though a referrer brought the sale.
    expect(balanced(orderPaid(sale(splitSale(1000, 0, 2000), { partnerId: null }))).entries).toStrictEqual([
      { account: "provider", ownerId: null, currency: "EUR", amountMinor: -1000 },
      { account: "pending", ownerId: creator, currency: "EUR", amountMinor: 1000, availableAt },
    ]);
    // A referrer's 20 % of a 1-cent fee and a partner's 0 % are both 0.
    expect(balanced(orderPaid(sale(splitSale(5, 1000, 2000, 0)))).entries).toStrictEqual([
      { account: "provider", ownerId: null, currency: "EUR", amountMinor: -5 },
      { account: "pending", ownerId: creator, currency: "EUR", amountMinor: 4, availableAt },
      { account: "platform_fees", ownerId: null, currency: "EUR", amountMinor: 1 },
    ]);
  });

  it("posts no platform share when the referrer gets the whole fee", () => {
    const paid = orderPaid(sale(splitSale(1000, 1000, 10000), { partnerId: null }));
    expect(balanced(paid).entries).toStrictEqual([
      { account: "provider", ownerId: null, currency: "EUR", amountMinor: -1000 },
      { account: "pending", ownerId: creator, currency: "EUR", amountMinor: 900, availableAt },
      { account: "affiliate_pending", ownerId: referrer, currency: "EUR", amountMinor: 100, availableAt },
    ]);
  });

  it("needs a country for VAT only when there is VAT", () => {
    const taxed = sale(splitSale(1200, 1000, null, null, 200), { orderId: "order-9" });
    refused(() => orderPaid(taxed), "order order-9: VAT without a country");
    refused(() => orderPaid({ ...taxed, vatCountry: null }), "order order-9: VAT without a country");
    const untaxed = sale(splitSale(1000, 1000, null), { referrerId: null, partnerId: null });
    expect(balanced(orderPaid(untaxed)).entries).toStrictEqual([
      { account: "provider", ownerId: null, currency: "EUR", amountMinor: -1000 },
      { account: "pending", ownerId: creator, currency: "EUR", amountMinor: 900, availableAt },
      { account: "platform_fees", ownerId: null, currency: "EUR", amountMinor: 100 },
    ]);
  });
});

describe("holdReleased", () => {
  it("moves each held part to available or claimable, without a hold date", () => {
    const released = holdReleased(sale(splitSale(2000, 1000, 2000, 3300, 333), { vatCountry: "FR" }));
    expect(balanced(released)).toStrictEqual({
      kind: "hold_release",
      reference: "order-1",
      entries: [
        { account: "pending", ownerId: creator, currency: "EUR", amountMinor: -950 },
        { account: "available", ownerId: creator, currency: "EUR", amountMinor: 950 },
        { account: "affiliate_pending", ownerId: referrer, currency: "EUR", amountMinor: -33 },
        { account: "affiliate_claimable", ownerId: referrer, currency: "EUR", amountMinor: 33 },
        { account: "partner_pending", ownerId: partner, currency: "EUR", amountMinor: -550 },
        { account: "partner_claimable", ownerId: partner, currency: "EUR", amountMinor: 550 },
      ],
    });
  });

  it("moves no zero amount: a creator netting 0, commissions that are 0", () => {
    expect(balanced(holdReleased(sale(splitSale(10000, 1000, null, 9000)))).entries).toStrictEqual([
      { account: "partner_pending", ownerId: partner, currency: "EUR", amountMinor: -9000 },
      { account: "partner_claimable", ownerId: partner, currency: "EUR", amountMinor: 9000 },
    ]);
    expect(balanced(holdReleased(sale(splitSale(5, 1000, 2000, 0)))).entries).toStrictEqual([
      { account: "pending", ownerId: creator, currency: "EUR", amountMinor: -4 },
      { account: "available", ownerId: creator, currency: "EUR", amountMinor: 4 },
    ]);
    const alone = sale(splitSale(1999, 1000, null), { referrerId: null, partnerId: null });
    expect(balanced(holdReleased(alone)).entries).toStrictEqual([
      { account: "pending", ownerId: creator, currency: "EUR", amountMinor: -1799 },
      { account: "available", ownerId: creator, currency: "EUR", amountMinor: 1799 },
    ]);
  });
});

describe("commissionClaimed", () => {
  const claim = { claimId: "claim-1", userId: referrer, currency: "USD", amountMinor: 250 } as const;

  it("moves a referrer's claimable commissions into their wallet (the default kind)", () => {
    const expected = {
      kind: "claim",
      reference: "claim-1",
      entries: [
        { account: "affiliate_claimable", ownerId: referrer, currency: "USD", amountMinor: -250 },
        { account: "available", ownerId: referrer, currency: "USD", amountMinor: 250 },
      ],
    };
    expect(balanced(commissionClaimed(claim))).toStrictEqual(expected);
    expect(commissionClaimed({ ...claim, of: "affiliate" })).toStrictEqual(expected);
  });

  it("moves a partner's claimable commissions as a partner claim", () => {
    expect(balanced(commissionClaimed({ ...claim, userId: partner, of: "partner" }))).toStrictEqual({
      kind: "partner_claim",
      reference: "claim-1",
      entries: [
        { account: "partner_claimable", ownerId: partner, currency: "USD", amountMinor: -250 },
        { account: "available", ownerId: partner, currency: "USD", amountMinor: 250 },
      ],
    });
  });
});

describe("payouts", () => {
  const payout = { payoutId: "payout-1", userId: creator, currency: "GBP", amountMinor: 4200 } as const;

  it("requested: from available to in transit", () => {
    expect(balanced(payoutRequested(payout))).toStrictEqual({
      kind: "payout_requested",
      reference: "payout-1",
      entries: [
        { account: "available", ownerId: creator, currency: "GBP", amountMinor: -4200 },
        { account: "in_transit", ownerId: creator, currency: "GBP", amountMinor: 4200 },
      ],
    });
  });

  it("paid: from in transit out of the provider's balance", () => {
    expect(balanced(payoutPaid(payout))).toStrictEqual({
      kind: "payout_paid",
      reference: "payout-1",
      entries: [
        { account: "in_transit", ownerId: creator, currency: "GBP", amountMinor: -4200 },
        { account: "provider", ownerId: null, currency: "GBP", amountMinor: 4200 },
      ],
    });
  });

  it("failed: from in transit back to available", () => {
    expect(balanced(payoutFailed(payout))).toStrictEqual({
      kind: "payout_failed",
      reference: "payout-1",
      entries: [
        { account: "in_transit", ownerId: creator, currency: "GBP", amountMinor: -4200 },
        { account: "available", ownerId: creator, currency: "GBP", amountMinor: 4200 },
      ],
    });
  });

  it("returned after it was paid: from the provider back to available (issue 32)", () => {
    expect(balanced(payoutReturned(payout))).toStrictEqual({
      kind: "payout_returned",
      reference: "payout-1",
      entries: [
        { account: "provider", ownerId: null, currency: "GBP", amountMinor: -4200 },
        { account: "available", ownerId: creator, currency: "GBP", amountMinor: 4200 },
      ],
    });
  });
});
