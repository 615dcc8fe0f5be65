import { timingSafeEqual } from "node:crypto";
import {
  type CheckoutBody,
  type CheckoutResponse,
  type CheckoutStatus,
  linkTokenSchema,
  type OrderStatus,
} from "@salelink/contracts";
import type { Config } from "../../config.ts";
import type { Db, Tx } from "../../db/client.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { hashToken, randomToken } from "../../lib/tokens.ts";
import { isWrongPromoCode } from "../catalogue/promo/limits.ts";
import { linkTag, queueRevalidate } from "../catalogue/revalidate.ts";
import { paymentBatcher } from "../orders/batcher.ts";
import { applyDisputeEvent } from "../orders/disputes/service.ts";
import { type ApplyResult, applyPaymentEvent } from "../orders/events.ts";
import { VatRuleError } from "../tax/rules.ts";
import { orderAccessToken } from "./order-access.ts";
import {
  failPendingOrders,
  linkForCheckout,
  lockUnpaidOrder,
  orderStatus,
  orderWithLink,
  setOrderVat,
  setProviderPaymentId,
} from "./queries.ts";
import {
  assertOnSale,
  type RecordedOrder,
  recordOrder,
  reserveAndRecord,
  reservesSomething,
} from "./reserve.ts";
import type { CheckoutCaller, CheckoutDeps } from "./types.ts";
import { cardCountryDecision, countryNotOffered, planVat } from "./vat.ts";

/**
 * Starts a payment: checks that the link is on sale; when something is limited, in one transaction,
 * claims a unit of its stock (and a use of a capped code) by the rules of reserve.ts, prices it with
 * the promo code and records the pending order; then asks the provider for a payment, with the
 * order as idempotency key. The buyer's own checkout of the same link still under way is replaced,
 * never doubled.
 */
export async function createCheckout(
  deps: CheckoutDeps,
  body: CheckoutBody,
  caller: CheckoutCaller,
): Promise<CheckoutResponse> {
  const { db } = deps;
  if (!linkTokenSchema.safeParse(body.token).success) throw notFound("Link");
  const checkoutSecret = randomToken();
  if (body.promoCode) await caller.promoAllowed();

  const link = await linkForCheckout(db, body.token);
  assertOnSale(link);
  // Only a visitor who followed a partner's link pays for the lookup.
  const partner = body.via?.length
    ? await deps.attributions.attribute({
        creatorId: link.ownerId,
        linkId: link.id,
        buyerEmail: body.email,
        via: body.via,
      })
    : null;
  const vat = await planVat(deps.config, deps.vies, body, link.pricesIncludeVat, new Date());
  const context = { checkoutSecretHash: hashToken(checkoutSecret), partner, vat };
  let order: RecordedOrder;
  try {
    order = reservesSomething(link, body)
      ? await db.transaction((tx) => reserveAndRecord(tx, deps, link, body, caller, context))
      : await recordOrder(db, deps, link, body, context);
  } catch (error) {
    if (body.promoCode && isWrongPromoCode(error)) await caller.promoFailed();
    throw error;
  }
  try {
    const payment = await deps.payments.createPayment({
      orderId: order.id,
      amountMinor: order.totalMinor,
      currency: order.currency,
      buyerEmail: body.email,
      description: order.title,
      idempotencyKey: `order-${order.id}`,
    });
    await setProviderPaymentId(db, order.id, payment.paymentId);
    return {
      orderId: order.id,
      checkoutSecret,
      provider: deps.payments.kind,
      paymentId: payment.paymentId,
      ...(payment.clientSecret ? { clientSecret: payment.clientSecret } : {}),
      ...(deps.payments.publishableKey ? { publishableKey: deps.payments.publishableKey } : {}),
      total: order.totalMinor,
      currency: order.currency,
      vat: order.vat,
    };
  } catch (error) {
    // Nothing was charged: the order fails at once and gives back its reservation.
    await failPendingOrders(db, [order.id], "provider-unavailable");
    if (order.pageTag) await queueRevalidate(db, deps.config, [order.pageTag]);
    const failure = new AppError(
      "PaymentProviderException",
      "The payment could not be started. Please try again.",
    );
    failure.cause = error;
    throw failure;
  }
}

