import type { DbOrTx } from "../../db/client.ts";
import { hashToken, randomToken } from "../../lib/tokens.ts";
import {
  deleteSessionByHash,
  deleteSessionsExpiredBefore,
  deleteSessionsOfUser,
  findLiveSession,
  insertSession,
  renewSession,
} from "./queries.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A session's expiry is pushed forward at most once an hour, so reads stay reads. */
const RENEW_AFTER_MS = 60 * 60 * 1000;

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
  await insertSession(db, {
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
  const row = await findLiveSession(db, hashToken(token), now);
  if (!row) return null;
  if (now.getTime() - row.lastUsedAt.getTime() > RENEW_AFTER_MS) {
    await renewSession(db, row.sessionId, now, new Date(now.getTime() + ttlDays * DAY_MS));
  }
  const { sessionId: _s, lastUsedAt: _l, ...user } = row;
  return user;
}

export async function deleteSession(db: DbOrTx, token: string): Promise<void> {
  await deleteSessionByHash(db, hashToken(token));
}

export async function deleteUserSessions(db: DbOrTx, userId: string): Promise<void> {
  await deleteSessionsOfUser(db, userId);
}

export async function deleteExpiredSessions(db: DbOrTx): Promise<void> {
  await deleteSessionsExpiredBefore(db, new Date());
}
