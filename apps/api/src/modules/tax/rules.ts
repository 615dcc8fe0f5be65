import type { BillingCountry, VatDecision, VatEvidence } from "@salelink/contracts";
import { isIsoCountryCode } from "@salelink/contracts/iso-countries";
import { isEuVatCountry, isVatCountry } from "@salelink/contracts/vat-countries";
import { vatRateOn } from "./rates.ts";

/*
 * Which VAT a sale carries (issue 22). The platform is the deemed supplier of the e-services it
 * sells (Implementing Regulation 282/2011, Article 9a): a consumer pays the VAT of their country,
 * established from two non-contradicting pieces of evidence (Article 24b: here the billing country
 * the buyer gives and the card's issuing country), a business with a valid EU VAT number pays none
 * (reverse charge, Directive 2006/112 Article 196). Pure: no clock, no database, no network.
 */

export interface VatNumberEvidence {
  /** VIES (or its sandbox) said the number exists. */
  valid: boolean;
  /** The number's ISO country (GR for an EL number). */
  country: string;
}

export interface VatInput {
  /** An ISO code (billingCountrySchema); anything else throws. */
  billingCountry: string;
  /**
   * The card's issuing country the payment provider reports; null when it reports none. A code
   * that is no country counts as none (the provider's data, not the buyer's).
   */
  cardCountry: string | null;
  /** The buyer's answer after a `needsConfirmation`: must be the billing or the card country. */
  confirmedCountry?: string | null;
  /** A VAT number already checked (format, then VIES). */
  vatNumber?: VatNumberEvidence | null;
  /**
   * The member state where the platform itself is established, when known: a business there is
   * charged its VAT like anyone (a domestic sale), not reverse-charged.
   */
  platformCountry?: string | null;
  /** VAT_REGISTERED_OUTSIDE_EU: the non-EU countries (GB, NO, CH, IS) where the platform is registered. */
  registeredOutsideEu: readonly string[];
  /** When the sale happens: picks the rate in force. */
  date: Date;
}

export interface VatNeedsConfirmation {
  /** The billing and card countries contradict: the buyer must say which is theirs. */
  needsConfirmation: { billing: string; card: string };
}

/** A billing country that is none, a confirmed one that was not offered, a taxed country without a rate. */
export class VatRuleError extends Error {
  constructor(
    message: string,
    readonly code: "unknown-billing-country" | "confirmed-country-not-offered" | "no-rate",
  ) {
    super(message);
    this.name = "VatRuleError";
  }
}

/** Whether the platform charges VAT to consumers of `country`. */
export function isTaxedCountry(country: string, registeredOutsideEu: readonly string[]): boolean {
  return isEuVatCountry(country) || (isVatCountry(country) && registeredOutsideEu.includes(country));
}

function rateOf(country: string, date: Date): number {
  const rate = vatRateOn(country, date);
  if (rate === null) throw new VatRuleError(`no VAT rate for ${country} on ${date.toISOString()}`, "no-rate");
  return rate;
}

/** The buyer's country and why, or the question to ask (null decided country: `outside`). */
function decideCountry(
  billing: BillingCountry,
  card: BillingCountry | null,
  input: VatInput,
): VatEvidence | VatNeedsConfirmation {
  const confirmed = input.confirmedCountry ?? null;
  // What the caller offered the buyer is the two countries; anything else is a forged or stale answer.
  if (confirmed !== null && confirmed !== billing && confirmed !== card)
    throw new VatRuleError(
      `the confirmed country ${confirmed} is neither the billing (${billing}) nor the card country (${card ?? "none"})`,
      "confirmed-country-not-offered",
    );
  const base = { billingCountry: billing, cardCountry: card };
  if (card === null) return { ...base, decidedCountry: billing, decision: "billing-only" };
  if (card === billing) return { ...base, decidedCountry: billing, decision: "agree" };
  if (confirmed === billing || confirmed === card)
    return { ...base, decidedCountry: confirmed, decision: "buyer-confirmed", confirmedBy: "buyer" };
  // Two countries neither of which is taxed: no VAT whichever is right, nothing to ask.
  if (!isTaxedCountry(billing, input.registeredOutsideEu) && !isTaxedCountry(card, input.registeredOutsideEu))
    return { ...base, decidedCountry: null, decision: "outside" };
  return { needsConfirmation: { billing, card } };
}

