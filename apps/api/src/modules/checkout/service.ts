import { createHmac, timingSafeEqual } from "node:crypto";
import {
  type CheckoutBody,
  type CheckoutResponse,
  type CheckoutStatus,
  linkTokenSchema,
  type OrderStatus,
} from "@salelink/contracts";
import { and, eq } from "drizzle-orm";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { links, orders } from "../../db/schema/index.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { hashToken, randomToken } from "../../lib/tokens.ts";
import type { PaymentProvider } from "../../providers/payments/types.ts";
import { isWrongPromoCode } from "../catalogue/promo/limits.ts";
import { linkTag, queueRevalidate } from "../catalogue/revalidate.ts";
import { type RecordedOrder, reserveAndRecord } from "./reserve.ts";

export interface CheckoutDeps {
  db: Db;
  config: Config;
  payments: PaymentProvider;
  pokeJobs(): void;
}

/**
 * The order page's secret token, derived from the order id with the app secret: never stored (its
 * hash is, for look-ups), and recomputed for the browser that paid (success page) or the receipt.
 */
export function orderAccessToken(config: Config, orderId: string): string {
  return createHmac("sha256", config.appSecret).update(`order-access:${orderId}`).digest("base64url");
}

/** What checkout needs to know of its caller: the limits counted per client address and buyer. */
export interface CheckoutCaller {
  /** Counts one new reservation for this address and buyer; throws the 429 past their caps. */
  reserve(): Promise<void>;
  /** Throws the 429 when this address or link has had too many wrong promo codes lately. */
  promoAllowed(): Promise<void>;
  promoFailed(): Promise<void>;
}

/**
 * Starts a payment: in one transaction with the link's row locked (when something is limited),
 * checks that it is on sale and that a unit (and a use of a capped code) is free by the one rule of
 * reservations.ts, prices it with the promo code and records the pending order; then asks the
 * provider for a payment, with the order as idempotency key. The buyer's own checkout of the same
 * link still under way is replaced, never doubled.
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

  let order: RecordedOrder;
  try {
    order = await db.transaction((tx) => reserveAndRecord(tx, deps, body, caller, hashToken(checkoutSecret)));
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
    await db.update(orders).set({ providerPaymentId: payment.paymentId }).where(eq(orders.id, order.id));
    return {
      orderId: order.id,
      checkoutSecret,
      provider: deps.payments.kind,
      paymentId: payment.paymentId,
      ...(payment.clientSecret ? { clientSecret: payment.clientSecret } : {}),
      ...(deps.payments.publishableKey ? { publishableKey: deps.payments.publishableKey } : {}),
      total: order.totalMinor,
      currency: order.currency,
    };
  } catch (error) {
    // Nothing was charged: the order fails at once and gives back its reservation.
    await db
      .update(orders)
      .set({ status: "failed", failureReason: "provider-unavailable", updatedAt: new Date() })
      .where(and(eq(orders.id, order.id), eq(orders.status, "pending")));
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
async function orderBySecret(db: Db, orderId: string, secret: string) {
  const [row] = await db
    .select({
      id: orders.id,
      status: orders.status,
      failureReason: orders.failureReason,
      checkoutSecretHash: orders.checkoutSecretHash,
      totalMinor: orders.totalMinor,
      currency: orders.currency,
      linkId: links.id,
      linkToken: links.token,
      stockLimit: links.stockLimit,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .where(eq(orders.id, orderId));
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
    // The link's row before the order's, as checkout and the payment events take them.
    await tx.select({ id: links.id }).from(links).where(eq(links.id, found.linkId)).for("update");
    const [canceled] = await tx
      .update(orders)
      .set({ status: "failed", failureReason: "canceled", updatedAt: new Date() })
      .where(and(eq(orders.id, found.id), eq(orders.status, "pending")))
      .returning({ status: orders.status });
    if (canceled && found.stockLimit !== null) {
      await queueRevalidate(tx, deps.config, [linkTag(found.linkToken)]);
    }
    if (canceled) return { status: canceled.status };
    const [current] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, found.id));
    return { status: current?.status ?? found.status };
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
