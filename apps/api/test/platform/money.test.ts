import { formatMoney, minorToDecimal } from "@salelink/contracts/money";
import { describe, expect, it } from "vitest";

/** The one converter of minor units to text: e-mails, CSV, bank files and messages use it. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("amounts as text", () => {
  it("writes a plain decimal from the digits, the sign first", () => {
    expect([0, 5, 50, 100, 123456, 1_000_000_001].map((m) => minorToDecimal(m, "EUR"))).toEqual([
      "0.00",
      "0.05",
      "0.50",
      "1.00",
      "1234.56",
      "10000000.01",
    ]);
    // The old mail converter wrote -5 as "0-5"; the CSV one already had it right.
    expect(minorToDecimal(-5, "EUR")).toBe("-0.05");
    expect(minorToDecimal(-123456, "GBP")).toBe("-1234.56");
    expect(minorToDecimal(-7, "JPY")).toBe("-7");
    expect(minorToDecimal(7, 0)).toBe("7");
    expect(minorToDecimal(1005, 3)).toBe("1.005");
    expect(minorToDecimal(Number.MAX_SAFE_INTEGER, 2)).toBe("90071992547409.91");
  });

  it("refuses what is not an integer amount", () => {
    for (const bad of [0.1, -1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
      expect(() => minorToDecimal(bad, "EUR"), String(bad)).toThrow(RangeError);
  });

  it("formats an amount in the reader's language, exactly", () => {
    expect(formatMoney(1250, "EUR", "en")).toBe("€12.50");
    expect(plain(formatMoney(1250, "EUR", "fr"))).toBe("12,50 €");
    expect(plain(formatMoney(123456, "EUR", "es"))).toBe("1234,56 €");
    expect(formatMoney(-5, "EUR", "en")).toBe("-€0.05");
    expect(plain(formatMoney(-5, "EUR", "fr"))).toBe("-0,05 €");
    expect(formatMoney(100, "USD", "en")).toBe("$1.00");
    // A float would print 9007199254740991 / 100 as 90,071,992,547,409.9 or worse.
    expect(formatMoney(Number.MAX_SAFE_INTEGER, "EUR", "en")).toBe("€90,071,992,547,409.91");
  });
});
