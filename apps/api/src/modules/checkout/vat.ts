import type { CheckoutBody, CheckoutVat, VatScheme } from "@salelink/contracts";
import { isVatCountry, type VatCountry } from "@salelink/contracts/vat-countries";
import type { Config } from "../../config.ts";
import { AppError, validation } from "../../lib/errors.ts";
import type { ViesProvider } from "../../providers/vies/index.ts";
import { ViesUnavailableError } from "../../providers/vies/index.ts";
import type { OrderRow } from "../orders/queries.ts";
import { decideVat, vatSplit } from "../tax/rules.ts";
import { checkVatNumberFormat, countryOfVatPrefix } from "../tax/vat-number.ts";

/*
 * The VAT of a checkout (issue 22, decision 039). At checkout the billing country the buyer gives
 * decides it provisionally (and a business's VAT number, checked with VIES); when the payment
 * provider reports the card's issuing country, the two pieces must agree or the buyer says which is
 * theirs (`cardCountryDecision`), before anything is charged.
 */

/** What the order records of its VAT. */
export interface VatValues {
  billingCountry: string | null;
  vatScheme: VatScheme | null;
  vatCountry: VatCountry | null;
  vatRateBps: number | null;
  vatMinor: number;
  totalMinor: number;
  pricesIncludeVat: boolean;
  vatEvidence: Record<string, unknown> | null;
  buyerVatNumber: string | null;
  buyerName: string | null;
  buyerAddress: string | null;
}

/** The provisional decision, made once per checkout before its order is recorded. */
export interface VatPlan {
  billingCountry: string | null;
  decision: ReturnType<typeof decideVat> | null;
  business: { vatNumber: string; name: string; address: string | null; valid: boolean } | null;
  viesUnavailable: boolean;
}

/** Decides the checkout's VAT from what the buyer gave; a bad or unknown VAT number is a field error. */
export async function planVat(
  config: Config,
  vies: ViesProvider,
  body: CheckoutBody,
  inclusive: boolean,
  now: Date,
): Promise<VatPlan> {
  if (!body.billingCountry) {
    // The total depends on the country when VAT is added: the buyer must say it first.
    if (!inclusive) throw validation({ billingCountry: ["Choose your country."] });
    return { billingCountry: null, decision: null, business: null, viesUnavailable: false };
  }
  let business: VatPlan["business"] = null;
  let viesUnavailable = false;
  if (body.business) {
    const format = checkVatNumberFormat(body.business.vatNumber);
    if (!format.formatValid || !format.country)
      throw validation({ "business.vatNumber": ["This is not a valid VAT number."] });
    let valid = false;
    try {
      valid = (await vies.checkVatNumber(format.country, format.number)).valid;
    } catch (error) {
      // VIES is often down: the buyer pays as a consumer, and the order says why.
      if (!(error instanceof ViesUnavailableError)) throw error;
      viesUnavailable = true;
    }
    if (!valid && !viesUnavailable)
      throw validation({ "business.vatNumber": ["This VAT number is not registered (VIES)."] });
    business = {
      vatNumber: format.normalised,
      name: body.business.name,
      address: body.business.address ?? null,
      valid,
    };
  }
  const decision = decideVat({
    billingCountry: body.billingCountry,
    cardCountry: null,
    vatNumber: business?.valid
      ? { valid: true, country: countryOfVatPrefix(business.vatNumber.slice(0, 2)) }
      : null,
    registeredOutsideEu: config.VAT_REGISTERED_OUTSIDE_EU,
    date: now,
  });
  return { billingCountry: body.billingCountry, decision, business, viesUnavailable };
}

