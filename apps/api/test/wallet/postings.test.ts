import type { LedgerAccount } from "@salelink/contracts/ledger";
import { describe, expect, it } from "vitest";
import { assertBalanced, type EntryInput, type Posting } from "../../src/modules/wallet/ledger.ts";
import {
  coverShortfall,
  holdReleased,
  netEntries,
  orderPaid,
  orderRefunded,
  type RefundedParts,
  refundedParts,
  reverse,
  type SaleFacts,
  splitSale,
} from "../../src/modules/wallet/postings.ts";

/* The posting rules of a refund, without a database: reversal, rounding, and who bears a shortfall. */

const creator = "00000000-0000-4000-8000-00000000000c";
const referrer = "00000000-0000-4000-8000-00000000000r";
const as = { kind: "refund", reference: "order-1" } as const;

function sale(overrides: Partial<SaleFacts> = {}): SaleFacts {
  return {
    orderId: "order-1",
    creatorId: creator,
    referrerId: referrer,
    partnerId: null,
    currency: "EUR",
    split: splitSale(1999, 1000, 2000),
    availableAt: new Date("2026-01-08T00:00:00Z"),
    ...overrides,
  };
}

const sumOf = (entries: readonly EntryInput[]) => entries.reduce((s, e) => s + e.amountMinor, 0);
const amountOn = (p: Posting | EntryInput[], account: LedgerAccount) =>
  (Array.isArray(p) ? p : p.entries)
    .filter((e) => e.account === account)
    .reduce((s, e) => s + e.amountMinor, 0);

describe("reverse", () => {
  it("undoes a whole posting entry by entry, without its hold date", () => {
    const paid = orderPaid(sale());
    const back = reverse(paid.entries, as);
    expect(back).toEqual({
      kind: "refund",
      reference: "order-1",
      entries: paid.entries.map((e) => ({
        account: e.account,
        ownerId: e.ownerId,
        currency: e.currency,
        amountMinor: -e.amountMinor,
      })),
    });
    expect(netEntries(paid, back)).toEqual([]);
  });

  it("reverses a part proportionally, every currency still summing to zero", () => {
    const entries: EntryInput[] = [
      { account: "provider", ownerId: null, currency: "EUR", amountMinor: -1001 },
      { account: "pending", ownerId: creator, currency: "EUR", amountMinor: 667 },
      { account: "platform_fees", ownerId: null, currency: "EUR", amountMinor: 267 },
      { account: "affiliate_pending", ownerId: referrer, currency: "EUR", amountMinor: 67 },
      { account: "provider", ownerId: null, currency: "USD", amountMinor: -3 },
      { account: "pending", ownerId: creator, currency: "USD", amountMinor: 3 },
    ];
    for (const denominator of [2, 3, 7, 10, 1000]) {
      for (let numerator = 0; numerator <= denominator; numerator += Math.ceil(denominator / 7)) {
        const part = reverse(entries, as, { numerator, denominator });
        for (const currency of ["EUR", "USD"] as const) {
          expect(sumOf(part.entries.filter((e) => e.currency === currency))).toBe(0);
        }
        for (const e of entries) {
          const exact = (-e.amountMinor * numerator) / denominator;
          const got = part.entries.find((p) => p.account === e.account && p.currency === e.currency);
          expect(Math.abs((got?.amountMinor ?? 0) - exact)).toBeLessThan(1);
        }
        expect(part.entries.every((e) => e.amountMinor !== 0)).toBe(true);
        if (part.entries.length > 0) expect(() => assertBalanced(part)).not.toThrow();
      }
    }
  });

  it("gives the unit rounding leaves over to one entry only", () => {
    const part = reverse(
      [
        { account: "provider", ownerId: null, currency: "EUR", amountMinor: -1000 },
        { account: "pending", ownerId: creator, currency: "EUR", amountMinor: 333 },
        { account: "platform_fees", ownerId: null, currency: "EUR", amountMinor: 333 },
        { account: "affiliate_pending", ownerId: referrer, currency: "EUR", amountMinor: 334 },
      ],
      as,
      { numerator: 1, denominator: 2 },
    );
    // Exact: 500, -166.5, -166.5, -167; the floors fall one short, the first largest remainder gets it.
    expect(part.entries.map((e) => e.amountMinor)).toEqual([500, -166, -167, -167]);
  });

  it("refuses a part that is not a fraction between 0 and 1", () => {
    const entries = orderPaid(sale()).entries;
    expect(() => reverse(entries, as, { numerator: 3, denominator: 2 })).toThrow(RangeError);
    expect(() => reverse(entries, as, { numerator: 1, denominator: 0 })).toThrow(RangeError);
    expect(() => reverse(entries, as, { numerator: 0.5, denominator: 1 })).toThrow(RangeError);
  });
});

