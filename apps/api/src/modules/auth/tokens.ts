import type { Locale } from "@salelink/contracts";
import type { DbOrTx } from "../../db/client.ts";
import type { UserTokenPurpose } from "../../db/schema/index.ts";
import { hashToken, randomToken } from "../../lib/tokens.ts";
import {
  countSignupTokens,
  findLiveToken,
  insertUserToken,
  retireUnusedTokens,
  spendLiveToken,
} from "./queries.ts";

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
  await insertUserToken(tx, {
    userId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + tokenTtlMs[purpose]),
    ...binding,
  });
  return token;
}

export async function retireUserTokens(tx: DbOrTx, userId: string, purpose: UserTokenPurpose): Promise<void> {
  await retireUnusedTokens(tx, userId, purpose);
}

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
  const live = await findLiveToken(tx, hashToken(token), "verify-email", now);
  if (!live) return { kind: "invalid" };
  if (!passwordGiven) {
    if (!live.passwordHash) return { kind: "needs-password" };
    if ((await countSignupTokens(tx, live.userId)) > 1) return { kind: "needs-password" };
  }
  const row = await spendLiveToken(tx, hashToken(token), "verify-email", now, live.id);
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
  const row = await spendLiveToken(tx, hashToken(token), purpose, new Date());
  return row?.userId ?? null;
}