/** The order's VAT values for a total before VAT is added (or including it, as the link says). */
export function vatValues(plan: VatPlan, inclusive: boolean, amountMinor: number): VatValues {
  const decision = plan.decision && "scheme" in plan.decision ? plan.decision : null;
  const rate = decision?.rateBps ?? 0;
  const split = vatSplit(amountMinor, rate, inclusive);
  return {
    billingCountry: plan.billingCountry,
    vatScheme: decision?.scheme ?? null,
    vatCountry: decision?.country && isVatCountry(decision.country) ? decision.country : null,
    vatRateBps: decision ? rate : null,
    vatMinor: split.vatMinor,
    totalMinor: split.grossMinor,
    pricesIncludeVat: inclusive,
    vatEvidence: decision
      ? {
          ...decision.evidence,
          ...(plan.business ? { vatNumberChecked: plan.business.valid } : {}),
          ...(plan.viesUnavailable ? { viesUnavailable: true } : {}),
        }
      : null,
    buyerVatNumber: plan.business?.vatNumber ?? null,
    buyerName: plan.business?.name ?? null,
    buyerAddress: plan.business?.address ?? null,
  };
}

/** The VAT as checkout and the order page show it. */
export function checkoutVat(
  order: Pick<
    VatValues,
    | "vatScheme"
    | "vatCountry"
    | "vatRateBps"
    | "vatMinor"
    | "totalMinor"
    | "pricesIncludeVat"
    | "billingCountry"
  >,
): CheckoutVat {
  return {
    scheme: order.vatScheme ?? "outside",
    country: order.vatCountry ?? order.billingCountry,
    rateBps: order.vatRateBps ?? 0,
    vatMinor: order.vatMinor,
    netMinor: order.totalMinor - order.vatMinor,
    pricesIncludeVat: order.pricesIncludeVat,
  };
}

/**
 * The card's issuing country is known (before the charge): with the billing country it decides the
 * VAT, or the buyer must say which country is theirs. A card without a reported country leaves the
 * checkout's decision; an order without a billing country is decided by the card alone. Answers the
 * order's new VAT values, or the question.
 */
export function cardCountryDecision(
  config: Config,
  order: OrderRow,
  cardCountry: string | null,
  confirmed: string | null,
  now: Date,
): { values: VatValues } | { needs: { billing: string; card: string } } | null {
  const evidence = order.vatEvidence ?? {};
  const base = order.pricesIncludeVat ? order.totalMinor : order.totalMinor - order.vatMinor;
  const business = order.buyerVatNumber
    ? {
        vatNumber: order.buyerVatNumber,
        name: order.buyerName ?? "",
        address: order.buyerAddress,
        valid: evidence.vatNumberChecked === true,
      }
    : null;
  const plan = (decision: VatPlan["decision"], billing: string | null): VatPlan => ({
    billingCountry: billing,
    decision,
    business,
    viesUnavailable: evidence.viesUnavailable === true,
  });
  if (order.billingCountry === null) {
    if (cardCountry === null) return null;
    // One piece only: the card's country decides (the web app always asks for the billing one).
    const decision = decideVat({
      billingCountry: cardCountry,
      cardCountry,
      registeredOutsideEu: config.VAT_REGISTERED_OUTSIDE_EU,
      date: now,
    });
    if ("needsConfirmation" in decision) return null;
    const values = vatValues(
      plan({ ...decision, evidence: { ...decision.evidence } }, null),
      order.pricesIncludeVat,
      base,
    );
    return {
      values: {
        ...values,
        vatEvidence: { ...values.vatEvidence, billingCountry: null, decision: "card-only" },
      },
    };
  }
  if (cardCountry === null) return null;
  const decision = decideVat({
    billingCountry: order.billingCountry,
    cardCountry,
    confirmedCountry: confirmed,
    vatNumber: business?.valid
      ? { valid: true, country: countryOfVatPrefix(business.vatNumber.slice(0, 2)) }
      : null,
    registeredOutsideEu: config.VAT_REGISTERED_OUTSIDE_EU,
    date: now,
  });
  if ("needsConfirmation" in decision) return { needs: decision.needsConfirmation };
  return { values: vatValues(plan(decision, order.billingCountry), order.pricesIncludeVat, base) };
}

export const countryNotOffered = () =>
  new AppError("BadRequestException", "Choose one of the two countries offered.");
