import type { VatCountry } from "@salelink/contracts/vat-countries";

/*
 * The standard VAT rate of each country the platform may tax, the one that applies to
 * electronically supplied services, in basis points, with the day each took effect. Issue 22 taxes
 * every sale at it: the reduced rates several states allow for electronic publications (e-books,
 * e-press, Directive 2018/1713) are not modelled.
 *
 * Sources: the European Commission's table "VAT rates applied in the Member States of the European
 * Union" (DG TAXUD) and the national tax authorities' announcements of each change listed (Estonia,
 * Finland, Slovakia, Romania, Luxembourg, Germany, Ireland); HMRC (GB), Skatteetaten (NO), the
 * Swiss Federal Tax Administration (CH) and Skatturinn (IS). Compiled from what had been published
 * by mid-2025, then reviewed on 2026-11-26: the changes since (Belgium, Czechia, Germany, Ireland,
 * the Netherlands, Slovakia and Finland in 2026) are to reduced rates only, which this table does
 * not model; no standard rate listed here changed after Estonia's (2025-07-01) and Romania's
 * (2025-08-01), which are in.
 *
 * The first entry of each country is the rate in force on 2020-01-01 (the table's start: a date
 * before it has no answer). Only changes known for sure are listed after it, temporary ones
 * included (Germany's and Ireland's Covid reductions, Luxembourg's 2023). A new change is one more
 * entry here and one more test on both sides of its date (test/tax/rates.test.ts).
 *
 * `timeZone`: a change takes effect at midnight in the country, so a sale's day is read there
 * (mainland time for PT and ES).
 */

export interface VatRateChange {
  /** ISO date, the first day of this rate in the country's own time zone. */
  from: string;
  rateBps: number;
}

export interface CountryVatRates {
  timeZone: string;
  /** Ascending by `from`. */
  changes: readonly VatRateChange[];
}

const since2020 = (timeZone: string, rateBps: number): CountryVatRates => ({
  timeZone,
  changes: [{ from: "2020-01-01", rateBps }],
});

export const VAT_RATES_START = "2020-01-01";

export const vatRates: Readonly<Record<VatCountry, CountryVatRates>> = {
  AT: since2020("Europe/Vienna", 2000),
  BE: since2020("Europe/Brussels", 2100),
  BG: since2020("Europe/Sofia", 2000),
  HR: since2020("Europe/Zagreb", 2500),
  CY: since2020("Asia/Nicosia", 1900),
  CZ: since2020("Europe/Prague", 2100),
  DK: since2020("Europe/Copenhagen", 2500),
  EE: {
    timeZone: "Europe/Tallinn",
    changes: [
      { from: "2020-01-01", rateBps: 2000 },
      { from: "2024-01-01", rateBps: 2200 },
      { from: "2025-07-01", rateBps: 2400 },
    ],
  },
  FI: {
    timeZone: "Europe/Helsinki",
    changes: [
      { from: "2020-01-01", rateBps: 2400 },
      { from: "2024-09-01", rateBps: 2550 },
    ],
  },
  FR: since2020("Europe/Paris", 2000),
  DE: {
    timeZone: "Europe/Berlin",
    changes: [
      { from: "2020-01-01", rateBps: 1900 },
      // Second Corona Tax Assistance Act: 16% for the second half of 2020.
      { from: "2020-07-01", rateBps: 1600 },
      { from: "2021-01-01", rateBps: 1900 },
    ],
  },
  GR: since2020("Europe/Athens", 2400),
  HU: since2020("Europe/Budapest", 2700),
  IE: {
    timeZone: "Europe/Dublin",
    changes: [
      { from: "2020-01-01", rateBps: 2300 },
      // July Jobs Stimulus: 21% from September 2020 to February 2021.
      { from: "2020-09-01", rateBps: 2100 },
      { from: "2021-03-01", rateBps: 2300 },
    ],
  },
  IT: since2020("Europe/Rome", 2200),
  LV: since2020("Europe/Riga", 2100),
  LT: since2020("Europe/Vilnius", 2100),
  LU: {
    timeZone: "Europe/Luxembourg",
    changes: [
      { from: "2020-01-01", rateBps: 1700 },
      // A relief measure of the 2022 tripartite agreement: 16% for 2023 only.
      { from: "2023-01-01", rateBps: 1600 },
      { from: "2024-01-01", rateBps: 1700 },
    ],
  },
  MT: since2020("Europe/Malta", 1800),
  NL: since2020("Europe/Amsterdam", 2100),
  PL: since2020("Europe/Warsaw", 2300),
  PT: since2020("Europe/Lisbon", 2300),
  RO: {
    timeZone: "Europe/Bucharest",
    changes: [
      { from: "2020-01-01", rateBps: 1900 },
      { from: "2025-08-01", rateBps: 2100 },
    ],
  },
  SK: {
    timeZone: "Europe/Bratislava",
    changes: [
      { from: "2020-01-01", rateBps: 2000 },
      { from: "2025-01-01", rateBps: 2300 },
    ],
  },
  SI: since2020("Europe/Ljubljana", 2200),
  ES: since2020("Europe/Madrid", 2100),
  SE: since2020("Europe/Stockholm", 2500),
  GB: since2020("Europe/London", 2000),
  NO: since2020("Europe/Oslo", 2500),
  CH: {
    timeZone: "Europe/Zurich",
    changes: [
      { from: "2020-01-01", rateBps: 770 },
      { from: "2024-01-01", rateBps: 810 },
    ],
  },
  IS: since2020("Atlantic/Reykjavik", 2400),
};
