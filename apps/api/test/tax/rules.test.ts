import { vatDecisionSchema } from "@salelink/contracts";
import { describe, expect, it } from "vitest";
import { decideVat, type VatInput, VatRuleError } from "../../src/modules/tax/rules.ts";

const date = new Date("2026-01-01T12:00:00Z");
const sale = (input: Partial<VatInput>) =>
  decideVat({ billingCountry: "FR", cardCountry: "FR", registeredOutsideEu: [], date, ...input });

/** Each decision is one an order can store: the contract's evidence rules hold. */
function decided(input: Partial<VatInput>) {
  const result = sale(input);
  if ("needsConfirmation" in result) throw new Error(`asked: ${JSON.stringify(result)}`);
  expect(vatDecisionSchema.parse(result)).toEqual(result);
  return result;
}

describe("decideVat: the buyer's country", () => {
  it("two pieces that agree decide, at that country's standard rate", () => {
    expect(decided({ billingCountry: "FR", cardCountry: "FR" })).toEqual({
      scheme: "standard",
      country: "FR",
      rateBps: 2000,
      evidence: { billingCountry: "FR", cardCountry: "FR", decidedCountry: "FR", decision: "agree" },
    });
    expect(decided({ billingCountry: "DE", cardCountry: "DE" })).toMatchObject({
      country: "DE",
      rateBps: 1900,
    });
    expect(decided({ billingCountry: "HU", cardCountry: "HU" })).toMatchObject({
      country: "HU",
      rateBps: 2700,
    });
  });

  it("without a card country, the billing country alone decides", () => {
    expect(decided({ billingCountry: "IE", cardCountry: null })).toEqual({
      scheme: "standard",
      country: "IE",
      rateBps: 2300,
      evidence: { billingCountry: "IE", cardCountry: null, decidedCountry: "IE", decision: "billing-only" },
    });
    // A card country that is no country (the provider's data) counts as none.
    expect(decided({ billingCountry: "IE", cardCountry: "ZZ" }).evidence.decision).toBe("billing-only");
  });

  it("contradicting pieces ask the buyer, then take the country they confirm", () => {
    expect(sale({ billingCountry: "FR", cardCountry: "DE" })).toEqual({
      needsConfirmation: { billing: "FR", card: "DE" },
    });
    // A taxed country against an untaxed one contradicts too: VAT or none depends on the answer.
    expect(sale({ billingCountry: "US", cardCountry: "FR" })).toEqual({
      needsConfirmation: { billing: "US", card: "FR" },
    });
    expect(decided({ billingCountry: "FR", cardCountry: "DE", confirmedCountry: "DE" })).toEqual({
      scheme: "standard",
      country: "DE",
      rateBps: 1900,
      evidence: {
        billingCountry: "FR",
        cardCountry: "DE",
        decidedCountry: "DE",
        decision: "buyer-confirmed",
        confirmedBy: "buyer",
      },
    });
    expect(decided({ billingCountry: "US", cardCountry: "FR", confirmedCountry: "US" })).toMatchObject({
      scheme: "outside",
      country: "US",
      rateBps: 0,
      evidence: { decision: "buyer-confirmed", decidedCountry: "US" },
    });
  });

  it("refuses a confirmed country that was not one of the two", () => {
    const attempt = () => sale({ billingCountry: "FR", cardCountry: "DE", confirmedCountry: "LU" });
    expect(attempt).toThrow(VatRuleError);
    expect(attempt).toThrow(/neither the billing \(FR\) nor the card country \(DE\)/);
    expect(() => sale({ billingCountry: "FR", cardCountry: "FR", confirmedCountry: "DE" })).toThrow(
      VatRuleError,
    );
    // What agrees needs no confirmation; one that repeats it changes nothing.
    expect(
      decided({ billingCountry: "FR", cardCountry: "FR", confirmedCountry: "FR" }).evidence.decision,
    ).toBe("agree");
  });

  it("refuses a billing country that is no country", () => {
    expect(() => sale({ billingCountry: "fr" })).toThrow(VatRuleError);
    expect(() => sale({ billingCountry: "EU" })).toThrow(VatRuleError);
  });
});

