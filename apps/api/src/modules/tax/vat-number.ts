import { isIsoCountryCode } from "@salelink/contracts/iso-countries";
import { euVatCountries } from "@salelink/contracts/vat-countries";
import {
  austria,
  belgium,
  bulgaria,
  type Country,
  checkVAT,
  croatia,
  cyprus,
  czechRepublic,
  denmark,
  estonia,
  finland,
  france,
  germany,
  greece,
  hungary,
  ireland,
  italy,
  latvia,
  lithuania,
  luxembourg,
  malta,
  netherlands,
  norway,
  poland,
  portugal,
  romania,
  slovakiaRepublic,
  slovenia,
  spain,
  sweden,
  switzerland,
  unitedKingdom,
} from "jsvat";

/*
 * A VAT number's format and check digits, per country, with jsvat (no network). Whether the number
 * exists is VIES's to say (providers/vies). Greece writes its VAT numbers "EL…" while its country
 * code is GR: a buyer may type either, the answer gives both (`prefix` EL, `country` GR).
 */

/** The 27 member states and the non-EU countries of the platform jsvat knows (Iceland it does not). */
const checkedCountries: readonly Country[] = [
  austria,
  belgium,
  bulgaria,
  croatia,
  cyprus,
  czechRepublic,
  denmark,
  estonia,
  finland,
  france,
  germany,
  greece,
  hungary,
  ireland,
  italy,
  latvia,
  lithuania,
  luxembourg,
  malta,
  netherlands,
  poland,
  portugal,
  romania,
  slovakiaRepublic,
  slovenia,
  spain,
  sweden,
  unitedKingdom,
  norway,
  switzerland,
];

/** The prefix of a country's VAT numbers: its ISO code but for Greece. */
export function vatPrefixOf(country: string): string {
  return country === "GR" ? "EL" : country;
}

/** The ISO country of a VAT number's prefix (EL is Greece; CHE numbers start with CH). */
export function countryOfVatPrefix(prefix: string): string {
  return prefix === "EL" ? "GR" : prefix;
}

export interface VatNumberFormat {
  /** Format and check digits right for the country (not proof the number exists). */
  formatValid: boolean;
  /** The ISO country the number belongs to (GR for an EL number); null when no country is known. */
  country: string | null;
  /** The number as VIES and invoices write it: prefix and digits, nothing else ("EL094259216"). */
  normalised: string;
  /** The part after the two-letter prefix, as VIES takes it ("094259216"). */
  number: string;
}

/** The typed text without spaces, dots, hyphens or other punctuation, upper-cased. */
const clean = (input: string) => input.toUpperCase().replace(/[^A-Z0-9]/g, "");

/**
 * Checks a VAT number's format. `countryHint` (e.g. the billing country) is used when the number
 * has no two-letter prefix ("094259216" with GR gives EL094259216).
 */
export function checkVatNumberFormat(input: string, countryHint?: string | null): VatNumberFormat {
  let text = clean(input);
  if (!/^[A-Z]{2}/.test(text) && countryHint) text = vatPrefixOf(countryHint) + text;
  // The ISO code where the prefix should be: Greek numbers are EL.
  if (text.startsWith("GR")) text = `EL${text.slice(2)}`;
  const prefix = text.slice(0, 2);
  const prefixCountry = /^[A-Z]{2}$/.test(prefix) ? countryOfVatPrefix(prefix) : null;
  const result = checkVAT(text, checkedCountries);
  const normalised = result.value ?? text;
  const country =
    result.country?.isoCode.short ??
    (prefixCountry && isIsoCountryCode(prefixCountry) ? prefixCountry : null);
  return {
    formatValid: result.isValid,
    country,
    normalised,
    number: normalised.slice(2),
  };
}

/** Whether a VAT number of `country` can place a supply under the EU reverse charge. */
export function isEuVatNumberCountry(country: string | null): boolean {
  return country !== null && (euVatCountries as readonly string[]).includes(country);
}
