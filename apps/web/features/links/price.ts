import type { Currency } from "@salelink/contracts";

/** Digits after the decimal point of a currency (2 for EUR, USD and GBP). */
export function currencyDigits(currency: Currency): number {
  return (
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

/**
 * A typed price ("12", "12.5", "1 234,50") in integer minor units, worked out on the digits as text
 * so that no binary fraction creeps in (12.3 * 100 is 1230.0000000000002). Null when it is not a
 * plain positive-or-zero amount with at most `digits` decimals.
 */
export function parsePrice(input: string, digits: number): number | null {
  // Spaces (also the no-break ones French uses) may group thousands; nothing else may.
  const text = input.replace(/[\s\u00a0\u202f]/g, "");
  const match = /^(\d+)(?:[.,](\d*))?$/.exec(text);
  if (!match) return null;
  const whole = match[1] ?? "";
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return null;
  const minor = Number(`${whole}${fraction.padEnd(digits, "0")}`);
  return Number.isSafeInteger(minor) ? minor : null;
}

/** Minor units back to the text of the price field, with the page's decimal separator. */
export function minorToInput(minor: number, digits: number, locale: string): string {
  const text = String(minor).padStart(digits + 1, "0");
  if (digits === 0) return text;
  const separator =
    new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? ".";
  return `${text.slice(0, -digits)}${separator}${text.slice(-digits)}`;
}

/** A price for display, in the page's language ("12,50 €", "€12.50"). */
export function formatPrice(minor: number, currency: Currency, locale: string): string {
  const digits = currencyDigits(currency);
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(minor / 10 ** digits);
}