/** The order behind a checkout secret, or "not found" (the same answer for a wrong secret). */
export async function orderBySecret(db: Db, orderId: string, secret: string) {
  const row = await orderWithLink(db, orderId);
  const given = Buffer.from(hashToken(secret));
  const expected = Buffer.from(row?.checkoutSecretHash ?? "");
  if (!row || given.length !== expected.length || !timingSafeEqual(given, expected)) throw notFound("Order");
  return row;
}

/**
 * The buyer left the checkout (the page sends this as it closes): a pending order fails at once and
 * gives back its reservation. Its payment may still succeed in another tab: it is then re-checked
 * like any late payment. Authorised by the checkout's secret only, which nobody else has.
 */
export async function cancelCheckout(
  deps: CheckoutDeps,
  orderId: string,
  secret: string,
): Promise<{ status: OrderStatus }> {
  const found = await orderBySecret(deps.db, orderId, secret);
  return deps.db.transaction(async (tx) => {
    // Failing the order gives its stock unit back (migration 0016's trigger): no lock on the link.
    const [canceled] = await failPendingOrders(tx, [found.id], "canceled");
    if (canceled && found.stockLimit !== null) {
      await queueRevalidate(tx, deps.config, [linkTag(found.linkToken)]);
    }
    if (canceled) return { status: canceled.status };
    return { status: (await orderStatus(tx, found.id)) ?? found.status };
  });
}

/** What the success and error pages show, for the browser holding the checkout secret only. */
export async function checkoutStatus(
  deps: CheckoutDeps,
  orderId: string,
  secret: string,
): Promise<CheckoutStatus> {
  const row = await orderBySecret(deps.db, orderId, secret);
  return {
    status: row.status,
    failureReason: row.failureReason,
    orderToken: row.status === "paid" ? orderAccessToken(deps.config, row.id) : null,
    linkToken: row.linkToken,
    total: row.totalMinor,
    currency: row.currency,
  };
}

/** Verifies a delivery and applies its event in `tx`: the one path for Stripe's and the sandbox's. */
export async function receivePaymentDelivery(
  deps: Pick<CheckoutDeps, "config" | "payments">,
  tx: Tx,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): Promise<ApplyResult> {
  const event = deps.payments.parseWebhook(rawBody, headers);
  if (!event) return "ignored";
  if (event.type === "dispute") return applyDisputeEvent(tx, deps.config, deps.payments.kind, event);
  return applyPaymentEvent(tx, deps.config, deps.payments.kind, event);
}

/**
 * The webhook route's delivery: verified, then applied with the deliveries arriving meanwhile
 * (orders/batcher.ts, decision 030); answered once its transaction has committed.
 */
export async function receivePaymentWebhook(
  deps: CheckoutDeps,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): Promise<ApplyResult> {
  const event = deps.payments.parseWebhook(rawBody, headers);
  if (!event) return "ignored";
  // A chargeback is rare and touches one sale: applied on its own, never in a batch of payments.
  if (event.type === "dispute")
    return deps.db.transaction((tx) => applyDisputeEvent(tx, deps.config, deps.payments.kind, event));
  return paymentBatcher(deps.db, deps.config, deps.payments.kind).apply(event);
}

/**
 * The payment provider knows the card's issuing country, before the charge (the sandbox's card
 * form): the VAT is decided with it, or the buyer is asked which of the two countries is theirs.
 * Answers the question, or the amount to charge (changed only when VAT is added to the price and
 * the country changed), or null when nothing changes.
 */
export async function applyCardCountry(
  db: Db,
  config: Config,
  orderId: string,
  cardCountry: string | null,
  confirmed: string | null,
): Promise<{ needs: { billing: string; card: string } } | { amountMinor: number } | null> {
  return db.transaction(async (tx) => {
    const order = await lockUnpaidOrder(tx, orderId);
    if (!order) return null;
    let decided: ReturnType<typeof cardCountryDecision>;
    try {
      decided = cardCountryDecision(config, order, cardCountry, confirmed, new Date());
    } catch (error) {
      if (error instanceof VatRuleError && error.code === "confirmed-country-not-offered")
        throw countryNotOffered();
      throw error;
    }
    if (decided === null) return null;
    if ("needs" in decided) return decided;
    const v = decided.values;
    await setOrderVat(tx, order.id, {
      vatScheme: v.vatScheme,
      vatCountry: v.vatCountry,
      vatRateBps: v.vatRateBps,
      vatMinor: v.vatMinor,
      totalMinor: v.totalMinor,
      vatEvidence: v.vatEvidence,
    });
    return { amountMinor: v.totalMinor };
  });
}