describe("decideVat: outside the taxed countries", () => {
  it("a country outside the 27 and the registered ones pays no VAT, and the order says why", () => {
    expect(decided({ billingCountry: "US", cardCountry: "US" })).toEqual({
      scheme: "outside",
      country: "US",
      rateBps: 0,
      evidence: { billingCountry: "US", cardCountry: "US", decidedCountry: "US", decision: "agree" },
    });
  });

  it("two different untaxed countries ask nothing: no VAT either way, no country decided", () => {
    expect(decided({ billingCountry: "US", cardCountry: "CA" })).toEqual({
      scheme: "outside",
      country: null,
      rateBps: 0,
      evidence: { billingCountry: "US", cardCountry: "CA", decidedCountry: null, decision: "outside" },
    });
    // GB while the platform is not registered there is untaxed too.
    expect(decided({ billingCountry: "GB", cardCountry: "US" }).evidence.decision).toBe("outside");
    expect(sale({ billingCountry: "GB", cardCountry: "US", registeredOutsideEu: ["GB"] })).toEqual({
      needsConfirmation: { billing: "GB", card: "US" },
    });
  });

  it("GB, NO, CH and IS are taxed only where the platform is registered", () => {
    for (const [country, rate] of [
      ["GB", 2000],
      ["NO", 2500],
      ["CH", 810],
      ["IS", 2400],
    ] as const) {
      expect(decided({ billingCountry: country, cardCountry: country })).toMatchObject({
        scheme: "not-registered",
        country,
        rateBps: 0,
      });
      expect(
        decided({
          billingCountry: country,
          cardCountry: country,
          registeredOutsideEu: ["GB", "NO", "CH", "IS"],
        }),
      ).toMatchObject({ scheme: "standard", country, rateBps: rate });
    }
    expect(decided({ billingCountry: "NO", cardCountry: "NO", registeredOutsideEu: ["GB"] }).scheme).toBe(
      "not-registered",
    );
  });

  it("takes the rate in force on the sale's date", () => {
    const on = (iso: string) => decided({ billingCountry: "EE", cardCountry: "EE", date: new Date(iso) });
    expect(on("2025-06-30T12:00:00Z").rateBps).toBe(2200);
    expect(on("2025-07-01T12:00:00Z").rateBps).toBe(2400);
    expect(() => on("2019-06-01T12:00:00Z")).toThrow(VatRuleError);
  });
});

describe("decideVat: businesses", () => {
  it("a valid VAT number of a member state is a reverse charge: no VAT, its country, whatever the others say", () => {
    expect(
      decided({ billingCountry: "FR", cardCountry: "DE", vatNumber: { valid: true, country: "BE" } }),
    ).toEqual({
      scheme: "reverse-charge",
      country: "BE",
      rateBps: 0,
      evidence: { billingCountry: "FR", cardCountry: "DE", decidedCountry: "BE", decision: "vat-number" },
    });
    expect(decided({ vatNumber: { valid: true, country: "GR" } })).toMatchObject({
      scheme: "reverse-charge",
      country: "GR",
    });
  });

  it("an invalid number, or one from outside the EU, changes nothing", () => {
    expect(decided({ vatNumber: { valid: false, country: "DE" } })).toMatchObject({
      scheme: "standard",
      country: "FR",
    });
    expect(
      decided({ billingCountry: "GB", cardCountry: "GB", vatNumber: { valid: true, country: "GB" } }).scheme,
    ).toBe("not-registered");
    expect(
      sale({ billingCountry: "FR", cardCountry: "DE", vatNumber: { valid: false, country: "FR" } }),
    ).toEqual({
      needsConfirmation: { billing: "FR", card: "DE" },
    });
  });

  it("a business in the platform's own member state pays its VAT (a domestic sale)", () => {
    expect(decided({ vatNumber: { valid: true, country: "FR" }, platformCountry: "FR" })).toMatchObject({
      scheme: "standard",
      country: "FR",
      rateBps: 2000,
    });
    expect(decided({ vatNumber: { valid: true, country: "DE" }, platformCountry: "FR" }).scheme).toBe(
      "reverse-charge",
    );
  });
});
