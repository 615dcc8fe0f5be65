import type { Currency } from "@salelink/contracts/business-rules";

/*
 * Money on screen. Amounts are integer minor units (as the API counts them); nothing here goes
 * through a binary fraction: typed amounts are read digit by digit, shown amounts are formatted from
 * a decimal string.
 */

/** Digits after the decimal point of a currency's minor unit (2 for EUR, USD and GBP). */
export function currencyDigits(currency: Currency | string): number {
  return (
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

/**
 * An amount typed by a person ("12", "4.5", "4,50", "1 000,00") in integer minor units; null when it
 * is not a plain non-negative decimal with at most the currency's number of decimals, or too large
 * to be exact. Spaces (also the no-break ones French uses) may only group thousands.
 */
export function parseAmount(input: string, currency: Currency | string): number | null {
  const digits = currencyDigits(currency);
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

/** Minor units as a plain decimal ("4.50"): for machine-read values and for `parseAmount`. */
export function minorToDecimal(minor: number, currency: Currency | string): string {
  const digits = currencyDigits(currency);
  if (digits === 0) return String(minor);
  const text = String(Math.abs(minor)).padStart(digits + 1, "0");
  return `${minor < 0 ? "-" : ""}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** Minor units as a form field shows them, with the page's decimal separator ("4,50" in French). */
export function minorToInput(minor: number, currency: Currency | string, locale: string): string {
  const decimal = minorToDecimal(minor, currency);
  const separator =
    new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? ".";
  return decimal.replace(".", separator);
}

/** An amount for people, in the page's language ("€4.50", "4,50 €"). */
export function formatMoney(minor: number, currency: Currency | string, locale: string): string {
  const digits = currencyDigits(currency);
  // Intl takes a decimal string exactly, so the amount never goes through a float.
  return new Intl.NumberFormat(locale, {
    style: "currency",
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(minorToDecimal(minor, currency) as `${number}`);
}
