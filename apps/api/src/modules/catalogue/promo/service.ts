import {
  type CreatePromoCodeBody,
  type PromoCode,
  promoCodeValueSchema,
  type QuoteBody,
  type QuoteResponse,
  type UpdatePromoCodeBody,
} from "@salelink/contracts";
import type { Db, DbOrTx } from "../../../db/client.ts";
import { notFound, validation } from "../../../lib/errors.ts";
import { isUniqueViolation } from "../../../lib/pg-errors.ts";
import { findOnSaleLink } from "../public/service.ts";
import * as q from "../queries.ts";
import type { CatalogueDeps } from "../service.ts";
import * as pq from "./queries.ts";

const codeTaken = () => validation({ code: ["You already have a promo code with this code."] });

function toPromoCode(row: pq.PromoRow, linkIds: string[]): PromoCode {
  return {
    ...row,
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    linkIds,
  };
}

/** A percentage is 1–100 and has no currency; a fixed amount needs one. */
function assertDiscount(kind: pq.PromoRow["kind"], value: number, currency: string | null) {
  if (kind === "percent" && (value < 1 || value > 100)) {
    throw validation({ value: ["A percentage is between 1 and 100."] });
  }
  if (kind === "percent" && currency !== null) {
    throw validation({ currency: ["A percentage has no currency."] });
  }
  if (kind === "fixed" && currency === null)
    throw validation({ currency: ["A fixed amount needs a currency."] });
}

async function assertOwnLinks(db: DbOrTx, ownerId: string, linkIds: string[]) {
  const found = await q.findOwnedLinks(db, { ownerId, ids: linkIds });
  // Someone else's link is "not found", like an unknown one.
  if (found.length !== linkIds.length) throw notFound("Link");
}

export async function listPromoCodes(db: Db, ownerId: string): Promise<PromoCode[]> {
  const rows = await pq.listPromoCodes(db, { ownerId });
  const restrictions = await pq.restrictionsOf(db, { promoCodeIds: rows.map((r) => r.id) });
  return rows.map((row) => toPromoCode(row, restrictions.get(row.id) ?? []));
}

export async function createPromoCode(
  db: Db,
  ownerId: string,
  body: CreatePromoCodeBody,
): Promise<PromoCode> {
  const currency = body.kind === "fixed" ? body.currency : null;
  try {
    return await db.transaction(async (tx) => {
      await assertOwnLinks(tx, ownerId, body.linkIds);
      const row = await pq.insertPromoCode(tx, {
        ownerId,
        code: body.code,
        kind: body.kind,
        value: body.value,
        currency,
        expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
        usageLimit: body.usageLimit,
      });
      await pq.replaceRestrictions(tx, { promoCodeId: row.id, linkIds: body.linkIds });
      return toPromoCode(row, [...body.linkIds].sort());
    });
  } catch (err) {
    if (isUniqueViolation(err, "promo_codes_owner_code_idx", { orUnnamed: true })) throw codeTaken();
    throw err;
  }
}

export async function updatePromoCode(
  db: Db,
  ownerId: string,
  id: string,
  body: UpdatePromoCodeBody,
): Promise<PromoCode> {
  try {
    return await db.transaction(async (tx) => {
      const current = await pq.findPromoCode(tx, { ownerId, id });
      if (!current) throw notFound("Promo code");
      const kind = body.kind ?? current.kind;
      // Switching to a percentage drops the currency unless one is sent (then it is refused).
      const currency =
        body.currency !== undefined ? body.currency : kind === "percent" ? null : current.currency;
      const value = body.value ?? current.value;
      assertDiscount(kind, value, currency);
      const set: Partial<pq.PromoValues> = { kind, value, currency };
      if (body.code !== undefined) set.code = body.code;
      if (body.expiresAt !== undefined) set.expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
      if (body.usageLimit !== undefined) set.usageLimit = body.usageLimit;
      if (body.linkIds !== undefined) {
        await assertOwnLinks(tx, ownerId, body.linkIds);
        await pq.replaceRestrictions(tx, { promoCodeId: id, linkIds: body.linkIds });
      }
      const row = await pq.updatePromoCode(tx, { ownerId, id, set });
      if (!row) throw notFound("Promo code");
      const restrictions = await pq.restrictionsOf(tx, { promoCodeIds: [id] });
      return toPromoCode(row, restrictions.get(id) ?? []);
    });
  } catch (err) {
    if (isUniqueViolation(err, "promo_codes_owner_code_idx", { orUnnamed: true })) throw codeTaken();
    throw err;
  }
}

