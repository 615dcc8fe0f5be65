import { describe, expect, it } from "vitest";
import { formatMinor, minorToDecimalString, parseAmountToMinor } from "../features/promo-codes/money.ts";
import { endOfDayIso, isoToDateInput, promoStatus } from "../features/promo-codes/promo-status.ts";

describe("amounts typed in a form", () => {
  it("reads decimals as strings into integer minor units", () => {
    expect(parseAmountToMinor("5", "EUR")).toBe(500);
    expect(parseAmountToMinor("4.5", "EUR")).toBe(450);
    expect(parseAmountToMinor("4,50", "EUR")).toBe(450);
    expect(parseAmountToMinor(" 12.34 ", "USD")).toBe(1234);
    expect(parseAmountToMinor("1 000,00", "EUR")).toBe(100_000);
    expect(parseAmountToMinor("1\u202f000,05", "EUR")).toBe(100_005);
    expect(parseAmountToMinor("7.", "GBP")).toBe(700);
    // The classic float trap: 0.1 + 0.2, 1.15 × 100 = 114.99999999999999.
    expect(parseAmountToMinor("1.15", "EUR")).toBe(115);
    expect(parseAmountToMinor("0.29", "EUR")).toBe(29);
    expect(parseAmountToMinor("0", "EUR")).toBe(0);
  });

  it("refuses anything that is not a plain positive decimal", () => {
    for (const bad of ["", " ", "abc", "-5", "+5", "1.234", "1,2,3", "1e3", ".5", "5 €", "0x10", "1.2.3"]) {
      expect(parseAmountToMinor(bad, "EUR"), bad).toBeNull();
    }
    expect(parseAmountToMinor("99999999999999999999", "EUR")).toBeNull();
  });

  it("shows minor units back as the decimal a field holds", () => {
    expect(minorToDecimalString(450, "EUR")).toBe("4.50");
    expect(minorToDecimalString(5, "EUR")).toBe("0.05");
    expect(minorToDecimalString(100_000, "GBP")).toBe("1000.00");
    expect(parseAmountToMinor(minorToDecimalString(123_456, "USD"), "USD")).toBe(123_456);
  });

  it("formats amounts in the page's language", () => {
    const normalise = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");
    expect(formatMinor(450, "EUR", "en")).toBe("€4.50");
    expect(normalise(formatMinor(123_450, "EUR", "fr"))).toBe("1 234,50 €");
    expect(normalise(formatMinor(500, "USD", "es"))).toBe("5,00 US$");
    expect(formatMinor(1999, "GBP", "en")).toBe("£19.99");
  });
});

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
