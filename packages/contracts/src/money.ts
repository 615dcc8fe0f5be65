import type { Currency } from "./business-rules.ts";

/*
 * Amounts as text, for the API (e-mails, CSV, bank files, messages) and the web alike. Amounts are
 * integer minor units; nothing here goes through a binary fraction: the decimal is built from the
 * digits, and Intl formats a decimal string exactly. No zod here: the web's buyer pages load this.
 */

/** Digits after the decimal point of a currency's minor unit (2 for EUR, 0 for JPY, 3 for KWD). */
export function currencyDigits(currency: Currency | string): number {
  let digits = digitsOf.get(currency);
  if (digits === undefined) {
    digits =
      new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ??
      2;
    digitsOf.set(currency, digits);
  }
  return digits;
}

// Intl's formatters are costly to build (a fifth of a statement PDF's time went to it): one per
// currency, and per language and currency, kept for the process. Few of either exist.
const digitsOf = new Map<string, number>();
const formatters = new Map<string, Intl.NumberFormat>();

/**
 * Minor units as a plain decimal ("4.50", "-0.05", "1234"): for machine-read values (CSV, bank
 * files, form fields). Takes the currency, or the number of decimals where a value is not tied to
 * one. Throws on anything but a safe integer, which is never an amount in minor units.
 */
export function minorToDecimal(minor: number, currencyOrDigits: Currency | string | number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not an amount in minor units: ${minor}`);
  const digits = typeof currencyOrDigits === "number" ? currencyOrDigits : currencyDigits(currencyOrDigits);
  const sign = minor < 0 ? "-" : "";
  const text = String(Math.abs(minor)).padStart(digits + 1, "0");
  if (digits === 0) return `${sign}${text}`;
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** An amount for people, in their language ("€4.50", "4,50 €", "-0,05 €"). */
export function formatMoney(minor: number, currency: Currency | string, locale: string): string {
  const digits = currencyDigits(currency);
  const key = `${locale}|${currency}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formatters.set(key, format);
  }
  return format.format(minorToDecimal(minor, digits) as `${number}`);
}