describe("orderRefunded", () => {
  it("while held, takes everything back from where the payment put it", () => {
    const s = sale();
    const refund = orderRefunded(s, false);
    expect(refund.kind).toBe("refund");
    expect(refund.reference).toBe(s.orderId);
    expect(amountOn(refund, "provider")).toBe(1999);
    expect(amountOn(refund, "pending")).toBe(-1799);
    expect(amountOn(refund, "platform_fees")).toBe(-160);
    expect(amountOn(refund, "affiliate_pending")).toBe(-40);
    expect(amountOn(refund, "available")).toBe(0);
    expect(netEntries(orderPaid(s), refund)).toEqual([]);
  });

  it("after the hold, takes it back from available and claimable", () => {
    const s = sale();
    const refund = orderRefunded(s, true);
    expect(refund.entries.map((e) => e.account).sort()).toEqual(
      ["affiliate_claimable", "available", "platform_fees", "provider"].sort(),
    );
    expect(amountOn(refund, "available")).toBe(-1799);
    expect(amountOn(refund, "affiliate_claimable")).toBe(-40);
    expect(netEntries(orderPaid(s), holdReleased(s), refund)).toEqual([]);
  });

  it("without a referrer, touches no affiliate account", () => {
    const refund = orderRefunded(sale({ referrerId: null, split: splitSale(1999, 1000, null) }), true);
    expect(refund.entries.some((e) => e.account.startsWith("affiliate"))).toBe(false);
    expect(amountOn(refund, "platform_fees")).toBe(-200);
  });
});

describe("a taxed sale (issue 22)", () => {
  it("sets the VAT apart, takes the fee and commissions on the rest, and owes the VAT to the country", () => {
    // €20.00 including 20 % VAT: 333 VAT, 1,667 net of it; the fee is 10 % of that.
    const split = splitSale(2000, 1000, 2000, 3300, 333);
    expect(split).toEqual({
      grossMinor: 2000,
      vatMinor: 333,
      feeMinor: 167,
      commissionMinor: 33,
      partnerCommissionMinor: 550,
      netMinor: 950,
    });
    const taxed = sale({ split, vatCountry: "FR", partnerId: "00000000-0000-4000-8000-0000000000p2" });
    const paid = orderPaid(taxed);
    expect(amountOn(paid, "vat_FR")).toBe(333);
    expect(amountOn(paid, "provider")).toBe(-2000);
    expect(assertBalanced(paid)).toBeUndefined();
    // Refunded in full, the VAT owed is taken back with the rest.
    expect(amountOn(orderRefunded(taxed, false), "vat_FR")).toBe(-333);
    expect(() => splitSale(100, 1000, null, null, 101)).toThrow(RangeError);
    expect(() => orderPaid({ ...taxed, vatCountry: null })).toThrow(RangeError);
  });
});

describe("partial refunds (issue 21)", () => {
  const partner = "00000000-0000-4000-8000-0000000000p1";
  /** The sale as it stands after `parts` were taken back, as saleFacts reads it off the order. */
  const less = (s: SaleFacts, p: RefundedParts): SaleFacts => ({
    ...s,
    split: {
      grossMinor: s.split.grossMinor - p.amountMinor,
      vatMinor: s.split.vatMinor - p.vatMinor,
      feeMinor: s.split.feeMinor - p.feeMinor,
      commissionMinor: s.split.commissionMinor - p.commissionMinor,
      partnerCommissionMinor: s.split.partnerCommissionMinor - p.partnerCommissionMinor,
      netMinor: s.split.netMinor - p.netMinor,
    },
  });

  it("takes back each part's share of the amount, the parts adding up to it", () => {
    const s = sale({ partnerId: partner, split: splitSale(2001, 1000, 2000, 3300) });
    const half = orderRefunded(s, false, { amountMinor: 1000, reference: "order-1:1000" });
    expect(half.reference).toBe("order-1:1000");
    const parts = refundedParts(half);
    expect(parts).toEqual({
      amountMinor: 1000,
      vatMinor: 0,
      feeMinor: 100,
      commissionMinor: 20,
      partnerCommissionMinor: 330,
      netMinor: 570,
    });
    expect(assertBalanced(half)).toBeUndefined();
  });

  it("on every amount, then the rest, gives back exactly the sale, held or released, taxed or not", () => {
    for (const [released, vatShare] of [
      [false, 0],
      [true, 0],
      [false, 1667],
      [true, 2126],
    ] as const) {
      for (const gross of [101, 1999, 3333]) {
        const vat = Math.round((gross * vatShare) / 10000);
        const s = sale({
          partnerId: partner,
          vatCountry: "HU",
          split: splitSale(gross, 1000, 2000, 3300, vat),
        });
        for (let first = 1; first < gross; first += gross > 1000 ? 37 : 1) {
          const one = orderRefunded(s, released, { amountMinor: first });
          const p = refundedParts(one);
          expect(p.amountMinor).toBe(first);
          expect(p.vatMinor + p.feeMinor + p.partnerCommissionMinor + p.netMinor).toBe(first);
          // Each part within one unit of its exact share.
          expect(Math.abs(p.netMinor - (s.split.netMinor * first) / gross)).toBeLessThan(1);
          const rest = orderRefunded(less(s, p), released, { amountMinor: gross - first });
          const sold = released ? netEntries(orderPaid(s), holdReleased(s)) : orderPaid(s).entries;
          expect(netEntries({ ...one, entries: sold }, one, rest)).toEqual([]);
        }
      }
    }
  });
});