export async function deletePromoCode(db: Db, ownerId: string, id: string): Promise<void> {
  if (!(await pq.deletePromoCode(db, { ownerId, id }))) throw notFound("Promo code");
}

/**
 * Discount of a promo code on a price, in minor units, integers only.
 *
 * - Percent: `price × percent / 100` rounded half-up on minor units, i.e. floor((price × percent + 50)
 *   / 100), computed with an integer remainder so no float ever rounds (10.05 € at 10 % → 1.01 €).
 * - Fixed: the amount itself.
 * - Clamp: the total never goes below the configured minimum price (DESIGN section 3), so a discount
 *   larger than `price - minimum` is cut down to it; a price already at or below the minimum (possible
 *   only if the minimum was raised after the link was priced) gets no discount at all.
 */
export function discountedAmounts(
  priceMinor: number,
  promo: { kind: "percent" | "fixed"; value: number },
  minPriceMinor: number,
): { discount: number; total: number } {
  let discount = promo.value;
  if (promo.kind === "percent") {
    const scaled = priceMinor * promo.value + 50;
    discount = (scaled - (scaled % 100)) / 100;
  }
  const floor = Math.min(priceMinor, minPriceMinor);
  const total = Math.max(priceMinor - discount, floor);
  return { discount: priceMinor - total, total };
}

const promoError = (message: string, params?: Record<string, string>) =>
  validation({ promoCode: [message] }, "This promo code cannot be used.", params);

export interface PricedLink {
  price: number;
  discount: number;
  total: number;
  currency: QuoteResponse["currency"];
  promo: pq.PromoRow | null;
}

/**
 * The price of an on-sale link with an optional promo code, checked against every rule (known,
 * not expired, not used up, valid for this link and currency). Reads only; checkout calls it in its
 * own transaction, with the link locked.
 */
export async function priceLink(
  db: DbOrTx,
  minPriceMinor: number,
  link: { id: string; ownerId: string; priceMinor: number; currency: QuoteResponse["currency"] },
  promoCode: string | undefined,
): Promise<PricedLink> {
  const base = { price: link.priceMinor, currency: link.currency };
  if (!promoCode) return { ...base, discount: 0, total: link.priceMinor, promo: null };

  const parsed = promoCodeValueSchema.safeParse(promoCode);
  const promo = parsed.success
    ? await pq.findPromoCodeByCode(db, { ownerId: link.ownerId, code: parsed.data })
    : null;
  if (!promo) throw promoError("Unknown promo code.");
  if (promo.expiresAt && promo.expiresAt.getTime() <= Date.now())
    throw promoError("This promo code has expired.");
  if (promo.usageLimit !== null && promo.usedCount >= promo.usageLimit) {
    throw promoError("This promo code is used up.");
  }
  const restricted = (await pq.restrictionsOf(db, { promoCodeIds: [promo.id] })).get(promo.id) ?? [];
  if (restricted.length > 0 && !restricted.includes(link.id)) {
    throw promoError("This promo code is not valid for this link.");
  }
  if (promo.kind === "fixed" && promo.currency !== link.currency) {
    throw promoError("This promo code is in {promoCurrency}, the price in {priceCurrency}.", {
      promoCurrency: promo.currency ?? "",
      priceCurrency: link.currency,
    });
  }
  const { discount, total } = discountedAmounts(link.priceMinor, promo, minPriceMinor);
  return { ...base, discount, total, promo };
}

/** The price a buyer would pay, with or without a promo code. Reads only: the code is used at checkout. */
export async function quote(deps: CatalogueDeps, token: string, body: QuoteBody): Promise<QuoteResponse> {
  const link = await findOnSaleLink(deps.db, token);
  const priced = await priceLink(deps.db, deps.config.rules.linkPriceMinMinor, link, body.promoCode);
  const { price, discount, total, currency, promo } = priced;
  return {
    price,
    discount,
    total,
    currency,
    ...(promo ? { promoCode: { code: promo.code, kind: promo.kind, value: promo.value } } : {}),
  };
}
