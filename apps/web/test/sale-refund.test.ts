import type { DisputeView } from "@salelink/contracts/disputes";
import type { RefundView, SaleView } from "@salelink/contracts/refunds";
import { describe, expect, it } from "vitest";
import {
  refundAmountMinor,
  refundBlock,
  SALE_POLL_MS,
  saleMoney,
  salePollInterval,
} from "../features/sales/sale-state.ts";

const paidAt = "2026-11-01T10:00:00.000Z";
const until = "2026-12-01T10:00:00.000Z";
const before = Date.parse("2026-11-20T00:00:00.000Z");
const after = Date.parse("2026-12-02T00:00:00.000Z");

function refund(status: RefundView["status"], amountMinor = 500): RefundView {
  return {
    id: "00000000-0000-4000-8000-000000000001",
    amountMinor,
    currency: "EUR",
    reason: "Broken file",
    by: "creator",
    status,
    failure: status === "failed" ? "card closed" : null,
    createdAt: paidAt,
    settledAt: status === "asked" ? null : paidAt,
  };
}

/** A paid sale of 20.00 EUR, nothing refunded, refundable for 30 days. */
function sale(over: Partial<SaleView> = {}): SaleView {
  return {
    id: "00000000-0000-4000-8000-0000000000aa",
    linkId: "00000000-0000-4000-8000-0000000000bb",
    linkTitle: "Sunset pack",
    buyerEmail: "buyer@example.com",
    status: "paid",
    currency: "EUR",
    totalMinor: 2000,
    feeMinor: 200,
    partnerCommissionMinor: null,
    netMinor: 1800,
    vatMinor: 0,
    vatRateBps: null,
    vatCountry: null,
    payout: null,
    refundedMinor: 0,
    paidAt,
    availableAt: "2026-11-08T10:00:00.000Z",
    refundableMinor: 2000,
    refundableUntil: until,
    refundWindowDays: 30,
    disputedMinor: 0,
    disputes: [],
    refunds: [],
    ...over,
  };
}

/** A chargeback of the whole sale, as the API shows it while the bank waits for evidence. */
function dispute(over: Partial<DisputeView> = {}): DisputeView {
  return {
    id: "00000000-0000-4000-8000-0000000000dd",
    orderId: "00000000-0000-4000-8000-0000000000aa",
    status: "needs_response",
    reason: "product_not_received",
    amountMinor: 2000,
    currency: "EUR",
    feeMinor: 1500,
    feeBorneBy: "creator",
    held: { netMinor: 1800, vatMinor: 0, feeMinor: 200, partnerCommissionMinor: 0, commissionMinor: 0 },
    debtMinor: 1500,
    evidenceDueBy: until,
    evidence: null,
    evidenceSubmittedAt: null,
    evidenceFailure: null,
    creatorNote: null,
    noteOpen: true,
    createdAt: paidAt,
    closedAt: null,
    ...over,
  };
}

