/*
 * The countries whose VAT the platform may charge (issue 22): the 27 member states of the EU, where
 * it is the deemed supplier of electronically supplied services and reports through the One-Stop
 * Shop, and four others where it may register (a setting). No zod here: the ledger's chart of
 * accounts (one VAT liability account per country) imports it.
 */

export const euVatCountries = [
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
] as const;

/** Outside the EU: taxed only where the platform is registered (VAT_REGISTERED_OUTSIDE_EU). */
export const nonEuVatCountries = ["GB", "NO", "CH", "IS"] as const;

export const vatCountries = [...euVatCountries, ...nonEuVatCountries] as const;
export type VatCountry = (typeof vatCountries)[number];
export type EuVatCountry = (typeof euVatCountries)[number];

export function isVatCountry(code: string): code is VatCountry {
  return (vatCountries as readonly string[]).includes(code);
}

export function isEuVatCountry(code: string): code is EuVatCountry {
  return (euVatCountries as readonly string[]).includes(code);
}
