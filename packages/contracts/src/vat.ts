import { z } from "zod";
import { isoCountryCodes } from "./iso-countries.ts";
import { vatCountries } from "./vat-countries.ts";

/*
 * EU VAT on electronically supplied services (issue 22): the shapes the API decides, stores on an
 * order and shows, and the web reads. The rules themselves live in apps/api/src/modules/tax.
 */

/** A country whose VAT the platform may charge: the 27 member states and GB, NO, CH, IS. */
export const vatCountrySchema = z.enum(vatCountries);

/**
 * How a sale is taxed.
 * - `standard`: the VAT of the buyer's country, at its standard rate for e-services.
 * - `reverse-charge`: a business with a valid VAT number of an EU member state accounts for the
 *   VAT itself; none is charged and the invoice says so.
 * - `outside`: the buyer's country is not one the platform taxes (e.g. the US): no VAT.
 * - `not-registered`: GB, NO, CH or IS while the platform is not registered there (the setting
 *   VAT_REGISTERED_OUTSIDE_EU): no VAT.
 */
export const vatSchemes = ["standard", "reverse-charge", "outside", "not-registered"] as const;
export const vatSchemeSchema = z.enum(vatSchemes);
export type VatScheme = z.infer<typeof vatSchemeSchema>;

/** Any country a buyer may give (ISO 3166-1 alpha-2, upper case, and XK). */
export const billingCountrySchema = z.enum(isoCountryCodes);
export type BillingCountry = z.infer<typeof billingCountrySchema>;

/**
 * A VAT number as a buyer types it ("fr 40 303.265.045", "CHE-116.281.710 MWST"): trimmed,
 * upper-cased, without spaces, dots or hyphens, then letters and digits only, 4 to 16 of them. The
 * format (and checksum) per country is checked by the API, its existence through VIES.
 */
export const vatNumberSchema = z
  .string()
  .transform((s) =>
    s
      .trim()
      .toUpperCase()
      .replace(/[\s.-]/g, ""),
  )
  .pipe(
    z
      .string()
      .min(4, "A VAT number has at least 4 letters and digits.")
      .max(16, "A VAT number has at most 16 letters and digits.")
      .regex(/^[A-Z0-9]+$/, "A VAT number has only letters and digits."),
  );

/**
 * Why the buyer's country is the one decided (kept with the order as the evidence of Implementing
 * Regulation 282/2011, Article 24b):
 * - `agree`: the billing country and the card's issuing country are the same;
 * - `buyer-confirmed`: they contradicted and the buyer confirmed one of the two;
 * - `billing-only`: the payment provider reported no card country; the billing country alone;
 * - `outside`: they differ, but neither is a country the platform taxes, so no VAT either way and
 *   no question was asked (no country decided);
 * - `vat-number`: a business's valid VAT number of an EU member state places the supply there
 *   (reverse charge), whatever the two others say.
 */
export const VAT_EVIDENCE_REASONS = [
  "agree",
  "buyer-confirmed",
  "billing-only",
  "outside",
  "vat-number",
] as const;
export const vatEvidenceReasonSchema = z.enum(VAT_EVIDENCE_REASONS);
export type VatEvidenceReason = z.infer<typeof vatEvidenceReasonSchema>;

export const vatEvidenceSchema = z
  .object({
    billingCountry: billingCountrySchema,
    /** The card's issuing country as the payment provider reports it; null when it reports none. */
    cardCountry: billingCountrySchema.nullable(),
    /** The country whose rules apply; null only with `outside` (the two differ, neither taxed). */
    decidedCountry: billingCountrySchema.nullable(),
    decision: vatEvidenceReasonSchema,
    /** Set when the buyer chose between two contradicting countries. */
    confirmedBy: z.literal("buyer").optional(),
  })
  .superRefine((e, ctx) => {
    const wrong = (message: string) => ctx.addIssue({ code: "custom", path: ["decision"], message });
    if ((e.decision === "buyer-confirmed") !== (e.confirmedBy === "buyer"))
      wrong("confirmedBy is set exactly when the buyer confirmed the country");
    if (e.decision === "outside" ? e.decidedCountry !== null : e.decidedCountry === null)
      wrong("only an `outside` decision has no decided country");
    if (
      e.decision === "agree" &&
      (e.cardCountry !== e.billingCountry || e.decidedCountry !== e.billingCountry)
    )
      wrong("`agree` needs the billing and card countries equal to the decided one");
    if (e.decision === "billing-only" && (e.cardCountry !== null || e.decidedCountry !== e.billingCountry))
      wrong("`billing-only` needs no card country and the billing country decided");
    if (
      e.decision === "buyer-confirmed" &&
      (e.cardCountry === null ||
        e.cardCountry === e.billingCountry ||
        (e.decidedCountry !== e.billingCountry && e.decidedCountry !== e.cardCountry))
    )
      wrong("`buyer-confirmed` needs two different countries and one of them decided");
  });
export type VatEvidence = z.infer<typeof vatEvidenceSchema>;

/** What the tax rules decided for a sale: the scheme, the country, the rate and why. */
export const vatDecisionSchema = z.object({
  scheme: vatSchemeSchema,
  /**
   * `standard`: the country whose VAT is charged; `reverse-charge`: the VAT number's member state;
   * `outside` / `not-registered`: the buyer's country when one was decided, else null.
   */
  country: billingCountrySchema.nullable(),
  /** Basis points of the net amount (2000: 20%); 0 unless `standard`. */
  rateBps: z.number().int().min(0).max(10_000),
  evidence: vatEvidenceSchema,
});
export type VatDecision = z.infer<typeof vatDecisionSchema>;
