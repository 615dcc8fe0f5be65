import { euVatCountries, type nonEuVatCountries } from "@salelink/contracts/vat-countries";
import { describe, expect, it, vi } from "vitest";
import { dayIn, vatRateOn } from "../../src/modules/tax/rates.ts";

/*
 * Pins what the mutation run (`npm run mutation`) found unpinned in rates.ts: every standard rate,
 * each error's message, the calendar-day check's anchors, and the formatter cache.
 */

// The standard rate of each member state on 2026-01-01, written here apart from vat-rates.ts and
// checked against a published table of the 2026 rates (the last changes: FI 25.5 % from 2024-09-01,
// SK 23 % from 2025-01-01, EE 24 % from 2025-07-01, RO 21 % from 2025-08-01). A change of rate is one
// more entry in vat-rates.ts and a new value here.
const euStandardRates2026: Record<(typeof euVatCountries)[number], number> = {
  AT: 2000,
  BE: 2100,
  BG: 2000,
  HR: 2500,
  CY: 1900,
  CZ: 2100,
  DK: 2500,
  EE: 2400,
  FI: 2550,
  FR: 2000,
  DE: 1900,
  GR: 2400,
  HU: 2700,
  IE: 2300,
  IT: 2200,
  LV: 2100,
  LT: 2100,
  LU: 1700,
  MT: 1800,
  NL: 2100,
  PL: 2300,
  PT: 2300,
  RO: 2100,
  SK: 2300,
  SI: 2200,
  ES: 2100,
  SE: 2500,
};

const nonEuStandardRates2026: Record<(typeof nonEuVatCountries)[number], number> = {
  GB: 2000,
  NO: 2500,
  CH: 810,
  IS: 2400,
};

describe("vatRateOn: every standard rate", () => {
  it("pins the 27 member states, no more, no fewer", () => {
    expect(Object.keys(euStandardRates2026).sort()).toEqual([...euVatCountries].sort());
  });

  it.each(Object.entries(euStandardRates2026))("%s: %i bps on 2026-01-01", (country, rate) => {
    expect(vatRateOn(country, "2026-01-01")).toBe(rate);
    // The same read from an instant: noon UTC is that day in every member state.
    expect(vatRateOn(country, new Date("2026-01-01T12:00:00Z"))).toBe(rate);
  });

  it.each(Object.entries(nonEuStandardRates2026))("%s: %i bps on 2026-01-01", (country, rate) => {
    expect(vatRateOn(country, "2026-01-01")).toBe(rate);
  });

  it("the states whose rate never changed since the table's start answer it from its first day", () => {
    for (const country of ["BG", "CZ", "GR", "LV", "LT", "PT", "SI"] as const)
      expect(vatRateOn(country, "2020-01-01"), country).toBe(euStandardRates2026[country]);
  });
});

describe("vatRateOn: what it refuses", () => {
  it("a calendar day must be the whole text, anchored at both ends", () => {
    expect(vatRateOn("FR", "2026-01-01")).toBe(2000);
    for (const day of ["x2026-01-01", "2026-01-01x", "2026-01-01T00:00:00Z", " 2026-01-01"])
      expect(() => vatRateOn("FR", day), day).toThrow(`not a calendar day (YYYY-MM-DD): ${day}`);
  });

  it("an invalid Date is refused by name, not left to Intl's own error", () => {
    expect(() => vatRateOn("FR", new Date("nope"))).toThrow(new RangeError("not a date"));
  });
});

describe("dayIn", () => {
  it("reads an instant as the day it is in the time zone", () => {
    // Chatham Islands, UTC+12:45 in the southern winter: already 1 July.
    expect(dayIn(new Date("2025-06-30T12:00:00Z"), "Pacific/Chatham")).toBe("2025-07-01");
    expect(dayIn(new Date("2025-06-30T12:00:00Z"), "America/Los_Angeles")).toBe("2025-06-30");
  });

  it("builds a time zone's formatter once: a rate is read on every sale", () => {
    // A zone the table does not use, read once so that its formatter exists whatever ran before.
    dayIn(new Date("2025-01-01T00:00:00Z"), "Pacific/Kiritimati");
    const built = vi.spyOn(Intl, "DateTimeFormat");
    try {
      expect(dayIn(new Date("2025-01-01T00:00:00Z"), "Pacific/Kiritimati")).toBe("2025-01-01");
      expect(built).not.toHaveBeenCalled();
    } finally {
      built.mockRestore();
    }
  });
});
