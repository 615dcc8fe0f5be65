import { describe, expect, it } from "vitest";
import type { EntryInput, Posting } from "../../src/modules/wallet/ledger.ts";
import {
  holdReleased,
  netEntries,
  orderPaid,
  orderRefunded,
  refundedParts,
  reverse,
  type SaleFacts,
  splitSale,
} from "../../src/modules/wallet/postings.ts";
import { availableAt, balanced, creator, entry, partner, referrer, refused } from "./postings-support.ts";

/*
 * Pins of a correction's rules (issue 32's mutation run): `reverse`'s rounding and refusals,
 * `netEntries`, `orderRefunded` and `refundedParts` for every account a sale moves.
 */

const as = { kind: "refund", reference: "order-1" } as const;

const sale = (overrides: Partial<SaleFacts> = {}): SaleFacts => ({
  orderId: "order-1",
  creatorId: creator,
  referrerId: referrer,
  partnerId: partner,
  currency: "EUR",
  split: splitSale(10000, 1000, 2000, 3000),
  availableAt,
  ...overrides,
});

describe("reverse", () => {
  const paid = orderPaid(sale());

  it("by default undoes the whole posting, dropping the hold dates", () => {
    expect(balanced(reverse(paid.entries, as))).toStrictEqual({
      kind: "refund",
      reference: "order-1",
      entries: [
        entry("provider", null, 10000),
        entry("pending", creator, -6000),
        entry("platform_fees", null, -800),
        entry("affiliate_pending", referrer, -200),
        entry("partner_pending", partner, -3000),
      ],
    });
    expect(reverse(paid.entries, as, { numerator: 7, denominator: 7 })).toStrictEqual(
      reverse(paid.entries, as),
    );
  });

  it("reverses nothing at 0/1", () => {
    expect(reverse(paid.entries, as, { numerator: 0, denominator: 1 })).toStrictEqual({ ...as, entries: [] });
  });

  it("gives the units rounding leaves over to the largest remainders, wherever they stand", () => {
    // A third of 10, -3, -3, -4: exact 3.33, -1, -1, -1.33; the floors 3, -1, -1, -2 fall one short,
    // and the last entry's remainder (2/3) beats the first's (1/3).
    const third = reverse(
      [
        entry("provider", null, -10),
        entry("pending", creator, 3),
        entry("platform_fees", null, 3),
        entry("affiliate_pending", referrer, 4),
      ],
      as,
      { numerator: 1, denominator: 3 },
    );
    expect(balanced(third).entries).toStrictEqual([
      entry("provider", null, 3),
      entry("pending", creator, -1),
      entry("platform_fees", null, -1),
      entry("affiliate_pending", referrer, -1),
    ]);
  });

  it("hands out several units in order, one each, and drops what rounds to 0", () => {
    // A third of 4, -1 × 4: the floors 1, -1 × 4 fall three short; the three first of the tied
    // remainders (2/3 each) get one, the provider's (1/3) none.
    const third = reverse(
      [
        entry("provider", null, -4),
        entry("pending", creator, 1),
        entry("platform_fees", null, 1),
        entry("affiliate_pending", referrer, 1),
        entry("partner_pending", partner, 1),
      ],
      as,
      { numerator: 1, denominator: 3 },
    );
    expect(balanced(third).entries).toStrictEqual([
      entry("provider", null, 1),
      entry("partner_pending", partner, -1),
    ]);
  });

  it("rounds each currency on its own", () => {
    const entries = [
      // EUR: as above, one unit short.
      entry("provider", null, -10),
      entry("pending", creator, 3),
      entry("platform_fees", null, 3),
      entry("affiliate_pending", referrer, 4),
      // USD: two units short, three tied remainders of 2/3.
      entry("provider", null, -3, "USD"),
      entry("pending", creator, 1, "USD"),
      entry("platform_fees", null, 1, "USD"),
      entry("affiliate_pending", referrer, 1, "USD"),
      // GBP: one unit short, three tied remainders of 1/3.
      entry("provider", null, -6, "GBP"),
      entry("pending", creator, 2, "GBP"),
      entry("platform_fees", null, 2, "GBP"),
      entry("affiliate_pending", referrer, 2, "GBP"),
    ];
    expect(balanced(reverse(entries, as, { numerator: 1, denominator: 3 })).entries).toStrictEqual([
      entry("provider", null, 3),
      entry("pending", creator, -1),
      entry("platform_fees", null, -1),
      entry("affiliate_pending", referrer, -1),
      entry("provider", null, 1, "USD"),
      entry("affiliate_pending", referrer, -1, "USD"),
      entry("provider", null, 2, "GBP"),
      entry("platform_fees", null, -1, "GBP"),
      entry("affiliate_pending", referrer, -1, "GBP"),
    ]);
  });

  it("refuses a part that is not a safe fraction between 0 and 1", () => {
    refused(() => reverse(paid.entries, as, { numerator: -1, denominator: 2 }), "reverse by -1/2");
    refused(() => reverse(paid.entries, as, { numerator: 3, denominator: 2 }), "reverse by 3/2");
    refused(() => reverse(paid.entries, as, { numerator: 0, denominator: 0 }), "reverse by 0/0");
    refused(() => reverse(paid.entries, as, { numerator: 0, denominator: -1 }), "reverse by 0/-1");
    refused(() => reverse(paid.entries, as, { numerator: 0.5, denominator: 1 }), "reverse by 0.5/1");
    refused(() => reverse(paid.entries, as, { numerator: 1, denominator: 1.5 }), "reverse by 1/1.5");
    refused(
      () => reverse(paid.entries, as, { numerator: 1, denominator: 2 ** 53 }),
      "reverse by 1/9007199254740992",
    );
  });
});

