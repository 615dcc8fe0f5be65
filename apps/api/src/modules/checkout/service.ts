import { createHmac, timingSafeEqual } from "node:crypto";
import {
  type CheckoutBody,
  type CheckoutResponse,
  type CheckoutStatus,
  linkTokenSchema,
} from "@salelink/contracts";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { links, orders, promoCodes, users } from "../../db/schema/index.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { hashToken, randomToken } from "../../lib/tokens.ts";
import type { PaymentProvider } from "../../providers/payments/types.ts";
import { priceLink } from "../catalogue/promo.ts";

export interface CheckoutDeps {
  db: Db;
  config: Config;
  payments: PaymentProvider;
  pokeJobs(): void;
}

/** How long a started checkout holds a unit of a limited stock (and a use of a capped code). */
export const RESERVATION_MINUTES = 30;

/**
 * The order page's secret token, derived from the order id with the app secret: never stored (its
 * hash is, for look-ups), and recomputed for the browser that paid (success page) or the receipt.
 */
export function orderAccessToken(config: Config, orderId: string): string {
  return createHmac("sha256", config.appSecret).update(`order-access:${orderId}`).digest("base64url");
}

const notOnSale = () => new AppError("ConflictException", "This link is not on sale.");
const soldOut = () => new AppError("ConflictException", "This link is sold out.");

/**
 * Starts a payment: in one transaction with the link's row locked, checks that it is on sale and in
 * stock (paid sales plus the checkouts still holding a unit), prices it with the promo code and
 * records the pending order; then asks the provider for a payment, with the order as idempotency key.
 */
export async function createCheckout(deps: CheckoutDeps, body: CheckoutBody): Promise<CheckoutResponse> {
  const { db, config } = deps;
  if (!linkTokenSchema.safeParse(body.token).success) throw notFound("Link");
  const checkoutSecret = randomToken();
  const reservedSince = sql`now() - make_interval(mins => ${RESERVATION_MINUTES})`;

  const order = await db.transaction(async (tx) => {
    // Only a limited stock needs the link's row locked: unlimited links sell without waiting.
    const [found] = await tx
      .select({ id: links.id, stockLimit: links.stockLimit })
      .from(links)
      .where(and(eq(links.token, body.token), isNull(links.deletedAt)));
    if (!found) throw notFound("Link");
    const linkQuery = tx
      .select({
        id: links.id,
        ownerId: links.ownerId,
        title: links.title,
        priceMinor: links.priceMinor,
        currency: links.currency,
        status: links.status,
        stockLimit: links.stockLimit,
        salesCount: links.salesCount,
      })
      .from(links)
      .where(eq(links.id, found.id));
    const [link] = found.stockLimit !== null ? await linkQuery.for("update") : await linkQuery;
    if (!link) throw notFound("Link");
    if (link.status !== "active") throw notOnSale();
    // A suspended creator's links stop selling (issue 8); the buyer gets the paused link's answer.
    const [owner] = await tx
      .select({ suspendedAt: users.suspendedAt })
      .from(users)
      .where(eq(users.id, link.ownerId));
    if (owner?.suspendedAt) throw notOnSale();

    if (link.stockLimit !== null) {
      const [held] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(orders)
        .where(
          and(eq(orders.linkId, link.id), eq(orders.status, "pending"), gt(orders.createdAt, reservedSince)),
        );
      if (link.salesCount + (held?.n ?? 0) >= link.stockLimit) throw soldOut();
    }

    const priced = await priceLink(tx, config.rules.linkPriceMinMinor, link, body.promoCode);
    if (priced.promo?.usageLimit != null) {
      // The code's row is locked too, so two checkouts on different links cannot both take its last use.
      await tx
        .select({ id: promoCodes.id })
        .from(promoCodes)
        .where(eq(promoCodes.id, priced.promo.id))
        .for("update");
      const [held] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(orders)
        .where(
          and(
            eq(orders.promoCodeId, priced.promo.id),
            eq(orders.status, "pending"),
            gt(orders.createdAt, reservedSince),
          ),
        );
      if (priced.promo.usedCount + (held?.n ?? 0) >= priced.promo.usageLimit) {
        throw new AppError("ValidationException", "This promo code cannot be used.", {
          promoCode: ["This promo code is used up."],
        });
      }
    }

    const [row] = await tx
      .insert(orders)
      .values({
        linkId: link.id,
        creatorId: link.ownerId,
        buyerEmail: body.email,
        locale: body.locale,
        currency: priced.currency,
        priceMinor: priced.price,
        discountMinor: priced.discount,
        totalMinor: priced.total,
        promoCodeId: priced.promo?.id ?? null,
        promoCode: priced.promo?.code ?? null,
        provider: deps.payments.kind,
        checkoutSecretHash: hashToken(checkoutSecret),
      })
      .returning({ id: orders.id, totalMinor: orders.totalMinor, currency: orders.currency });
    if (!row) throw new Error("order not inserted");
    return { ...row, title: link.title };
  });

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
    const failure = new AppError(
      "PaymentProviderException",
      "The payment could not be started. Please try again.",
    );
    failure.cause = error;
    throw failure;
  }
}

/** What the success and error pages show, for the browser holding the checkout secret only. */
export async function checkoutStatus(
  deps: CheckoutDeps,
  orderId: string,
  secret: string,
): Promise<CheckoutStatus> {
  const [row] = await deps.db
    .select({
      id: orders.id,
      status: orders.status,
      failureReason: orders.failureReason,
      checkoutSecretHash: orders.checkoutSecretHash,
      totalMinor: orders.totalMinor,
      currency: orders.currency,
      linkToken: links.token,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .where(eq(orders.id, orderId));
  const given = Buffer.from(hashToken(secret));
  const expected = Buffer.from(row?.checkoutSecretHash ?? "");
  if (!row || given.length !== expected.length || !timingSafeEqual(given, expected)) throw notFound("Order");
  return {
    status: row.status,
    failureReason: row.failureReason,
    orderToken: row.status === "paid" ? orderAccessToken(deps.config, row.id) : null,
    linkToken: row.linkToken,
    total: row.totalMinor,
    currency: row.currency,
  };
}
