import { describe, expect, it } from "vitest";
import { currencyDigits, formatPrice, minorToInput, parsePrice } from "../features/links/price.ts";

describe("link prices", () => {
  it("reads a typed price as integer minor units, without binary fractions", () => {
    expect(parsePrice("12", 2)).toBe(1200);
    expect(parsePrice("12.5", 2)).toBe(1250);
    expect(parsePrice("12,50", 2)).toBe(1250);
    expect(parsePrice("0.29", 2)).toBe(29);
    expect(parsePrice("1.13", 2)).toBe(113);
    expect(parsePrice("19.99", 2)).toBe(1999);
    expect(parsePrice("  4.35 ", 2)).toBe(435);
    expect(parsePrice("1 234,56", 2)).toBe(123456);
    expect(parsePrice("1\u202f234,56", 2)).toBe(123456);
    expect(parsePrice("12.", 2)).toBe(1200);
    expect(parsePrice("7", 0)).toBe(7);
  });

  it("refuses what is not a plain amount", () => {
    for (const bad of [
      "",
      "abc",
      "-5",
      "1e3",
      "12.345",
      "1,234.56",
      "1.2.3",
      "€12",
      ".5",
      "12.5",
      "Infinity",
    ]) {
      expect(parsePrice(bad, bad === "12.5" ? 0 : 2), bad).toBeNull();
    }
    expect(parsePrice("99999999999999999999", 2)).toBeNull();
  });

  it("writes minor units back for the field, with the page's decimal separator", () => {
    expect(minorToInput(1250, 2, "en")).toBe("12.50");
    expect(minorToInput(1250, 2, "fr")).toBe("12,50");
    expect(minorToInput(5, 2, "es")).toBe("0,05");
    expect(minorToInput(7, 0, "en")).toBe("7");
    for (const minor of [1, 29, 113, 1999, 500000])
      expect(parsePrice(minorToInput(minor, 2, "fr"), 2)).toBe(minor);
  });

  it("formats prices in the page's language", () => {
    expect(currencyDigits("EUR")).toBe(2);
    expect(formatPrice(1250, "EUR", "en")).toBe("€12.50");
    expect(formatPrice(1250, "EUR", "fr")).toMatch(/^12,50\s€$/);
    expect(formatPrice(123456, "GBP", "en")).toBe("£1,234.56");
  });
});
