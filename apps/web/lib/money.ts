import type { Currency } from "@salelink/contracts/business-rules";
import { currencyDigits, minorToDecimal } from "@salelink/contracts/money";

// One converter of minor units to text for the API and the web (decision 027).
export { currencyDigits, formatMoney, minorToDecimal } from "@salelink/contracts/money";

/*
 * Money on screen. Amounts are integer minor units (as the API counts them); nothing here goes
 * through a binary fraction: typed amounts are read digit by digit, shown amounts are formatted from
 * a decimal string.
 */

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

/** Minor units as a form field shows them, with the page's decimal separator ("4,50" in French). */
export function minorToInput(minor: number, currency: Currency | string, locale: string): string {
  const decimal = minorToDecimal(minor, currency);
  const separator =
    new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? ".";
  return decimal.replace(".", separator);
}
