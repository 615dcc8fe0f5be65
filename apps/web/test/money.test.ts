import { describe, expect, it } from "vitest";
import { currencyDigits, formatMoney, minorToDecimal, minorToInput, parseAmount } from "../lib/money.ts";

describe("money in forms and on screen", () => {
  it("reads a typed price as integer minor units, without binary fractions", () => {
    expect(parseAmount("12", "EUR")).toBe(1200);
    expect(parseAmount("12.5", "EUR")).toBe(1250);
    expect(parseAmount("12,50", "EUR")).toBe(1250);
    expect(parseAmount("0.29", "EUR")).toBe(29);
    expect(parseAmount("1.13", "EUR")).toBe(113);
    expect(parseAmount("19.99", "EUR")).toBe(1999);
    expect(parseAmount("  4.35 ", "EUR")).toBe(435);
    expect(parseAmount("1 234,56", "EUR")).toBe(123456);
    expect(parseAmount("1\u202f234,56", "EUR")).toBe(123456);
    expect(parseAmount("12.", "EUR")).toBe(1200);
    expect(parseAmount("7", "JPY")).toBe(7);
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
      expect(parseAmount(bad, bad === "12.5" ? "JPY" : "EUR"), bad).toBeNull();
    }
    expect(parseAmount("99999999999999999999", "EUR")).toBeNull();
  });

  it("writes minor units back for the field, with the page's decimal separator", () => {
    expect(minorToInput(1250, "EUR", "en")).toBe("12.50");
    expect(minorToInput(1250, "EUR", "fr")).toBe("12,50");
    expect(minorToInput(5, "EUR", "es")).toBe("0,05");
    expect(minorToInput(7, "JPY", "en")).toBe("7");
    for (const minor of [1, 29, 113, 1999, 500000])
      expect(parseAmount(minorToInput(minor, "EUR", "fr"), "EUR")).toBe(minor);
  });

  it("formats prices in the page's language", () => {
    expect(currencyDigits("EUR")).toBe(2);
    expect(formatMoney(1250, "EUR", "en")).toBe("€12.50");
    expect(formatMoney(1250, "EUR", "fr")).toMatch(/^12,50\s€$/);
    expect(formatMoney(123456, "GBP", "en")).toBe("£1,234.56");
  });
});

describe("more amounts typed in a form", () => {
  it("reads decimals as strings into integer minor units", () => {
    expect(parseAmount("5", "EUR")).toBe(500);
    expect(parseAmount("4.5", "EUR")).toBe(450);
    expect(parseAmount("4,50", "EUR")).toBe(450);
    expect(parseAmount(" 12.34 ", "USD")).toBe(1234);
    expect(parseAmount("1 000,00", "EUR")).toBe(100_000);
    expect(parseAmount("1\u202f000,05", "EUR")).toBe(100_005);
    expect(parseAmount("7.", "GBP")).toBe(700);
    // The classic float trap: 0.1 + 0.2, 1.15 × 100 = 114.99999999999999.
    expect(parseAmount("1.15", "EUR")).toBe(115);
    expect(parseAmount("0.29", "EUR")).toBe(29);
    expect(parseAmount("0", "EUR")).toBe(0);
  });

  it("refuses anything that is not a plain positive decimal", () => {
    for (const bad of ["", " ", "abc", "-5", "+5", "1.234", "1,2,3", "1e3", ".5", "5 €", "0x10", "1.2.3"]) {
      expect(parseAmount(bad, "EUR"), bad).toBeNull();
    }
    expect(parseAmount("99999999999999999999", "EUR")).toBeNull();
  });

  it("shows minor units back as the decimal a field holds", () => {
    expect(minorToDecimal(450, "EUR")).toBe("4.50");
    expect(minorToDecimal(5, "EUR")).toBe("0.05");
    expect(minorToDecimal(100_000, "GBP")).toBe("1000.00");
    expect(parseAmount(minorToDecimal(123_456, "USD"), "USD")).toBe(123_456);
  });

  it("formats amounts in the page's language", () => {
    const normalise = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");
    expect(formatMoney(450, "EUR", "en")).toBe("€4.50");
    expect(normalise(formatMoney(123_450, "EUR", "fr"))).toBe("1 234,50 €");
    expect(normalise(formatMoney(500, "USD", "es"))).toBe("5,00 US$");
    expect(formatMoney(1999, "GBP", "en")).toBe("£19.99");
  });
});

describe("one converter of minor units to text (shared with the API)", () => {
  it("writes negative amounts with the sign before the digits", () => {
    expect(minorToDecimal(-5, "EUR")).toBe("-0.05");
    expect(minorToDecimal(-1250, "EUR")).toBe("-12.50");
    expect(minorToDecimal(-7, "JPY")).toBe("-7");
    expect(formatMoney(-5, "EUR", "en")).toBe("-€0.05");
  });

  it("follows the currency's number of decimals (0, 2 and 3)", () => {
    expect(currencyDigits("JPY")).toBe(0);
    expect(currencyDigits("KWD")).toBe(3);
    expect(minorToDecimal(0, "JPY")).toBe("0");
    expect(minorToDecimal(1234, "KWD")).toBe("1.234");
    expect(minorToDecimal(5, "KWD")).toBe("0.005");
    expect(formatMoney(1234, "JPY", "en")).toBe("¥1,234");
    expect(formatMoney(1234, "KWD", "en").replace(/\u00a0/g, " ")).toBe("KWD 1.234");
  });

  it("refuses what is not an amount in minor units", () => {
    expect(() => minorToDecimal(0.1, "EUR")).toThrow();
    expect(() => minorToDecimal(Number.NaN, "EUR")).toThrow();
  });
});
