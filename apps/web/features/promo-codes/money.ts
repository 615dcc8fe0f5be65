import type { Currency } from "@salelink/contracts";

/** Digits after the decimal point of a currency's minor unit (2 for EUR, USD and GBP). */
export function minorDigits(currency: Currency): number {
  return (
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

/**
 * An amount typed by a person ("12", "4.5", "4,50", "1 000,00") in integer minor units, by reading the
 * digits as a string so no float ever rounds; null when it is not a plain positive decimal with at
 * most the currency's number of decimals, or too large to be exact.
 */
export function parseAmountToMinor(input: string, currency: Currency): number | null {
  const digits = minorDigits(currency);
  // Spaces (incl. the narrow no-break space French uses) only group thousands.
  const text = input.trim().replace(/[\s\u00a0\u202f]/g, "");
  const match = /^(\d+)(?:[.,](\d*))?$/.exec(text);
  if (!match) return null;
  const whole = match[1] ?? "";
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return null;
  const minor = BigInt(whole) * 10n ** BigInt(digits) + BigInt(fraction.padEnd(digits, "0") || "0");
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(minor);
}

/** Minor units back to the plain decimal a form field shows ("4.50"), without a float. */
export function minorToDecimalString(minor: number, currency: Currency): string {
  const digits = minorDigits(currency);
  if (digits === 0) return String(minor);
  const text = String(Math.abs(minor)).padStart(digits + 1, "0");
  const sign = minor < 0 ? "-" : "";
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** An amount in minor units for people, in the page's language ("4,50 €", "€4.50"). */
export function formatMinor(minor: number, currency: Currency, locale: string): string {
  const digits = minorDigits(currency);
  // Intl takes a decimal string exactly, so the amount never goes through a float.
  const decimal = minorToDecimalString(minor, currency) as `${number}`;
  return new Intl.NumberFormat(locale, {
    style: "currency",
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(decimal);
}
