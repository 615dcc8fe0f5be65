import type { Currency } from "@salelink/contracts";
import type { LedgerAccount } from "@salelink/contracts/ledger";
import { describe, expect, it } from "vitest";
import { debtRepayment, debtsIncurred, debtWrittenOff } from "../../src/modules/wallet/debt-postings.ts";
import type { Posting } from "../../src/modules/wallet/ledger.ts";
import {
  coverShortfall,
  orderRefunded,
  type SaleFacts,
  splitSale,
} from "../../src/modules/wallet/postings.ts";
import { balanced, creator, entry, partner, referrer, refused } from "./postings-support.ts";

/*
 * Pins of decision 042's rules (issue 32's mutation run): who bears what a refund cannot take back
 * (`coverShortfall`), the debts a posting adds, their repayment and their write-off.
 */

// 100.00: fee 10.00, of which the referrer's 2.00; the partner's 30 %; the creator's 60.00.
const sale = (overrides: Partial<SaleFacts> = {}): SaleFacts => ({
  orderId: "order-1",
  creatorId: creator,
  referrerId: referrer,
  partnerId: partner,
  currency: "EUR",
  split: splitSale(10000, 1000, 2000, 3000),
  availableAt: new Date("2026-01-08T00:00:00Z"),
  ...overrides,
});

/** Balances by `owner|account|currency`, 0 when absent; a platform account is never asked for. */
const balances =
  (table: Record<string, number>) =>
  (ownerId: string, account: LedgerAccount, currency: Currency): number => {
    expect(ownerId).not.toBeNull();
    return table[`${ownerId}|${account}|${currency}`] ?? 0;
  };

describe("coverShortfall", () => {
  const refund = orderRefunded(sale(), true);
  const covered = (table: Record<string, number>, claimed: { commission: boolean; partner: boolean }) => {
    const entries = coverShortfall(refund.entries, balances(table), claimed);
    balanced({ ...refund, entries });
    return entries;
  };

  it("takes a refund whole from balances that hold it", () => {
    expect(refund.entries).toStrictEqual([
      entry("provider", null, 10000),
      entry("platform_fees", null, -800),
      entry("available", creator, -6000),
      entry("affiliate_claimable", referrer, -200),
      entry("partner_claimable", partner, -3000),
    ]);
    const full = {
      [`${creator}|available|EUR`]: 6000,
      [`${referrer}|affiliate_claimable|EUR`]: 200,
      [`${partner}|partner_claimable|EUR`]: 3000,
    };
    expect(covered(full, { commission: false, partner: false })).toStrictEqual(refund.entries);
  });

  it("claws a claimed platform commission from the referrer's wallet; the unclaimed partner's stays on claimable", () => {
    const entries = covered(
      {
        [`${creator}|available|EUR`]: 10000,
        [`${referrer}|available|EUR`]: 50,
        // Another order's commission, still unclaimed: not this refund's.
        [`${referrer}|affiliate_claimable|EUR`]: 999,
        [`${partner}|partner_claimable|EUR`]: 1000,
        [`${partner}|available|EUR`]: 99999,
      },
      { commission: true, partner: false },
    );
    expect(entries).toStrictEqual([
      entry("provider", null, 10000),
      entry("platform_fees", null, -800),
      entry("available", creator, -6000),
      entry("available", referrer, -50),
      entry("partner_claimable", partner, -1000),
      entry("debt", referrer, -150),
      entry("debt", partner, -2000),
    ]);
  });

  it("claws a claimed partner commission from the partner's wallet; the unclaimed referrer's stays on claimable", () => {
    const entries = covered(
      {
        [`${referrer}|affiliate_claimable|EUR`]: 200,
        [`${referrer}|available|EUR`]: 99999,
        [`${partner}|available|EUR`]: 500,
        [`${partner}|partner_claimable|EUR`]: 5000,
      },
      { commission: false, partner: true },
    );
    expect(entries).toStrictEqual([
      entry("provider", null, 10000),
      entry("platform_fees", null, -800),
      entry("affiliate_claimable", referrer, -200),
      entry("available", partner, -500),
      entry("debt", creator, -6000),
      entry("debt", partner, -2500),
    ]);
  });

  it("checks an earner's two claimed commissions against their wallet once, together", () => {
    const both = orderRefunded(sale({ partnerId: referrer }), true);
    const entries = coverShortfall(
      both.entries,
      balances({ [`${creator}|available|EUR`]: 6000, [`${referrer}|available|EUR`]: 3000 }),
      { commission: true, partner: true },
    );
    expect(balanced({ ...both, entries }).entries).toStrictEqual([
      entry("provider", null, 10000),
      entry("platform_fees", null, -800),
      entry("available", creator, -6000),
      entry("available", referrer, -3000),
      entry("debt", referrer, -200),
    ]);
  });

  it("books one debt per owner and currency, however many of their balances fell short", () => {
    const both = orderRefunded(sale({ partnerId: referrer }), true);
    const entries = coverShortfall(both.entries, balances({ [`${creator}|available|EUR`]: 6000 }), {
      commission: false,
      partner: false,
    });
    expect(entries.filter((e) => e.account === "debt")).toStrictEqual([entry("debt", referrer, -3200)]);
    const twoCurrencies = coverShortfall(
      [
        entry("provider", null, 70),
        entry("available", creator, -70),
        entry("provider", null, 5, "USD"),
        entry("available", creator, -5, "USD"),
      ],
      balances({}),
      { commission: false, partner: false },
    );
    expect(twoCurrencies).toStrictEqual([
      entry("provider", null, 70),
      entry("provider", null, 5, "USD"),
      entry("debt", creator, -70),
      entry("debt", creator, -5, "USD"),
    ]);
  });

  it("passes credits unchanged, a claimed commission's included", () => {
    const credits = [
      entry("affiliate_claimable", referrer, 40),
      entry("available", creator, 60),
      entry("provider", null, -100),
    ];
    expect(coverShortfall(credits, balances({}), { commission: true, partner: true })).toStrictEqual(credits);
  });

  it("counts a negative balance as nothing held", () => {
    const entries = coverShortfall(
      [entry("provider", null, 70), entry("available", creator, -70)],
      balances({ [`${creator}|available|EUR`]: -5 }),
      {
        commission: false,
        partner: false,
      },
    );
    expect(entries).toStrictEqual([entry("provider", null, 70), entry("debt", creator, -70)]);
  });
});

