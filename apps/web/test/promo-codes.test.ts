import { describe, expect, it } from "vitest";
import { endOfDayIso, isoToDateInput, promoStatus } from "../features/promo-codes/promo-status.ts";

describe("promo code status", () => {
  const now = Date.parse("2026-03-10T12:00:00Z");
  const base = { expiresAt: null, usageLimit: null, usedCount: 0 };

  it("is active without expiry or cap, or before both are reached", () => {
    expect(promoStatus(base, now)).toBe("active");
    expect(
      promoStatus({ ...base, expiresAt: "2026-03-10T12:00:01Z", usageLimit: 3, usedCount: 2 }, now),
    ).toBe("active");
  });

  it("is expired from its expiry instant on", () => {
    expect(promoStatus({ ...base, expiresAt: "2026-03-10T12:00:00Z" }, now)).toBe("expired");
    expect(promoStatus({ ...base, expiresAt: "2025-01-01T00:00:00Z" }, now)).toBe("expired");
  });

  it("is used up once its cap is reached, expiry winning when both apply", () => {
    expect(promoStatus({ ...base, usageLimit: 3, usedCount: 3 }, now)).toBe("exhausted");
    expect(promoStatus({ ...base, usageLimit: 3, usedCount: 4 }, now)).toBe("exhausted");
    expect(promoStatus({ expiresAt: "2026-01-01T00:00:00Z", usageLimit: 1, usedCount: 1 }, now)).toBe(
      "expired",
    );
  });
});

describe("expiry dates", () => {
  it("turns a date field into the end of that local day and back", () => {
    const iso = endOfDayIso("2026-07-14");
    expect(iso).not.toBeNull();
    const end = new Date(iso ?? "");
    expect([end.getFullYear(), end.getMonth(), end.getDate(), end.getHours(), end.getMinutes()]).toEqual([
      2026, 6, 14, 23, 59,
    ]);
    expect(isoToDateInput(iso ?? "")).toBe("2026-07-14");
  });

  it("refuses impossible or malformed dates", () => {
    expect(endOfDayIso("2026-02-31")).toBeNull();
    expect(endOfDayIso("2026-13-01")).toBeNull();
    expect(endOfDayIso("14/07/2026")).toBeNull();
    expect(endOfDayIso("")).toBeNull();
  });
});
