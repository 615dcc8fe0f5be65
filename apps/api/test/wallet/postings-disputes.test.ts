import { describe, expect, it } from "vitest";
import {
  disputeFee,
  disputeLost,
  disputeOpened,
  disputeWon,
} from "../../src/modules/wallet/dispute-postings.ts";
import type { EntryInput, Posting } from "../../src/modules/wallet/ledger.ts";
import {
  netEntries,
  orderPaid,
  type RefundedParts,
  refundedParts,
  type SaleFacts,
  splitSale,
} from "../../src/modules/wallet/postings.ts";
import { availableAt, balanced, creator, entry, partner, referrer, refused } from "./postings-support.ts";

/*
 * Pins of a chargeback's rules (issue 32's mutation run): what a dispute takes at once and what it
 * parks in `disputes_held`, what a won or lost dispute gives back or keeps, and the provider's fee.
 */

const held = (e: EntryInput): EntryInput => ({ ...e, availableAt });

// 20.00 with 3.33 of French VAT: fee 1.67 (the referrer's 0.33), the partner's 5.50, the creator's 9.50.
const sale = (overrides: Partial<SaleFacts> = {}): SaleFacts => ({
  orderId: "order-1",
  creatorId: creator,
  referrerId: referrer,
  partnerId: partner,
  currency: "EUR",
  split: splitSale(2000, 1000, 2000, 3300, 333),
  vatCountry: "FR",
  availableAt,
  ...overrides,
});

const none = {
  amountMinor: 0,
  vatMinor: 0,
  feeMinor: 0,
  commissionMinor: 0,
  partnerCommissionMinor: 0,
  netMinor: 0,
};
/** What the whole dispute of `sale()` took. */
const whole: RefundedParts = {
  amountMinor: 2000,
  vatMinor: 333,
  feeMinor: 167,
  commissionMinor: 33,
  partnerCommissionMinor: 550,
  netMinor: 950,
};

describe("disputeOpened", () => {
  it("takes the users' parts as a refund would, and parks the VAT and the platform's fee", () => {
    const { posting, taken } = disputeOpened(sale(), false, { amountMinor: 2000, reference: "dp_1" });
    expect(balanced(taken)).toStrictEqual({
      kind: "refund",
      reference: "dp_1",
      entries: [
        entry("provider", null, 2000),
        entry("pending", creator, -950),
        entry("vat_FR", null, -333),
        entry("platform_fees", null, -134),
        entry("affiliate_pending", referrer, -33),
        entry("partner_pending", partner, -550),
      ],
    });
    expect(refundedParts(taken)).toStrictEqual(whole);
    expect(balanced(posting)).toStrictEqual({
      kind: "dispute",
      reference: "dp_1",
      entries: [
        entry("provider", null, 2000),
        entry("pending", creator, -950),
        entry("affiliate_pending", referrer, -33),
        entry("partner_pending", partner, -550),
        entry("disputes_held", null, -467),
      ],
    });
  });

  it("after the hold, takes from available and claimable", () => {
    const { posting } = disputeOpened(sale(), true, { amountMinor: 1000, reference: "dp_2" });
    expect(balanced(posting).entries).toStrictEqual([
      entry("provider", null, 1000),
      entry("available", creator, -475),
      // The VAT's half (166.5) and the referrer's (16.5) tie for the unit rounding leaves over: the
      // VAT, first, gets it (166 taken), the referrer gives 17.
      entry("affiliate_claimable", referrer, -17),
      entry("partner_claimable", partner, -275),
      entry("disputes_held", null, -233),
    ]);
  });

  it("parks the VAT alone at a 0 % fee, the fee alone without VAT", () => {
    const untaxedFree = sale({
      referrerId: null,
      partnerId: null,
      split: splitSale(1200, 0, null, null, 200),
    });
    expect(
      disputeOpened(untaxedFree, false, { amountMinor: 1200, reference: "dp_3" }).posting.entries,
    ).toStrictEqual([
      entry("provider", null, 1200),
      entry("pending", creator, -1000),
      entry("disputes_held", null, -200),
    ]);
    const untaxed = sale({
      referrerId: null,
      partnerId: null,
      vatCountry: null,
      split: splitSale(1000, 1000, null),
    });
    expect(
      disputeOpened(untaxed, false, { amountMinor: 1000, reference: "dp_4" }).posting.entries,
    ).toStrictEqual([
      entry("provider", null, 1000),
      entry("pending", creator, -900),
      entry("disputes_held", null, -100),
    ]);
  });

  it("parks nothing when the platform's part rounds to 0", () => {
    const { posting } = disputeOpened(sale({ vatCountry: null, split: splitSale(1999, 1000, 2000) }), false, {
      amountMinor: 1,
      reference: "dp_5",
    });
    expect(balanced(posting).entries).toStrictEqual([
      entry("provider", null, 1),
      entry("pending", creator, -1),
    ]);
  });
});