describe("debtsIncurred", () => {
  it("lists the negative debt entries only", () => {
    const posting: Posting = {
      kind: "refund",
      reference: "r",
      entries: [
        entry("provider", null, 120),
        entry("available", creator, -13),
        entry("debt", creator, -100),
        entry("debt", referrer, 0),
        entry("debt", partner, -7, "USD"),
        entry("debt", referrer, 5),
      ],
    };
    expect(debtsIncurred(posting)).toStrictEqual([
      entry("debt", creator, -100),
      entry("debt", partner, -7, "USD"),
    ]);
    expect(
      debtsIncurred({ ...posting, entries: [entry("available", creator, -5), entry("provider", null, 5)] }),
    ).toStrictEqual([]);
  });
});

describe("debtRepayment", () => {
  const repay = (availableMinor: number, debtMinor: number) =>
    debtRepayment({ reference: "release-1", ownerId: creator, currency: "EUR", availableMinor, debtMinor });

  it("repays as much of the debt as the available balance holds", () => {
    expect(balanced(repay(500, -300) as Posting)).toStrictEqual({
      kind: "debt_repayment",
      reference: "release-1",
      entries: [entry("available", creator, -300), entry("debt", creator, 300)],
    });
    expect(repay(200, -300)?.entries).toStrictEqual([
      entry("available", creator, -200),
      entry("debt", creator, 200),
    ]);
    expect(repay(300, -300)?.entries).toStrictEqual([
      entry("available", creator, -300),
      entry("debt", creator, 300),
    ]);
  });

  it("is null with nothing available or nothing owed", () => {
    expect(repay(0, -300)).toBeNull();
    expect(repay(-50, -300)).toBeNull();
    expect(repay(500, 0)).toBeNull();
    expect(repay(500, 100)).toBeNull();
  });
});

describe("debtWrittenOff", () => {
  it("clears the debt against the platform's write-offs", () => {
    expect(
      balanced(debtWrittenOff({ writeOffId: "wo-1", ownerId: creator, currency: "USD", amountMinor: 1 })),
    ).toStrictEqual({
      kind: "debt_write_off",
      reference: "wo-1",
      entries: [entry("debt", creator, 1, "USD"), entry("debts_written_off", null, -1, "USD")],
    });
  });

  it("refuses an amount that is not a positive integer", () => {
    const off = (amountMinor: number) => () =>
      debtWrittenOff({ writeOffId: "wo-1", ownerId: creator, currency: "EUR", amountMinor });
    refused(off(0), "debtWrittenOff(0)");
    refused(off(-5), "debtWrittenOff(-5)");
    refused(off(1.5), "debtWrittenOff(1.5)");
    refused(off(2 ** 53), "debtWrittenOff(9007199254740992)");
  });
});
