import { and, eq, gt, lt } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { sessions, users } from "../../db/schema/index.ts";
import { hashToken, randomToken } from "../../lib/tokens.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A session's expiry is pushed forward at most once an hour, so reads stay reads. */
const RENEW_AFTER_MS = 60 * 60 * 1000;

export const sessionUserColumns = {
  id: users.id,
  email: users.email,
  role: users.role,
  locale: users.locale,
  emailVerifiedAt: users.emailVerifiedAt,
  onboardingCompletedAt: users.onboardingCompletedAt,
  twoFactorEnabledAt: users.twoFactorEnabledAt,
  createdAt: users.createdAt,
};
export type SessionUser = {
  id: string;
  email: string;
  role: "user" | "admin";
  locale: "en" | "fr" | "es";
  emailVerifiedAt: Date | null;
  onboardingCompletedAt: Date | null;
  twoFactorEnabledAt: Date | null;
  createdAt: Date;
  /** When this session was opened by a sign-in: a recent one stands in for the password (re-authentication). */
  signedInAt: Date;
};

export async function createSession(db: DbOrTx, userId: string, ttlDays: number): Promise<string> {
  const token = randomToken();
  await db.insert(sessions).values({
    userId,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + ttlDays * DAY_MS),
  });
  return token;
}

/** The user of a live session, renewing the session when it has not been used for an hour. */
export async function findSessionUser(
  db: DbOrTx,
  token: string,
  ttlDays: number,
): Promise<SessionUser | null> {
  const now = new Date();
  const [row] = await db
    .select({
      sessionId: sessions.id,
      lastUsedAt: sessions.lastUsedAt,
      signedInAt: sessions.createdAt,
      ...sessionUserColumns,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row) return null;
  if (now.getTime() - row.lastUsedAt.getTime() > RENEW_AFTER_MS) {
    await db
      .update(sessions)
      .set({ lastUsedAt: now, expiresAt: new Date(now.getTime() + ttlDays * DAY_MS) })
      .where(eq(sessions.id, row.sessionId));
  }
  const { sessionId: _s, lastUsedAt: _l, ...user } = row;
  return user;
}

export async function deleteSession(db: DbOrTx, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

export async function deleteUserSessions(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export async function deleteExpiredSessions(db: DbOrTx): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
}