describe("netEntries", () => {
  it("sums per holder, account and currency in order of first appearance, dropping zeros and hold dates", () => {
    const one: Posting = {
      kind: "order_paid",
      reference: "a",
      entries: [
        { ...entry("pending", creator, 100), availableAt },
        { ...entry("pending", referrer, 50), availableAt },
        entry("pending", creator, 7, "USD"),
        entry("provider", null, -157),
      ],
    };
    const two: Posting = {
      kind: "hold_release",
      reference: "b",
      entries: [
        entry("pending", creator, -30),
        entry("available", creator, 30),
        entry("pending", referrer, -50),
      ],
    };
    expect(netEntries(one, two)).toStrictEqual([
      entry("pending", creator, 70),
      entry("pending", creator, 7, "USD"),
      entry("provider", null, -157),
      entry("available", creator, 30),
    ]);
    // The postings given are left as they were.
    expect(one.entries[0]).toStrictEqual({ ...entry("pending", creator, 100), availableAt });
    expect(netEntries()).toStrictEqual([]);
  });
});

describe("orderRefunded", () => {
  it("takes back the sale as it stands, under the order's reference or the refund's", () => {
    const s = sale();
    expect(balanced(orderRefunded(s, true))).toStrictEqual({
      kind: "refund",
      reference: "order-1",
      entries: [
        entry("provider", null, 10000),
        entry("platform_fees", null, -800),
        entry("available", creator, -6000),
        entry("affiliate_claimable", referrer, -200),
        entry("partner_claimable", partner, -3000),
      ],
    });
    const tenth = orderRefunded(s, false, { amountMinor: 1000, reference: "order-1:r1" });
    expect(balanced(tenth)).toStrictEqual({
      kind: "refund",
      reference: "order-1:r1",
      entries: [
        entry("provider", null, 1000),
        entry("pending", creator, -600),
        entry("platform_fees", null, -80),
        entry("affiliate_pending", referrer, -20),
        entry("partner_pending", partner, -300),
      ],
    });
    expect(netEntries(orderPaid(s), holdReleased(s), orderRefunded(s, true))).toStrictEqual([]);
  });

  it("refuses a negative amount rather than credit the sale again, and more than the gross", () => {
    refused(() => orderRefunded(sale(), false, { amountMinor: -100 }), "reverse by -100/10000");
    refused(() => orderRefunded(sale(), true, { amountMinor: 10001 }), "reverse by 10001/10000");
  });
});

describe("refundedParts", () => {
  const parts = {
    amountMinor: 0,
    vatMinor: 0,
    feeMinor: 0,
    commissionMinor: 0,
    partnerCommissionMinor: 0,
    netMinor: 0,
  };
  const of = (...entries: EntryInput[]) => refundedParts({ kind: "refund", reference: "r", entries });

  it("reads each account a sale's reversal moves", () => {
    const cases: [EntryInput, Partial<typeof parts>][] = [
      [entry("provider", null, 70), { amountMinor: 70 }],
      [entry("vat_FR", null, -70), { vatMinor: 70 }],
      [entry("vat_DE", null, -70), { vatMinor: 70 }],
      [entry("pending", creator, -70), { netMinor: 70 }],
      [entry("available", creator, -70), { netMinor: 70 }],
      [entry("platform_fees", null, -70), { feeMinor: 70 }],
      // The referrer's commission came out of the fee.
      [entry("affiliate_pending", referrer, -70), { commissionMinor: 70, feeMinor: 70 }],
      [entry("affiliate_claimable", referrer, -70), { commissionMinor: 70, feeMinor: 70 }],
      [entry("partner_pending", partner, -70), { partnerCommissionMinor: 70 }],
      [entry("partner_claimable", partner, -70), { partnerCommissionMinor: 70 }],
    ];
    for (const [e, expected] of cases) expect(of(e)).toStrictEqual({ ...parts, ...expected });
  });

  it("adds the parts up over a whole reversal", () => {
    expect(
      of(
        entry("provider", null, 1000),
        entry("vat_FR", null, -150),
        entry("available", creator, -500),
        entry("pending", creator, -100),
        entry("platform_fees", null, -80),
        entry("affiliate_claimable", referrer, -20),
        entry("affiliate_pending", referrer, -10),
        entry("partner_claimable", partner, -100),
        entry("partner_pending", partner, -40),
      ),
    ).toStrictEqual({
      amountMinor: 1000,
      vatMinor: 150,
      feeMinor: 110,
      commissionMinor: 30,
      partnerCommissionMinor: 140,
      netMinor: 600,
    });
  });

  it("refuses a posting that is no sale's reversal", () => {
    refused(() => of(entry("debt", creator, -70)), "a sale's reversal moves debt");
    refused(
      () => of(entry("provider", null, 70), entry("disputes_held", null, -70)),
      "a sale's reversal moves disputes_held",
    );
    refused(() => of(entry("in_transit", creator, -70)), "a sale's reversal moves in_transit");
  });
});
