import { randomUUID } from "node:crypto";
import type { CheckoutBody, CheckoutVat, Currency } from "@salelink/contracts";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { priceLink } from "../catalogue/promo/service.ts";
import { linkTag, queueRevalidate, queueRevalidateUntil } from "../catalogue/revalidate.ts";
import type { PartnerAttribution } from "../partners/attribution/service.ts";
import {
  type CheckoutLink,
  failPendingOrders,
  heldByPromo,
  insertOrder,
  liveCheckoutsOf,
  lockPromoUses,
} from "./queries.ts";
import { promoReservedOut, promoUsedUp, reservedOut, soldOut, stockState } from "./reservations.ts";
import {
  allReservedUntil,
  claimFreeUnit,
  claimUnitAndLook,
  firstReservationEnd,
  nextFreeUnit,
} from "./stock-queries.ts";
import type { CheckoutCaller, CheckoutDeps } from "./types.ts";
import { checkoutVat, type VatPlan, type VatValues, vatValues } from "./vat.ts";

export const notOnSale = () => new AppError("ConflictException", "This link is not on sale.");

export interface RecordedOrder {
  id: string;
  totalMinor: number;
  vat: CheckoutVat;
  currency: Currency;
  title: string;
  /** The link's cache tag when its stock is limited: its page changes with this order's fate. */
  pageTag: string | null;
}

/** Whether a checkout of this link reserves something (a unit, a capped code's use) in a transaction. */
export const reservesSomething = (link: CheckoutLink, body: CheckoutBody) =>
  link.stockLimit !== null || !!body.promoCode;

/** On sale: active, and its creator not suspended (issue 8: the buyer gets the paused link's answer). */
export function assertOnSale(link: CheckoutLink | null): asserts link is CheckoutLink {
  if (!link) throw notFound("Link");
  if (link.status !== "active" || link.ownerSuspended) throw notOnSale();
}

/** What a checkout records of the sale besides its price: the partner whose link brought it, if any. */
export interface OrderContext {
  checkoutSecretHash: string;
  partner: PartnerAttribution | null;
  /** The VAT decided from the billing country (issue 22). */
  vat: VatPlan;
}

function orderValues(deps: CheckoutDeps, link: CheckoutLink, body: CheckoutBody, context: OrderContext) {
  return {
    linkId: link.id,
    creatorId: link.ownerId,
    buyerEmail: body.email,
    locale: body.locale,
    provider: deps.payments.kind,
    checkoutSecretHash: context.checkoutSecretHash,
    // The window the buyer is shown now is the one their refunds are judged by (issue 32).
    refundWindowDays: link.refundWindowDays,
    ...(context.partner ?? {}),
  };
}

function recorded(
  row: { id: string; totalMinor: number; currency: Currency },
  link: CheckoutLink,
  vat: VatValues,
): RecordedOrder {
  return {
    id: row.id,
    totalMinor: row.totalMinor,
    vat: checkoutVat(vat),
    currency: row.currency,
    title: link.title,
    pageTag: link.stockLimit !== null ? linkTag(link.token) : null,
  };
}

/**
 * The common case, an unlimited link without a code: nothing is reserved, so the pending order is
 * one insert, without a transaction around it.
 */
export async function recordOrder(
  db: DbOrTx,
  deps: CheckoutDeps,
  link: CheckoutLink,
  body: CheckoutBody,
  context: OrderContext,
): Promise<RecordedOrder> {
  const vat = vatValues(context.vat, link.pricesIncludeVat, link.priceMinor);
  const row = await insertOrder(db, {
    ...orderValues(deps, link, body, context),
    ...vat,
    currency: link.currency,
    priceMinor: link.priceMinor,
    discountMinor: 0,
  });
  if (!row) throw new Error("order not inserted");
  return recorded(row, link, vat);
}

/**
 * Checkout's transaction when something is limited. Locks are taken in the order a payment takes
 * them (orders, then a capped code's row, then stock units), so the two never deadlock: the buyer's
 * own live checkouts of this link are replaced first (their units go back, migration 0016's
 * trigger), a capped code's uses are counted under its row's lock, the pending order is recorded
 * and claims a free unit of a limited stock, and the new reservation is counted against the
 * caller's caps. The link's row is never locked: buyers of one link do not queue.
 */
export async function reserveAndRecord(
  tx: Tx,
  deps: CheckoutDeps,
  link: CheckoutLink,
  body: CheckoutBody,
  caller: CheckoutCaller,
  context: OrderContext,
): Promise<RecordedOrder> {
  const { config } = deps;
  const own = await liveCheckoutsOf(tx, config, link.id, body.email);
  if (own.length > 0) await failPendingOrders(tx, own, "replaced");

  const priced = await priceLink(tx, config.rules.linkPriceMinMinor, link, body.promoCode);
  let reserves = link.stockLimit !== null;
  if (priced.promo?.usageLimit != null) {
    reserves = true;
    // The code's row is locked, so two checkouts on different links cannot both take its last use.
    const code = await lockPromoUses(tx, priced.promo.id);
    const held = await heldByPromo(tx, config, priced.promo.id, own);
    const uses = stockState(config, code?.usageLimit ?? null, code?.usedCount ?? 0, held);
    if (uses.state === "sold-out") throw promoUsedUp();
    if (uses.state === "reserved-out") throw promoReservedOut(uses.availableAgainAt);
  }

  const orderId = randomUUID();
  const vat = vatValues(context.vat, link.pricesIncludeVat, priced.total);
  const row = await insertOrder(tx, {
    ...orderValues(deps, link, body, context),
    ...vat,
    id: orderId,
    currency: priced.currency,
    priceMinor: priced.price,
    discountMinor: priced.discount,
    promoCodeId: priced.promo?.id ?? null,
    promoCode: priced.promo?.code ?? null,
  });
  if (!row) throw new Error("order not inserted");

  // When no other free unit is left, the page turns to "all reserved" until this moment.
  let reservedUntil: Date | null = null;
  if (link.stockLimit !== null) {
    const claim = { linkId: link.id, orderId, minutes: config.CHECKOUT_RESERVATION_MINUTES };
    // Units other checkouts are claiming are skipped; only when none is left is their outcome
    // awaited, so a unit given back by a checkout that fails is still sold, and no more than the last.
    const fast = await claimUnitAndLook(tx, claim);
    if (fast.claimed) {
      if (!fast.anotherFree) reservedUntil = await firstReservationEnd(tx, link.id);
    } else if (await claimFreeUnit(tx, { ...claim, wait: true })) {
      reservedUntil = await allReservedUntil(tx, link.id);
    } else {
      const state = (await nextFreeUnit(tx, [link.id])).get(link.id);
      if (state?.state === "reserved-out") throw reservedOut(state.availableAgainAt);
      throw soldOut();
    }
  }

  // A replacement keeps the place of the checkout it replaces: only new reservations count.
  if (own.length === 0 && reserves) await caller.reserve();

  if (reservedUntil) {
    // The page says "all reserved" now, counts the minutes down, and is for sale again when the
    // first reservation ends.
    const tags = [linkTag(link.token)];
    await queueRevalidate(tx, config, tags);
    await queueRevalidateUntil(tx, config, tags, reservedUntil);
  }
  return recorded(row, link, vat);
}
