import type { Locale } from "@salelink/contracts";
import { and, count, eq, gt, isNotNull, isNull } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { type UserTokenPurpose, userTokens } from "../../db/schema/index.ts";
import { hashToken, randomToken } from "../../lib/tokens.ts";

/** How long each e-mailed token stays valid. */
export const tokenTtlMs: Record<UserTokenPurpose, number> = {
  "verify-email": 48 * 60 * 60 * 1000,
  "reset-password": 60 * 60 * 1000,
  "delete-account": 60 * 60 * 1000,
};

/** What a verification link carries from the sign-up that asked for it (see `userTokens`). */
export interface SignupBinding {
  passwordHash: string | null;
  locale: Locale | null;
  campaignId: string | null;
}

/**
 * A new single-use token; earlier unused tokens of the same purpose stop working, except
 * verification links: anyone may sign up with or ask a link for any unverified address, and that
 * must not kill the link its owner is about to follow (they all end when one is used).
 */
export async function issueUserToken(
  tx: DbOrTx,
  userId: string,
  purpose: UserTokenPurpose,
  binding?: SignupBinding,
): Promise<string> {
  const now = new Date();
  if (purpose !== "verify-email") await retireUserTokens(tx, userId, purpose);
  const token = randomToken();
  await tx.insert(userTokens).values({
    userId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + tokenTtlMs[purpose]),
    ...binding,
  });
  return token;
}

export async function retireUserTokens(tx: DbOrTx, userId: string, purpose: UserTokenPurpose): Promise<void> {
  await tx
    .update(userTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, purpose), isNull(userTokens.usedAt)));
}

const liveToken = (token: string, purpose: UserTokenPurpose, now: Date) =>
  and(
    eq(userTokens.tokenHash, hashToken(token)),
    eq(userTokens.purpose, purpose),
    isNull(userTokens.usedAt),
    gt(userTokens.expiresAt, now),
  );

export type VerificationUse =
  | { kind: "used"; userId: string; binding: SignupBinding }
  /** The follower must choose the password (see below): nothing was spent. */
  | { kind: "needs-password" }
  | { kind: "invalid" };

/**
 * Uses a verification token once (a conditional update, like `consumeUserToken`). Without a
 * password from the caller, it is spent only when it is bound to a sign-up and that sign-up is the
 * address's only one: a link sent on request, or one of several sign-ups (someone else's perhaps),
 * asks whoever follows it to choose the password.
 */
export async function consumeVerificationToken(
  tx: DbOrTx,
  token: string,
  passwordGiven: boolean,
): Promise<VerificationUse> {
  const now = new Date();
  const [live] = await tx
    .select({ id: userTokens.id, userId: userTokens.userId, passwordHash: userTokens.passwordHash })
    .from(userTokens)
    .where(liveToken(token, "verify-email", now))
    .limit(1);
  if (!live) return { kind: "invalid" };
  if (!passwordGiven) {
    if (!live.passwordHash) return { kind: "needs-password" };
    const [signups] = await tx
      .select({ n: count() })
      .from(userTokens)
      .where(
        and(
          eq(userTokens.userId, live.userId),
          eq(userTokens.purpose, "verify-email"),
          isNotNull(userTokens.passwordHash),
        ),
      );
    if ((signups?.n ?? 0) > 1) return { kind: "needs-password" };
  }
  const [row] = await tx
    .update(userTokens)
    .set({ usedAt: now })
    .where(and(eq(userTokens.id, live.id), liveToken(token, "verify-email", now)))
    .returning({
      userId: userTokens.userId,
      passwordHash: userTokens.passwordHash,
      locale: userTokens.locale,
      campaignId: userTokens.campaignId,
    });
  if (!row) return { kind: "invalid" };
  const { userId, ...binding } = row;
  return { kind: "used", userId, binding };
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
    .where(liveToken(token, purpose, now))
    .returning({ userId: userTokens.userId });
  return row?.userId ?? null;
}