describe("disputeWon", () => {
  const won = (released: boolean, claimed: { commission: boolean; partner: boolean }, s = sale()) =>
    balanced(disputeWon(s, whole, { released, claimed }, "dp_1"));

  it("while held, gives each part back to its held balance until the hold ends", () => {
    expect(won(false, { commission: true, partner: true })).toStrictEqual({
      kind: "dispute_won",
      reference: "dp_1",
      entries: [
        entry("provider", null, -2000),
        held(entry("pending", creator, 950)),
        entry("disputes_held", null, 467),
        held(entry("affiliate_pending", referrer, 33)),
        held(entry("partner_pending", partner, 550)),
      ],
    });
    const s = sale();
    const { posting } = disputeOpened(s, false, { amountMinor: 2000, reference: "dp_1" });
    // Opened and won while held: the sale stands as it was paid.
    expect(
      netEntries(orderPaid(s), posting, won(false, { commission: false, partner: false })),
    ).toStrictEqual(netEntries(orderPaid(s)));
  });

  it("after the hold, to available and the commissions' claimable balances", () => {
    expect(won(true, { commission: false, partner: false }).entries).toStrictEqual([
      entry("provider", null, -2000),
      entry("available", creator, 950),
      entry("disputes_held", null, 467),
      entry("affiliate_claimable", referrer, 33),
      entry("partner_claimable", partner, 550),
    ]);
  });

  it("to the earner's wallet for a commission claimed meanwhile, each on its own", () => {
    expect(won(true, { commission: true, partner: false }).entries).toStrictEqual([
      entry("provider", null, -2000),
      entry("available", creator, 950),
      entry("disputes_held", null, 467),
      entry("available", referrer, 33),
      entry("partner_claimable", partner, 550),
    ]);
    expect(won(true, { commission: false, partner: true }).entries).toStrictEqual([
      entry("provider", null, -2000),
      entry("available", creator, 950),
      entry("disputes_held", null, 467),
      entry("affiliate_claimable", referrer, 33),
      entry("available", partner, 550),
    ]);
  });

  it("moves no zero amount", () => {
    const one = { ...none, amountMinor: 1, netMinor: 1 };
    expect(
      balanced(
        disputeWon(sale(), one, { released: true, claimed: { commission: true, partner: true } }, "dp_5"),
      ).entries,
    ).toStrictEqual([entry("provider", null, -1), entry("available", creator, 1)]);
    const noFee = { ...none, amountMinor: 1200, vatMinor: 200, netMinor: 1000 };
    const alone = sale({ referrerId: null, partnerId: null });
    expect(
      balanced(
        disputeWon(alone, noFee, { released: false, claimed: { commission: false, partner: false } }, "dp_3"),
      ).entries,
    ).toStrictEqual([
      entry("provider", null, -1200),
      held(entry("pending", creator, 1000)),
      entry("disputes_held", null, 200),
    ]);
  });
});

