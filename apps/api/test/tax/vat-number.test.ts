import {
  billingCountrySchema,
  countryName,
  countryOptions,
  isoCountryCodes,
  vatEvidenceSchema,
  vatNumberSchema,
} from "@salelink/contracts";
import { describe, expect, it } from "vitest";
import { checkVatNumberFormat } from "../../src/modules/tax/vat-number.ts";

describe("checkVatNumberFormat (jsvat)", () => {
  it("accepts well-formed numbers with right check digits, however typed", () => {
    expect(checkVatNumberFormat("fr 40 303.265.045")).toEqual({
      formatValid: true,
      country: "FR",
      normalised: "FR40303265045",
      number: "40303265045",
    });
    expect(checkVatNumberFormat("DE136695976")).toMatchObject({ formatValid: true, country: "DE" });
    expect(checkVatNumberFormat("BE0411905847")).toMatchObject({ formatValid: true, country: "BE" });
    expect(checkVatNumberFormat("ATU13585627")).toMatchObject({ formatValid: true, country: "AT" });
    expect(checkVatNumberFormat("IE6388047V")).toMatchObject({ formatValid: true, country: "IE" });
    expect(checkVatNumberFormat("GB980780684")).toMatchObject({ formatValid: true, country: "GB" });
    expect(checkVatNumberFormat("CHE-116.281.710 MWST")).toMatchObject({ formatValid: true, country: "CH" });
  });

  it("Greece: EL in the number, GR as the country, whichever the buyer typed", () => {
    const expected = { formatValid: true, country: "GR", normalised: "EL094259216", number: "094259216" };
    expect(checkVatNumberFormat("EL094259216")).toEqual(expected);
    expect(checkVatNumberFormat("GR 094259216")).toEqual(expected);
    expect(checkVatNumberFormat("094259216", "GR")).toEqual(expected);
  });

  it("takes the country from the hint when the number has no prefix", () => {
    expect(checkVatNumberFormat("40303265045", "FR")).toMatchObject({
      formatValid: true,
      normalised: "FR40303265045",
    });
    expect(checkVatNumberFormat("U13585627", "AT")).toMatchObject({ formatValid: true, country: "AT" });
    // A prefix typed wins over the hint.
    expect(checkVatNumberFormat("DE136695976", "FR")).toMatchObject({ formatValid: true, country: "DE" });
  });

  it("refuses wrong check digits, wrong lengths and unknown prefixes", () => {
    expect(checkVatNumberFormat("DE136695977")).toMatchObject({ formatValid: false, country: "DE" });
    expect(checkVatNumberFormat("FR40303265046")).toMatchObject({ formatValid: false, country: "FR" });
    expect(checkVatNumberFormat("DE123")).toMatchObject({ formatValid: false, country: "DE" });
    expect(checkVatNumberFormat("US123456789")).toMatchObject({ formatValid: false, country: "US" });
    expect(checkVatNumberFormat("XX123456789")).toMatchObject({ formatValid: false, country: null });
    // Russia is one of jsvat's countries, not one of ours.
    expect(checkVatNumberFormat("RU7707083893")).toMatchObject({ formatValid: false });
    expect(checkVatNumberFormat("123456789")).toMatchObject({ formatValid: false, country: null });
  });
});

describe("the VAT contracts", () => {
  it("vatNumberSchema trims, upper-cases, drops spaces, dots and hyphens, and bounds the length", () => {
    expect(vatNumberSchema.parse("  fr 40.303-265 045 ")).toBe("FR40303265045");
    expect(vatNumberSchema.safeParse("FR1").success).toBe(false);
    expect(vatNumberSchema.safeParse("FR12345678901234567").success).toBe(false);
    expect(vatNumberSchema.safeParse("FR4030/3265045").success).toBe(false);
    expect(vatNumberSchema.parse("CHE-116.281.710 MWST")).toBe("CHE116281710MWST");
  });

  it("billingCountrySchema takes every ISO country and XK, nothing else", () => {
    expect(isoCountryCodes).toHaveLength(250);
    expect(new Set(isoCountryCodes).size).toBe(250);
    for (const code of ["FR", "US", "JP", "XK", "AX", "GB"])
      expect(billingCountrySchema.parse(code)).toBe(code);
    for (const code of ["fr", "UK", "EU", "EL", "ZZ", "FRA", ""])
      expect(billingCountrySchema.safeParse(code).success).toBe(false);
  });

  it("names every country in English, French and Spanish from the runtime", () => {
    expect(countryName("DE", "en")).toBe("Germany");
    expect(countryName("DE", "fr")).toBe("Allemagne");
    expect(countryName("DE", "es")).toBe("Alemania");
    for (const locale of ["en", "fr", "es"]) {
      const options = countryOptions(locale);
      expect(options).toHaveLength(isoCountryCodes.length);
      // A name for each: a code the runtime does not know would be shown as the code itself.
      expect(options.filter((o) => o.name === o.code)).toEqual([]);
    }
  });

  it("the evidence schema refuses an evidence that does not say what was decided and why", () => {
    const ok = { billingCountry: "FR", cardCountry: "FR", decidedCountry: "FR", decision: "agree" } as const;
    expect(vatEvidenceSchema.safeParse(ok).success).toBe(true);
    const wrong = [
      { ...ok, cardCountry: "DE" },
      { ...ok, decidedCountry: null },
      { ...ok, confirmedBy: "buyer" },
      { ...ok, decision: "billing-only" },
      { ...ok, cardCountry: "DE", decidedCountry: "LU", decision: "buyer-confirmed", confirmedBy: "buyer" },
      { ...ok, cardCountry: "DE", decidedCountry: "DE", decision: "buyer-confirmed" },
      { ...ok, cardCountry: "US", decision: "outside" },
    ];
    for (const evidence of wrong)
      expect(vatEvidenceSchema.safeParse(evidence).success, JSON.stringify(evidence)).toBe(false);
    const confirmed = {
      ...ok,
      cardCountry: "DE",
      decidedCountry: "DE",
      decision: "buyer-confirmed",
      confirmedBy: "buyer",
    };
    expect(vatEvidenceSchema.safeParse(confirmed).success).toBe(true);
    expect(
      vatEvidenceSchema.safeParse({
        ...ok,
        cardCountry: "CA",
        billingCountry: "US",
        decidedCountry: null,
        decision: "outside",
      }).success,
    ).toBe(true);
  });
});
