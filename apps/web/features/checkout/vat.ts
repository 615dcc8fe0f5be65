import type { CheckoutVat } from "@salelink/contracts/checkout";
import { type IsoCountryCode, isIsoCountryCode } from "@salelink/contracts/iso-countries";

/*
 * The buyer's country and the VAT line at checkout (issue 22). Zod-free: the payment page's island
 * loads this.
 */

/**
 * The country to preselect from the browser's languages (`navigator.languages`): the region of the
 * first language, or of a later variant of that same language ("fr", "fr-FR" → FR). Another
 * language's region says nothing of where the buyer lives ("fr", "en-US" → none), nor does a
 * language without one, nor a region that is not a country ("es-419": Latin America).
 */
export function countryFromLanguages(languages: readonly string[]): IsoCountryCode | "" {
  let first: string | null = null;
  for (const tag of languages) {
    let parsed: Intl.Locale;
    try {
      parsed = new Intl.Locale(tag);
    } catch {
      continue;
    }
    first ??= parsed.language;
    if (parsed.language !== first) continue;
    const region = parsed.region?.toUpperCase();
    if (region && isIsoCountryCode(region)) return region;
  }
  return "";
}

/** A VAT rate in basis points as the page's language writes a percentage ("20%", "25,5 %"). */
export function formatRate(rateBps: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 }).format(
    rateBps / 10_000,
  );
}

/** The `checkout` namespace's translator, as far as the VAT line needs it. */
type Translate = (
  key: "vatIncludedLine" | "vatAddedLine" | "vatReverseCharge" | "vatOutside",
  values?: Record<string, string>,
) => string;

/**
 * The VAT line of the order summary, from the checkout's answer: its label and, when VAT is
 * charged, the amount ("Includes VAT (FR 20%)" €3.33, "VAT (HU 27%)" €5.40). No VAT is a label
 * alone: a business's reverse charge, or a country the platform does not tax.
 */
export function vatLine(
  vat: CheckoutVat,
  t: Translate,
  money: (minor: number) => string,
  locale: string,
): { label: string; amount: string | null } {
  if (vat.scheme === "reverse-charge") return { label: t("vatReverseCharge"), amount: null };
  if (vat.scheme !== "standard" || vat.country === null) return { label: t("vatOutside"), amount: null };
  const values = { country: vat.country, rate: formatRate(vat.rateBps, locale) };
  return {
    label: vat.pricesIncludeVat ? t("vatIncludedLine", values) : t("vatAddedLine", values),
    amount: money(vat.vatMinor),
  };
}