/**
 * Decides a sale's VAT: the scheme, the country, the rate and the evidence to keep with the order;
 * or, when the billing and card countries contradict and the buyer has not confirmed one, the
 * question to ask. Throws VatRuleError on a confirmed country that was not offered.
 */
export function decideVat(input: VatInput): VatDecision | VatNeedsConfirmation {
  const billing = input.billingCountry;
  if (!isIsoCountryCode(billing))
    throw new VatRuleError(`not a country code: ${billing}`, "unknown-billing-country");
  // The null test is there for the types.
  // Stryker disable next-line ConditionalExpression: equivalent, isIsoCountryCode(null) is false too
  const card = input.cardCountry !== null && isIsoCountryCode(input.cardCountry) ? input.cardCountry : null;
  const { vatNumber, platformCountry } = input;
  if (
    vatNumber?.valid &&
    isEuVatCountry(vatNumber.country) &&
    vatNumber.country !== (platformCountry ?? null)
  ) {
    // A business is taxed where it is established, which its VAT number says: the two other
    // pieces are kept for the record but decide nothing (and a contradiction asks nothing).
    const country = vatNumber.country;
    return {
      scheme: "reverse-charge",
      country,
      rateBps: 0,
      evidence: {
        billingCountry: billing,
        cardCountry: card,
        decidedCountry: country,
        decision: "vat-number",
      },
    };
  }
  const evidence = decideCountry(billing, card, input);
  if ("needsConfirmation" in evidence) return evidence;
  const country = evidence.decidedCountry;
  // The test narrows the type.
  // Stryker disable next-line ConditionalExpression: equivalent, null falls to the same "outside" below
  if (country === null) return { scheme: "outside", country: null, rateBps: 0, evidence };
  if (isTaxedCountry(country, input.registeredOutsideEu))
    return { scheme: "standard", country, rateBps: rateOf(country, input.date), evidence };
  if (isVatCountry(country)) return { scheme: "not-registered", country, rateBps: 0, evidence };
  return { scheme: "outside", country, rateBps: 0, evidence };
}

export interface VatSplit {
  grossMinor: number;
  netMinor: number;
  vatMinor: number;
}

/** a / b rounded half up, for a ≥ 0 and b > 0, exact at any size. */
function divideHalfUp(a: bigint, b: bigint): bigint {
  return (2n * a + b) / (2n * b);
}

/**
 * Splits an amount (integer minor units, ≥ 0) at `rateBps`. Inclusive (the shown price is what the
 * buyer pays): gross = amount, net = gross × 10000 / (10000 + rate) rounded half up, VAT the rest.
 * Exclusive (VAT added at checkout): net = amount, VAT = net × rate / 10000 rounded half up.
 * Always net + VAT = gross, in integers.
 */
export function vatSplit(amountMinor: number, rateBps: number, inclusive: boolean): VatSplit {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0)
    throw new RangeError(`not an amount in minor units: ${amountMinor}`);
  if (!Number.isInteger(rateBps) || rateBps < 0 || rateBps > 10_000)
    throw new RangeError(`not a rate in basis points: ${rateBps}`);
  const amount = BigInt(amountMinor);
  const rate = BigInt(rateBps);
  if (inclusive) {
    const net = Number(divideHalfUp(amount * 10_000n, 10_000n + rate));
    return { grossMinor: amountMinor, netMinor: net, vatMinor: amountMinor - net };
  }
  const vat = divideHalfUp(amount * rate, 10_000n);
  const gross = amount + vat;
  if (gross > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`amount too large: ${amountMinor}`);
  return { grossMinor: Number(gross), netMinor: amountMinor, vatMinor: Number(vat) };
}
