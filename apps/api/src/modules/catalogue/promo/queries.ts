import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.ts";
import { promoCodeLinks, promoCodes } from "../../../db/schema/index.ts";

export const promoColumns = {
  id: promoCodes.id,
  code: promoCodes.code,
  kind: promoCodes.kind,
  value: promoCodes.value,
  currency: promoCodes.currency,
  expiresAt: promoCodes.expiresAt,
  usageLimit: promoCodes.usageLimit,
  usedCount: promoCodes.usedCount,
  createdAt: promoCodes.createdAt,
};
export type PromoRow = Pick<typeof promoCodes.$inferSelect, keyof typeof promoColumns>;
export type PromoValues = Omit<PromoRow, "id" | "usedCount" | "createdAt">;

export function listPromoCodes(db: DbOrTx, params: { ownerId: string }): Promise<PromoRow[]> {
  return db
    .select(promoColumns)
    .from(promoCodes)
    .where(eq(promoCodes.ownerId, params.ownerId))
    .orderBy(asc(promoCodes.createdAt), asc(promoCodes.id));
}

export async function findPromoCode(db: DbOrTx, params: { ownerId: string; id: string }) {
  const [row] = await db
    .select(promoColumns)
    .from(promoCodes)
    .where(and(eq(promoCodes.id, params.id), eq(promoCodes.ownerId, params.ownerId)))
    .limit(1);
  return row ?? null;
}

/** The code a buyer typed, looked up among the link owner's codes only. */
export async function findPromoCodeByCode(db: DbOrTx, params: { ownerId: string; code: string }) {
  const [row] = await db
    .select(promoColumns)
    .from(promoCodes)
    .where(and(eq(promoCodes.ownerId, params.ownerId), eq(promoCodes.code, params.code)))
    .limit(1);
  return row ?? null;
}

export async function insertPromoCode(db: DbOrTx, params: { ownerId: string } & PromoValues) {
  const [row] = await db.insert(promoCodes).values(params).returning(promoColumns);
  if (!row) throw new Error("promo code not inserted");
  return row;
}

export async function updatePromoCode(
  db: DbOrTx,
  params: { ownerId: string; id: string; set: Partial<PromoValues> },
) {
  const [row] = await db
    .update(promoCodes)
    .set({ ...params.set, updatedAt: new Date() })
    .where(and(eq(promoCodes.id, params.id), eq(promoCodes.ownerId, params.ownerId)))
    .returning(promoColumns);
  return row ?? null;
}

export async function deletePromoCode(db: DbOrTx, params: { ownerId: string; id: string }) {
  const rows = await db
    .delete(promoCodes)
    .where(and(eq(promoCodes.id, params.id), eq(promoCodes.ownerId, params.ownerId)))
    .returning({ id: promoCodes.id });
  return rows.length > 0;
}

/** Restrictions of the given codes, by code id; the codes were already read with their owner's id. */
export async function restrictionsOf(db: DbOrTx, params: { promoCodeIds: string[] }) {
  const out = new Map<string, string[]>();
  if (params.promoCodeIds.length === 0) return out;
  const rows = await db
    .select({ promoCodeId: promoCodeLinks.promoCodeId, linkId: promoCodeLinks.linkId })
    .from(promoCodeLinks)
    .where(inArray(promoCodeLinks.promoCodeId, params.promoCodeIds))
    .orderBy(asc(promoCodeLinks.linkId));
  for (const row of rows) out.set(row.promoCodeId, [...(out.get(row.promoCodeId) ?? []), row.linkId]);
  return out;
}

/** Replaces a code's restrictions; the caller has checked the code and the links are the owner's. */
export async function replaceRestrictions(db: DbOrTx, params: { promoCodeId: string; linkIds: string[] }) {
  await db.delete(promoCodeLinks).where(eq(promoCodeLinks.promoCodeId, params.promoCodeId));
  if (params.linkIds.length === 0) return;
  await db
    .insert(promoCodeLinks)
    .values(params.linkIds.map((linkId) => ({ promoCodeId: params.promoCodeId, linkId })));
}
