import type { Currency, Locale } from "@salelink/contracts";

/** An amount for an e-mail, in the buyer's language, from a decimal string (no float). */
export function formatForMail(minor: number, currency: Currency, locale: Locale): string {
  const text = String(minor).padStart(3, "0");
  const decimal = `${text.slice(0, -2)}.${text.slice(-2)}` as `${number}`;
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(decimal);
}