describe("disputeLost", () => {
  it("moves the platform's part it held out of the VAT owed and the fees", () => {
    expect(balanced(disputeLost(sale(), whole, "dp_1") as Posting)).toStrictEqual({
      kind: "dispute_lost",
      reference: "dp_1",
      entries: [
        entry("vat_FR", null, -333),
        entry("platform_fees", null, -134),
        entry("disputes_held", null, 467),
      ],
    });
  });

  it("moves only what is not 0", () => {
    expect(
      disputeLost(
        { currency: "USD", vatCountry: null },
        { ...none, feeMinor: 100, commissionMinor: 20 },
        "dp_2",
      )?.entries,
    ).toStrictEqual([entry("platform_fees", null, -80, "USD"), entry("disputes_held", null, 80, "USD")]);
    // The referrer had the whole fee: only the VAT.
    expect(
      disputeLost(sale(), { ...none, vatMinor: 200, feeMinor: 30, commissionMinor: 30 }, "dp_3")?.entries,
    ).toStrictEqual([entry("vat_FR", null, -200), entry("disputes_held", null, 200)]);
  });

  it("is null when the platform held nothing", () => {
    expect(disputeLost({ currency: "EUR", vatCountry: null }, none, "dp_4")).toBeNull();
    expect(
      disputeLost(sale(), { ...none, feeMinor: 30, commissionMinor: 30, netMinor: 100 }, "dp_4"),
    ).toBeNull();
  });

  it("refuses VAT without a country", () => {
    refused(
      () => disputeLost({ currency: "EUR", vatCountry: null }, whole, "dp_9"),
      "dispute dp_9: VAT without a country",
    );
    refused(() => disputeLost({ currency: "EUR" }, whole, "dp_9"), "dispute dp_9: VAT without a country");
  });
});

describe("disputeFee", () => {
  const fee = { disputeId: "dp_1", creatorId: creator, currency: "EUR", amountMinor: 1500 } as const;

  it("takes the provider's fee from the creator's available balance", () => {
    expect(balanced(disputeFee({ ...fee, borneBy: "creator" }))).toStrictEqual({
      kind: "dispute_fee",
      reference: "dp_1",
      entries: [entry("available", creator, -1500), entry("provider", null, 1500)],
    });
    expect(disputeFee({ ...fee, borneBy: "creator", returned: false })).toStrictEqual(
      disputeFee({ ...fee, borneBy: "creator" }),
    );
  });

  it("or from the platform's fees", () => {
    expect(balanced(disputeFee({ ...fee, borneBy: "platform" }))).toStrictEqual({
      kind: "dispute_fee",
      reference: "dp_1",
      entries: [entry("platform_fees", null, -1500), entry("provider", null, 1500)],
    });
  });

  it("gives it back to its bearer when the bank returns it", () => {
    expect(balanced(disputeFee({ ...fee, borneBy: "creator", returned: true }))).toStrictEqual({
      kind: "dispute_fee_returned",
      reference: "dp_1",
      entries: [entry("available", creator, 1500), entry("provider", null, -1500)],
    });
    expect(balanced(disputeFee({ ...fee, borneBy: "platform", returned: true }))).toStrictEqual({
      kind: "dispute_fee_returned",
      reference: "dp_1",
      entries: [entry("platform_fees", null, 1500), entry("provider", null, -1500)],
    });
  });

  it("refuses an amount that is not a positive integer", () => {
    expect(disputeFee({ ...fee, amountMinor: 1, borneBy: "creator" }).entries).toStrictEqual([
      entry("available", creator, -1),
      entry("provider", null, 1),
    ]);
    refused(() => disputeFee({ ...fee, amountMinor: 0, borneBy: "creator" }), "disputeFee(0)");
    refused(() => disputeFee({ ...fee, amountMinor: -1, borneBy: "platform" }), "disputeFee(-1)");
    refused(() => disputeFee({ ...fee, amountMinor: 1.5, borneBy: "creator" }), "disputeFee(1.5)");
    refused(
      () => disputeFee({ ...fee, amountMinor: 2 ** 53, borneBy: "creator" }),
      "disputeFee(9007199254740992)",
    );
  });
});
