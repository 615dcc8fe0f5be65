import type { CheckoutBody, Currency } from "@salelink/contracts";
import type { Tx } from "../../db/client.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { priceLink } from "../catalogue/promo/service.ts";
import { linkTag, queueRevalidate, queueRevalidateUntil } from "../catalogue/revalidate.ts";
import {
  failPendingOrders,
  heldBy,
  insertOrder,
  linkForCheckout,
  liveCheckoutsOf,
  liveLinkByToken,
  lockPromoUses,
  ownerSuspended,
} from "./queries.ts";
import { promoReservedOut, promoUsedUp, reservedOut, soldOut, stockState } from "./reservations.ts";
import type { CheckoutCaller, CheckoutDeps } from "./types.ts";

const notOnSale = () => new AppError("ConflictException", "This link is not on sale.");

export interface RecordedOrder {
  id: string;
  totalMinor: number;
  currency: Currency;
  title: string;
  /** The link's cache tag when its stock is limited: its page changes with this order's fate. */
  pageTag: string | null;
}

/**
 * Checkout's transaction: the link (and a capped code) locked, the buyer's own live checkout of this
 * link replaced, what is left checked by the rule of reservations.ts, the new reservation counted
 * against the caller's caps, and the pending order recorded.
 */
export async function reserveAndRecord(
  tx: Tx,
  deps: CheckoutDeps,
  body: CheckoutBody,
  caller: CheckoutCaller,
  checkoutSecretHash: string,
): Promise<RecordedOrder> {
  const { config } = deps;
  const found = await liveLinkByToken(tx, body.token);
  if (!found) throw notFound("Link");
  // Only what may be limited locks the link's row (as a payment's re-check does, before the order's):
  // unlimited links without a code sell without waiting.
  const mayReserve = found.stockLimit !== null || !!body.promoCode;
  const link = await linkForCheckout(tx, found.id, mayReserve);
  if (!link) throw notFound("Link");
  if (link.status !== "active") throw notOnSale();
  // A suspended creator's links stop selling (issue 8); the buyer gets the paused link's answer.
  if (await ownerSuspended(tx, link.ownerId)) throw notOnSale();

  // This buyer's checkouts of this link still holding something: the new one takes their place.
  const own = mayReserve ? await liveCheckoutsOf(tx, config, link.id, body.email) : [];

  let reserves = false;
  if (link.stockLimit !== null) {
    reserves = true;
    const held = await heldBy(tx, config, { linkId: link.id }, own);
    const state = stockState(config, link.stockLimit, link.salesCount, held);
    if (state.state === "sold-out") throw soldOut();
    if (state.state === "reserved-out") throw reservedOut(state.availableAgainAt);
  }

  const priced = await priceLink(tx, config.rules.linkPriceMinMinor, link, body.promoCode);
  if (priced.promo?.usageLimit != null) {
    reserves = true;
    // The code's row is locked too, so two checkouts on different links cannot both take its last use.
    const code = await lockPromoUses(tx, priced.promo.id);
    const held = await heldBy(tx, config, { promoCodeId: priced.promo.id }, own);
    const uses = stockState(config, code?.usageLimit ?? null, code?.usedCount ?? 0, held);
    if (uses.state === "sold-out") throw promoUsedUp();
    if (uses.state === "reserved-out") throw promoReservedOut(uses.availableAgainAt);
  }

  if (own.length > 0) {
    await failPendingOrders(tx, own, "replaced");
  } else if (reserves) {
    await caller.reserve();
  }

  const row = await insertOrder(tx, {
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
    checkoutSecretHash,
  });
  if (!row) throw new Error("order not inserted");

  if (link.stockLimit !== null) {
    const after = stockState(
      config,
      link.stockLimit,
      link.salesCount,
      await heldBy(tx, config, { linkId: link.id }),
    );
    if (after.state === "reserved-out") {
      // The page says "all reserved" now, counts the minutes down, and is for sale again when the
      // first reservation ends.
      const tags = [linkTag(link.token)];
      await queueRevalidate(tx, config, tags);
      await queueRevalidateUntil(tx, config, tags, after.availableAgainAt);
    }
  }
  return {
    id: row.id,
    totalMinor: row.totalMinor,
    currency: row.currency,
    title: link.title,
    pageTag: link.stockLimit !== null ? linkTag(link.token) : null,
  };
}
