import { describe, expect, it } from "vitest";
import { decideVat, type VatInput, VatRuleError, vatSplit } from "../../src/modules/tax/rules.ts";

/*
 * Pins what the mutation run (`npm run mutation`) found unpinned in rules.ts: each VatRuleError's
 * name, code and message, the bounds of vatSplit, and a 0 % rate.
 */

const date = new Date("2026-01-01T12:00:00Z");
const sale = (input: Partial<VatInput>) =>
  decideVat({ billingCountry: "FR", cardCountry: "FR", registeredOutsideEu: [], date, ...input });

function thrownBy(attempt: () => unknown): unknown {
  try {
    attempt();
  } catch (err) {
    return err;
  }
  throw new Error("nothing was thrown");
}

function ruleError(attempt: () => unknown): VatRuleError {
  const err = thrownBy(attempt);
  expect(err).toBeInstanceOf(VatRuleError);
  return err as VatRuleError;
}

describe("decideVat: its errors say which rule and why", () => {
  it("a billing country that is no country", () => {
    const err = ruleError(() => sale({ billingCountry: "EU" }));
    expect(err.name).toBe("VatRuleError");
    expect(err.code).toBe("unknown-billing-country");
    expect(err.message).toBe("not a country code: EU");
  });

  it("a confirmed country that was not offered, with or without a card country", () => {
    const withCard = ruleError(() =>
      sale({ billingCountry: "FR", cardCountry: "DE", confirmedCountry: "LU" }),
    );
    expect(withCard.code).toBe("confirmed-country-not-offered");
    expect(withCard.message).toBe(
      "the confirmed country LU is neither the billing (FR) nor the card country (DE)",
    );
    // No card country (or one that is none): only the billing country was offered.
    for (const cardCountry of [null, "ZZ"]) {
      const without = ruleError(() => sale({ billingCountry: "FR", cardCountry, confirmedCountry: "DE" }));
      expect(without.code).toBe("confirmed-country-not-offered");
      expect(without.message).toBe(
        "the confirmed country DE is neither the billing (FR) nor the card country (none)",
      );
    }
  });

  it("a taxed country on a day before the rates table starts", () => {
    const err = ruleError(() =>
      sale({ billingCountry: "PT", cardCountry: "PT", date: new Date("2019-12-31T12:00:00Z") }),
    );
    expect(err.code).toBe("no-rate");
    expect(err.message).toBe("no VAT rate for PT on 2019-12-31T12:00:00.000Z");
  });
});

describe("decideVat: the rates it takes", () => {
  it("charges the standard rate of BG, CZ, GR, LV, LT, PT and SI to their consumers", () => {
    for (const [country, rate] of [
      ["BG", 2000],
      ["CZ", 2100],
      ["GR", 2400],
      ["LV", 2100],
      ["LT", 2100],
      ["PT", 2300],
      ["SI", 2200],
    ] as const) {
      expect(sale({ billingCountry: country, cardCountry: country }), country).toMatchObject({
        scheme: "standard",
        country,
        rateBps: rate,
      });
    }
  });

  it("never decides a negative rate, and a rate of 0 is a decision, not an error", () => {
    for (const input of [
      { billingCountry: "FR", cardCountry: "FR" },
      { billingCountry: "US", cardCountry: "US" },
      { billingCountry: "US", cardCountry: "CA" },
      { billingCountry: "GB", cardCountry: "GB" },
      { vatNumber: { valid: true, country: "DE" } },
    ]) {
      const decision = sale(input);
      if ("needsConfirmation" in decision) throw new Error(`asked: ${JSON.stringify(input)}`);
      expect(decision.rateBps, JSON.stringify(input)).toBeGreaterThanOrEqual(0);
    }
  });
});

describe("vatSplit: its bounds", () => {
  it("a rate of 0 gives no VAT either way", () => {
    expect(vatSplit(1999, 0, true)).toEqual({ grossMinor: 1999, netMinor: 1999, vatMinor: 0 });
    expect(vatSplit(1999, 0, false)).toEqual({ grossMinor: 1999, netMinor: 1999, vatMinor: 0 });
  });

  it("takes a rate up to 100 % included, and says what it refuses", () => {
    expect(vatSplit(100, 10_000, false)).toEqual({ grossMinor: 200, netMinor: 100, vatMinor: 100 });
    expect(vatSplit(200, 10_000, true)).toEqual({ grossMinor: 200, netMinor: 100, vatMinor: 100 });
    expect(() => vatSplit(100, 10_001, false)).toThrow(new RangeError("not a rate in basis points: 10001"));
    expect(() => vatSplit(100, -1, true)).toThrow(new RangeError("not a rate in basis points: -1"));
    expect(() => vatSplit(-1, 2000, true)).toThrow(new RangeError("not an amount in minor units: -1"));
  });

  it("exclusive: a gross of exactly the largest safe integer is still an amount, one more is not", () => {
    const max = Number.MAX_SAFE_INTEGER;
    expect(vatSplit(max, 0, false)).toEqual({ grossMinor: max, netMinor: max, vatMinor: 0 });
    expect(() => vatSplit(max, 1, false)).toThrow(new RangeError(`amount too large: ${max}`));
  });
});
