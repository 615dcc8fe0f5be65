import { and, count, eq, gt, gte, isNull } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { purchaseLinks } from "../../db/schema/index.ts";

/*
 * The library links' SQL (issue 21). Every read and write names the link by the hash of its token
 * or of its access, never by an id a caller could guess.
 */

/** Links sent to the address since `since` (the per-address limit). */
export async function linksSentSince(db: DbOrTx, params: { email: string; since: Date }): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(purchaseLinks)
    .where(and(eq(purchaseLinks.email, params.email), gte(purchaseLinks.createdAt, params.since)));
  return row?.n ?? 0;
}

export async function insertLink(
  db: DbOrTx,
  params: { email: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(purchaseLinks).values(params);
}

/** Spends an unused, unexpired link and gives it an access; the address, or null. */
export async function openLink(
  db: DbOrTx,
  params: { tokenHash: string; accessHash: string; accessExpiresAt: Date; now: Date },
): Promise<string | null> {
  const [row] = await db
    .update(purchaseLinks)
    .set({ usedAt: params.now, accessHash: params.accessHash, accessExpiresAt: params.accessExpiresAt })
    .where(
      and(
        eq(purchaseLinks.tokenHash, params.tokenHash),
        isNull(purchaseLinks.usedAt),
        gt(purchaseLinks.expiresAt, params.now),
      ),
    )
    .returning({ email: purchaseLinks.email });
  return row?.email ?? null;
}

/** The address a live library access is for, or null. */
export async function accessEmail(
  db: DbOrTx,
  params: { accessHash: string; now: Date },
): Promise<string | null> {
  const [row] = await db
    .select({ email: purchaseLinks.email })
    .from(purchaseLinks)
    .where(
      and(eq(purchaseLinks.accessHash, params.accessHash), gt(purchaseLinks.accessExpiresAt, params.now)),
    )
    .limit(1);
  return row?.email ?? null;
}

/** An account's deletion: its address's library links go (each names the address, nothing else). */
export async function deletePurchaseLinks(db: DbOrTx, email: string): Promise<void> {
  await db.delete(purchaseLinks).where(eq(purchaseLinks.email, email.toLowerCase()));
}