describe("why a sale cannot be refunded", () => {
  it("is nothing while something is left within the window", () => {
    expect(refundBlock(sale(), before)).toBeNull();
    expect(
      refundBlock(
        sale({ refundedMinor: 500, refundableMinor: 1500, refunds: [refund("succeeded")] }),
        before,
      ),
    ).toBeNull();
  });

  it("says a refund is under way while the provider has not confirmed it", () => {
    const asked = sale({ refundableMinor: 0, refunds: [refund("asked")] });
    expect(refundBlock(asked, before)).toEqual({ reason: "underWay" });
    // Even when the API still counted something refundable, one refund at a time.
    expect(refundBlock(sale({ refunds: [refund("asked")] }), before)).toEqual({ reason: "underWay" });
  });

  it("says the sale is fully refunded", () => {
    expect(
      refundBlock(sale({ status: "refunded", refundedMinor: 2000, refundableMinor: 0 }), before),
    ).toEqual({
      reason: "fullyRefunded",
    });
    expect(refundBlock(sale({ refundedMinor: 2000, refundableMinor: 0 }), before)).toEqual({
      reason: "fullyRefunded",
    });
  });

  it("gives the end of a window that is over, partly refunded or not", () => {
    expect(refundBlock(sale({ refundableMinor: 0 }), after)).toEqual({ reason: "windowOver", until });
    expect(
      refundBlock(sale({ refundedMinor: 500, refundableMinor: 0, refunds: [refund("succeeded")] }), after),
    ).toEqual({ reason: "windowOver", until });
  });

  it("tells a link without refunds (a window of 0 days) from a window that ended", () => {
    expect(refundBlock(sale({ refundableMinor: 0, refundableUntil: paidAt }), before)).toEqual({
      reason: "noWindow",
    });
  });

  it("says an unpaid sale cannot be refunded", () => {
    const pending = sale({ status: "pending", paidAt: null, refundableMinor: 0, refundableUntil: null });
    expect(refundBlock(pending, before)).toEqual({ reason: "notPaid" });
    expect(refundBlock({ ...pending, status: "failed" }, before)).toEqual({ reason: "notPaid" });
  });

  it("says an open chargeback keeps the refund closed until the bank decides (issue 32)", () => {
    for (const status of ["needs_response", "under_review"] as const)
      expect(refundBlock(sale({ refundableMinor: 0, disputes: [dispute({ status })] }), before)).toEqual({
        reason: "disputed",
      });
    // Decided, or only an inquiry: the window and what is left decide again.
    expect(refundBlock(sale({ refundableMinor: 0, disputes: [dispute({ status: "lost" })] }), after)).toEqual(
      { reason: "windowOver", until },
    );
    expect(refundBlock(sale({ disputes: [dispute({ status: "won" })] }), before)).toBeNull();
    expect(refundBlock(sale({ disputes: [dispute({ status: "inquiry" })] }), before)).toBeNull();
  });

  it("falls back to a plain reason when nothing else explains it", () => {
    expect(refundBlock(sale({ refundableMinor: 0 }), before)).toEqual({ reason: "unavailable" });
  });
});

describe("the refund's amount", () => {
  const eur = sale({ refundableMinor: 1500 });

  it("is all that is left for a full refund, whatever was typed", () => {
    expect(refundAmountMinor("full", "3", eur)).toBe(1500);
    expect(refundAmountMinor("full", "", eur)).toBe(1500);
  });

  it("reads the typed amount of a partial refund in minor units, with either separator", () => {
    expect(refundAmountMinor("partial", "7.5", eur)).toBe(750);
    expect(refundAmountMinor("partial", "7,50", eur)).toBe(750);
    expect(refundAmountMinor("partial", " 10 ", eur)).toBe(1000);
  });

  it("is not a number when the text is not an amount (the contract refuses it on its field)", () => {
    for (const text of ["", "abc", "-3", "1.234", "1e3"])
      expect(refundAmountMinor("partial", text, eur)).toBeNaN();
  });
});

describe("reading the sale again", () => {
  it("polls while a refund awaits the provider, and stops once it is settled", () => {
    expect(salePollInterval(sale({ refunds: [refund("succeeded"), refund("asked")] }))).toBe(SALE_POLL_MS);
    expect(salePollInterval(sale({ refunds: [refund("succeeded")] }))).toBe(false);
    expect(salePollInterval(sale({ refunds: [refund("failed")] }))).toBe(false);
    expect(salePollInterval(undefined)).toBe(false);
    expect(SALE_POLL_MS).toBeGreaterThanOrEqual(1000);
    expect(SALE_POLL_MS).toBeLessThanOrEqual(2000);
  });
});

describe("where a sale's money is (issue 23)", () => {
  const payout = {
    id: "00000000-0000-4000-8000-0000000000cc",
    status: "paid" as const,
    requestedAt: "2026-11-10T10:00:00.000Z",
    paidAt: "2026-11-11T10:00:00.000Z",
  };
  it("names the payout that carried it, first", () => {
    expect(saleMoney(sale({ payout }), before)).toEqual({ where: "payout", payout });
  });
  it("is held until the hold ends, then in the balance", () => {
    const held = sale({ availableAt: "2026-11-25T00:00:00.000Z" });
    expect(saleMoney(held, before)).toEqual({ where: "held", until: "2026-11-25T00:00:00.000Z" });
    expect(saleMoney(held, after)).toEqual({ where: "balance" });
  });
  it("is nowhere for a sale never paid or refunded", () => {
    expect(saleMoney(sale({ status: "pending", netMinor: null }), before)).toEqual({ where: "none" });
    expect(saleMoney(sale({ status: "refunded" }), after)).toEqual({ where: "none" });
  });
});
