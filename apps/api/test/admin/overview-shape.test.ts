import { describe, expect, it } from "vitest";
import { overviewOf, overviewPeriod } from "../../src/modules/admin/overview/service.ts";

/* The overview's layout, without a database: the period's days, per-day figures and totals. */

const empty = { sales: [], fees: [], accounts: [], pending: [], openReports: [], awaiting: [] };

describe("overviewPeriod", () => {
  it("covers the last `days` UTC days, today included, from the first day's midnight", () => {
    const { since, today } = overviewPeriod(3, new Date("2026-03-10T23:59:00Z"));
    expect(since.toISOString()).toBe("2026-03-08T00:00:00.000Z");
    expect(new Date(today).toISOString()).toBe("2026-03-10T00:00:00.000Z");
  });

  it("is today alone for one day", () => {
    const { since, today } = overviewPeriod(1, new Date("2026-03-10T00:00:01Z"));
    expect(since.getTime()).toBe(today);
  });
});

describe("overviewOf", () => {
  const { since, today } = overviewPeriod(3, new Date("2026-03-10T12:00:00Z"));

  it("lists every day of the period, empty ones too, oldest first, with zero totals", () => {
    const out = overviewOf(3, since, today, empty);
    expect(out.days).toBe(3);
    expect(out.daily).toEqual([
      { date: "2026-03-08", sales: [], fees: [], newAccounts: 0 },
      { date: "2026-03-09", sales: [], fees: [], newAccounts: 0 },
      { date: "2026-03-10", sales: [], fees: [], newAccounts: 0 },
    ]);
    expect(out.totals).toEqual({
      sales: [],
      fees: [],
      newAccounts: 0,
      pendingPayouts: [],
      openReports: 0,
      identityAwaiting: 0,
    });
  });

  it("puts each figure on its day and totals sales and fees per currency (sums arrive as text)", () => {
    const out = overviewOf(3, since, today, {
      sales: [
        { day: "2026-03-08", currency: "EUR", count: 2, gross: "3000" },
        { day: "2026-03-10", currency: "EUR", count: 1, gross: "500" },
        { day: "2026-03-10", currency: "USD", count: 1, gross: "700" },
      ],
      fees: [
        { day: "2026-03-09", currency: "EUR", amount: "120" },
        // A refund's reversal on its own day lowers the fees.
        { day: "2026-03-10", currency: "EUR", amount: "-20" },
      ],
      accounts: [
        { day: "2026-03-08", n: 4 },
        { day: "2026-03-10", n: 1 },
      ],
      pending: [{ currency: "EUR", count: 2, amount: "9900" }],
      openReports: [{ n: 3 }],
      awaiting: [{ n: 5 }],
    });
    expect(out.daily[0]).toEqual({
      date: "2026-03-08",
      sales: [{ currency: "EUR", count: 2, gross: 3000 }],
      fees: [],
      newAccounts: 4,
    });
    expect(out.daily[1]?.fees).toEqual([{ currency: "EUR", amount: 120 }]);
    expect(out.daily[2]?.sales).toEqual([
      { currency: "EUR", count: 1, gross: 500 },
      { currency: "USD", count: 1, gross: 700 },
    ]);
    expect(out.totals).toEqual({
      sales: [
        { currency: "EUR", count: 3, gross: 3500 },
        { currency: "USD", count: 1, gross: 700 },
      ],
      fees: [{ currency: "EUR", amount: 100 }],
      newAccounts: 5,
      pendingPayouts: [{ currency: "EUR", count: 2, amount: 9900 }],
      openReports: 3,
      identityAwaiting: 5,
    });
  });

  it("drops a figure dated outside the period from the days but keeps it in the totals", () => {
    const out = overviewOf(3, since, today, {
      ...empty,
      accounts: [{ day: "2026-03-07", n: 2 }],
    });
    expect(out.daily.every((d) => d.newAccounts === 0)).toBe(true);
    expect(out.totals.newAccounts).toBe(2);
  });
});