describe("coverShortfall (decision 042: the owner of the money carries the debt)", () => {
  const refund = orderRefunded(sale(), true);
  const balances =
    (table: Record<string, number>) => (ownerId: string, account: LedgerAccount, currency: string) =>
      table[`${ownerId}|${account}|${currency}`] ?? 0;
  const none = { commission: false, partner: false };
  const debtOf = (entries: EntryInput[], owner: string) =>
    entries.filter((e) => e.account === "debt" && e.ownerId === owner).reduce((s, e) => s + e.amountMinor, 0);

  it("changes nothing when the balances cover the refund", () => {
    const covered = coverShortfall(
      refund.entries,
      balances({ [`${creator}|available|EUR`]: 5000, [`${referrer}|affiliate_claimable|EUR`]: 40 }),
      none,
    );
    expect(covered).toEqual(refund.entries);
  });

  it("takes what is left of a withdrawn balance; the rest is the creator's debt, never the platform's", () => {
    const covered = coverShortfall(
      refund.entries,
      balances({ [`${creator}|available|EUR`]: 300, [`${referrer}|affiliate_claimable|EUR`]: 40 }),
      none,
    );
    expect(amountOn(covered, "available")).toBe(-300);
    expect(debtOf(covered, creator)).toBe(-1499);
    // The platform gives back its own fee, nothing more.
    expect(amountOn(covered, "platform_fees")).toBe(-160);
    expect(sumOf(covered)).toBe(0);
  });

  it("with nothing left, the whole debit is the owner's debt", () => {
    const covered = coverShortfall(
      refund.entries,
      balances({ [`${referrer}|affiliate_claimable|EUR`]: 40 }),
      none,
    );
    expect(covered.some((e) => e.account === "available")).toBe(false);
    expect(debtOf(covered, creator)).toBe(-1799);
    expect(amountOn(covered, "platform_fees")).toBe(-160);
    expect(sumOf(covered)).toBe(0);
  });

  it("claws a claimed commission back from its referrer's wallet, never from their claimable balance nor the creator", () => {
    const covered = coverShortfall(
      refund.entries,
      balances({
        [`${creator}|available|EUR`]: 5000,
        [`${referrer}|affiliate_claimable|EUR`]: 1000,
        [`${referrer}|available|EUR`]: 15,
      }),
      { commission: true, partner: false },
    );
    expect(covered.some((e) => e.account === "affiliate_claimable")).toBe(false);
    expect(covered.filter((e) => e.ownerId === referrer && e.account === "available")).toEqual([
      { account: "available", ownerId: referrer, currency: "EUR", amountMinor: -15 },
    ]);
    expect(debtOf(covered, referrer)).toBe(-25);
    expect(covered.filter((e) => e.ownerId === creator && e.account === "available")).toEqual([
      { account: "available", ownerId: creator, currency: "EUR", amountMinor: -1799 },
    ]);
    expect(amountOn(covered, "platform_fees")).toBe(-160);
    expect(sumOf(covered)).toBe(0);
  });

  it("claws a claimed partner commission back from the partner, not the creator", () => {
    const partner = "00000000-0000-4000-8000-0000000000p9";
    const s = sale({ partnerId: partner, split: splitSale(10000, 1000, null, 9000) });
    const full = orderRefunded(s, true);
    const covered = coverShortfall(
      full.entries,
      balances({ [`${creator}|available|EUR`]: 10_000, [`${partner}|available|EUR`]: 1000 }),
      { commission: false, partner: true },
    );
    // The creator's net is 0 at a 90 % rate: the creator gives back nothing, the partner all of theirs.
    expect(covered.filter((e) => e.ownerId === creator)).toEqual([]);
    expect(covered.filter((e) => e.ownerId === partner && e.account === "available")).toEqual([
      { account: "available", ownerId: partner, currency: "EUR", amountMinor: -1000 },
    ]);
    expect(debtOf(covered, partner)).toBe(-8000);
    expect(amountOn(covered, "platform_fees")).toBe(-1000);
    expect(sumOf(covered)).toBe(0);
  });

  it("leaves credits and the platform's entries as they are; debts carry their owner", () => {
    const covered = coverShortfall(refund.entries, balances({}), none);
    expect(amountOn(covered, "provider")).toBe(1999);
    expect(covered.filter((e) => e.ownerId !== null && e.account !== "debt")).toEqual([]);
    expect(debtOf(covered, creator)).toBe(-1799);
    expect(debtOf(covered, referrer)).toBe(-40);
    expect(() => assertBalanced({ ...refund, entries: covered })).not.toThrow();
  });

  it("treats a negative balance as nothing held", () => {
    const covered = coverShortfall(refund.entries, balances({ [`${creator}|available|EUR`]: -5 }), none);
    expect(debtOf(covered, creator)).toBe(-1799);
  });
});
