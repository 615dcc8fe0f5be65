import { isVatCountry } from "@salelink/contracts/vat-countries";
import { vatRates } from "./vat-rates.ts";

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day ("2025-07-01") an instant falls on in `timeZone`. */
export function dayIn(instant: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    dayFormats.set(timeZone, format);
  }
  return format.format(instant);
}

/**
 * The standard VAT rate (basis points) of `country` on `on`: an instant, read as the day it is in
 * that country (a change takes effect at local midnight), or a calendar day "YYYY-MM-DD" taken as
 * is. Null for a country the platform never taxes, or a day before the table starts.
 */
export function vatRateOn(country: string, on: Date | string): number | null {
  if (!isVatCountry(country)) return null;
  const rates = vatRates[country];
  let day: string;
  if (typeof on === "string") {
    if (!ISO_DAY.test(on)) throw new RangeError(`not a calendar day (YYYY-MM-DD): ${on}`);
    day = on;
  } else {
    if (Number.isNaN(on.getTime())) throw new RangeError("not a date");
    day = dayIn(on, rates.timeZone);
  }
  let rate: number | null = null;
  // ISO days compare as text; the changes are ascending.
  for (const change of rates.changes) {
    if (change.from > day) break;
    rate = change.rateBps;
  }
  return rate;
}
