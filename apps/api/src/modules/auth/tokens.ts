import { and, eq, gt, isNull } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { type UserTokenPurpose, userTokens } from "../../db/schema/index.ts";
import { hashToken, randomToken } from "../../lib/tokens.ts";

/** How long each e-mailed token stays valid. */
export const tokenTtlMs: Record<UserTokenPurpose, number> = {
  "verify-email": 48 * 60 * 60 * 1000,
  "reset-password": 60 * 60 * 1000,
  "delete-account": 60 * 60 * 1000,
};

/** A new single-use token; earlier unused tokens of the same purpose stop working. */
export async function issueUserToken(tx: DbOrTx, userId: string, purpose: UserTokenPurpose): Promise<string> {
  const now = new Date();
  await tx
    .update(userTokens)
    .set({ usedAt: now })
    .where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, purpose), isNull(userTokens.usedAt)));
  const token = randomToken();
  await tx.insert(userTokens).values({
    userId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + tokenTtlMs[purpose]),
  });
  return token;
}

/**
 * Uses a token once: one conditional update, so two concurrent uses cannot both succeed.
 * Answers the token's user, or null when it is unknown, used, expired or for another purpose.
 */
export async function consumeUserToken(
  tx: DbOrTx,
  token: string,
  purpose: UserTokenPurpose,
): Promise<string | null> {
  const now = new Date();
  const [row] = await tx
    .update(userTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(userTokens.tokenHash, hashToken(token)),
        eq(userTokens.purpose, purpose),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, now),
      ),
    )
    .returning({ userId: userTokens.userId });
  return row?.userId ?? null;
}
