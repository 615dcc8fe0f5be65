import { z } from "zod";

/** The 30 European country codes of spec section 9, in the spec's order. */
export const europeanCountries = [
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
  "IS",
  "IE",
  "IT",
  "LV",
  "LI",
  "LT",
  "LU",
  "MT",
  "NL",
  "NO",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
] as const;
export const europeanCountrySchema = z.enum(europeanCountries);
export type EuropeanCountry = z.infer<typeof europeanCountrySchema>;

/**
 * Where payouts can go (issue 23): the 30 countries' IBANs, Switzerland's IBANs (CHF or EUR), and
 * British and American bank accounts. Onboarding accepts these.
 */
export const payoutCountries = [...europeanCountries, "CH", "GB", "US"] as const;
export const payoutCountrySchema = z.enum(payoutCountries);
export type PayoutCountry = z.infer<typeof payoutCountrySchema>;
