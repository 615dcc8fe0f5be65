import { vatCountries } from "@salelink/contracts/vat-countries";
import { describe, expect, it } from "vitest";
import { vatRateOn } from "../../src/modules/tax/rates.ts";
import { VAT_RATES_START, vatRates } from "../../src/modules/tax/vat-rates.ts";

describe("the VAT rates table", () => {
  it("has every country the platform may tax, each from the table's start, changes ascending", () => {
    expect(Object.keys(vatRates).sort()).toEqual([...vatCountries].sort());
    for (const country of vatCountries) {
      const { changes, timeZone } = vatRates[country];
      expect(changes[0]?.from, country).toBe(VAT_RATES_START);
      for (let i = 1; i < changes.length; i++)
        expect((changes[i]?.from ?? "") > (changes[i - 1]?.from ?? ""), country).toBe(true);
      for (const change of changes) {
        expect(Number.isInteger(change.rateBps) && change.rateBps > 0 && change.rateBps < 3000, country).toBe(
          true,
        );
      }
      // A time zone the runtime knows (an unknown one throws).
      expect(() => new Intl.DateTimeFormat("en", { timeZone }), country).not.toThrow();
    }
  });

  it("answers the known standard rates on 2026-01-01", () => {
    const known = {
      FR: 2000,
      DE: 1900,
      HU: 2700,
      LU: 1700,
      IE: 2300,
      AT: 2000,
      BE: 2100,
      DK: 2500,
      ES: 2100,
      IT: 2200,
      NL: 2100,
      PL: 2300,
      SE: 2500,
      HR: 2500,
      MT: 1800,
      CY: 1900,
      GB: 2000,
      NO: 2500,
      IS: 2400,
    };
    for (const [country, rate] of Object.entries(known))
      expect(vatRateOn(country, "2026-01-01"), country).toBe(rate);
  });

  it.each([
    ["EE", "2023-12-31", 2000, "2024-01-01", 2200],
    ["EE", "2025-06-30", 2200, "2025-07-01", 2400],
    ["FI", "2024-08-31", 2400, "2024-09-01", 2550],
    ["SK", "2024-12-31", 2000, "2025-01-01", 2300],
    ["RO", "2025-07-31", 1900, "2025-08-01", 2100],
    ["LU", "2023-12-31", 1600, "2024-01-01", 1700],
    ["LU", "2022-12-31", 1700, "2023-01-01", 1600],
    ["CH", "2023-12-31", 770, "2024-01-01", 810],
    ["DE", "2020-06-30", 1900, "2020-07-01", 1600],
    ["DE", "2020-12-31", 1600, "2021-01-01", 1900],
    ["IE", "2020-08-31", 2300, "2020-09-01", 2100],
    ["IE", "2021-02-28", 2100, "2021-03-01", 2300],
  ])("%s: the day before %s and from %s", (country, before, beforeRate, from, fromRate) => {
    expect(vatRateOn(country, before)).toBe(beforeRate);
    expect(vatRateOn(country, from)).toBe(fromRate);
  });

  it("reads an instant as the day it is in the country, where the change took effect at midnight", () => {
    // 21:00 UTC on 30 June 2025 is already 1 July, midnight, in Tallinn (UTC+3 in summer).
    expect(vatRateOn("EE", new Date("2025-06-30T20:59:59Z"))).toBe(2200);
    expect(vatRateOn("EE", new Date("2025-06-30T21:00:00Z"))).toBe(2400);
    // 23:00 UTC on 31 December 2023 is midnight, 1 January 2024, in Zurich (UTC+1).
    expect(vatRateOn("CH", new Date("2023-12-31T22:59:59Z"))).toBe(770);
    expect(vatRateOn("CH", new Date("2023-12-31T23:00:00Z"))).toBe(810);
  });

  it("has no rate for a country the platform never taxes, nor before the table starts", () => {
    expect(vatRateOn("US", "2026-01-01")).toBeNull();
    expect(vatRateOn("fr", "2026-01-01")).toBeNull();
    expect(vatRateOn("FR", "2019-12-31")).toBeNull();
    expect(() => vatRateOn("FR", "2026-1-1")).toThrow(RangeError);
    expect(() => vatRateOn("FR", new Date("nope"))).toThrow(RangeError);
  });
});
