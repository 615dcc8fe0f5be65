import { and, count, eq, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import {
  bankAccounts,
  campaigns,
  identitySessions,
  jobs,
  mailOutbox,
  onboardingProfiles,
  recoveryCodes,
  sessions,
  type UserTokenPurpose,
  users,
  userTokens,
} from "../../db/schema/index.ts";

export type UserRow = typeof users.$inferSelect;

// --- users -------------------------------------------------------------------------------------

export async function findUserByEmail(db: DbOrTx, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

export async function findUserById(db: DbOrTx, userId: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

export async function findPasswordHash(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.passwordHash ?? null;
}

export async function updatePasswordHash(db: DbOrTx, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
}

export async function updateLocale(db: DbOrTx, userId: string, locale: UserRow["locale"]): Promise<void> {
  await db.update(users).set({ locale, updatedAt: new Date() }).where(eq(users.id, userId));
}

/** The new account, or null when the address already has one (the row is then left as it is). */
export async function insertUserUnlessTaken(
  db: DbOrTx,
  values: {
    email: string;
    passwordHash: string;
    locale: UserRow["locale"];
    referredByCampaignId: string | null;
  },
) {
  const [created] = await db
    .insert(users)
    .values(values)
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id, email: users.email, locale: users.locale });
  return created ?? null;
}

/**
 * Marks the address confirmed with the sign-up's settings and ends any second factor, only while the
 * account is still unverified and not deleted; false when it no longer is.
 */
export async function markUserVerified(
  db: DbOrTx,
  userId: string,
  values: { passwordHash: string; locale: UserRow["locale"]; referredByCampaignId: string | null },
): Promise<boolean> {
  const [done] = await db
    .update(users)
    .set({
      emailVerifiedAt: new Date(),
      ...values,
      twoFactorSecret: null,
      twoFactorEnabledAt: null,
      twoFactorLastStep: null,
      updatedAt: new Date(),
    })
    .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt), isNull(users.deletedAt)))
    .returning({ id: users.id });
  return Boolean(done);
}

export async function findActiveCampaignId(db: DbOrTx, token: string): Promise<string | null> {
  const [row] = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.token, token), eq(campaigns.status, "active")))
    .limit(1);
  return row?.id ?? null;
}

// --- account deletion --------------------------------------------------------------------------

export async function findUserEmail(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}

/** E-mails sent or waiting for this address carry it in their job and outbox rows. */
export async function deleteMailTo(db: DbOrTx, email: string): Promise<void> {
  await db.delete(jobs).where(and(eq(jobs.kind, "mail.send"), sql`lower(${jobs.payload}->>'to') = ${email}`));
  await db.delete(mailOutbox).where(sql`lower(${mailOutbox.to}) = ${email}`);
}

/**
 * The account's personal data outside the users row: onboarding, the names sent to the identity
 * provider (their events go with them, by cascade), sealed IBANs (past payouts keep their own
 * snapshot as financial records), recovery codes and e-mailed tokens.
 */
export async function deletePersonalRows(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(onboardingProfiles).where(eq(onboardingProfiles.userId, userId));
  await db.delete(identitySessions).where(eq(identitySessions.userId, userId));
  await db.delete(bankAccounts).where(eq(bankAccounts.ownerId, userId));
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.delete(userTokens).where(eq(userTokens.userId, userId));
}

export async function anonymiseUser(
  db: DbOrTx,
  userId: string,
  values: { email: string; passwordHash: string },
): Promise<void> {
  await db
    .update(users)
    .set({
      ...values,
      twoFactorSecret: null,
      twoFactorEnabledAt: null,
      twoFactorLastStep: null,
      deletedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId));
}

// --- second factor -----------------------------------------------------------------------------

/** Moves the last accepted TOTP step forward only if it is still behind: one of concurrent uses wins. */
export async function advanceTotpStep(db: DbOrTx, userId: string, step: number): Promise<boolean> {
  const [row] = await db
    .update(users)
    .set({ twoFactorLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step))))
    .returning({ id: users.id });
  return Boolean(row);
}

const unusedRecoveryCode = (userId: string, codeHash: string) =>
  and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt));

/** Marks an unused recovery code used; false when there is none (one conditional update). */
export async function useRecoveryCode(db: DbOrTx, userId: string, codeHash: string): Promise<boolean> {
  const [used] = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(unusedRecoveryCode(userId, codeHash))
    .returning({ id: recoveryCodes.id });
  return Boolean(used);
}

export async function hasUnusedRecoveryCode(db: DbOrTx, userId: string, codeHash: string): Promise<boolean> {
  const [row] = await db
    .select({ id: recoveryCodes.id })
    .from(recoveryCodes)
    .where(unusedRecoveryCode(userId, codeHash));
  return Boolean(row);
}

export async function setPendingTotpSecret(db: DbOrTx, userId: string, sealedSecret: string): Promise<void> {
  await db
    .update(users)
    .set({ twoFactorSecret: sealedSecret, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

export async function markTwoFactorEnabled(db: DbOrTx, userId: string, step: number): Promise<void> {
  await db
    .update(users)
    .set({ twoFactorEnabledAt: new Date(), twoFactorLastStep: step, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

export async function clearTwoFactor(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ twoFactorSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

export async function deleteRecoveryCodes(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

export async function insertRecoveryCodes(db: DbOrTx, userId: string, codeHashes: string[]): Promise<void> {
  await db.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

// --- sessions ----------------------------------------------------------------------------------

const sessionUserColumns = {
  id: users.id,
  email: users.email,
  role: users.role,
  locale: users.locale,
  emailVerifiedAt: users.emailVerifiedAt,
  onboardingCompletedAt: users.onboardingCompletedAt,
  twoFactorEnabledAt: users.twoFactorEnabledAt,
  createdAt: users.createdAt,
};

export async function insertSession(
  db: DbOrTx,
  values: { userId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(sessions).values(values);
}

/** A live (unexpired) session and its user's columns, by the hash of its token. */
export async function findLiveSession(db: DbOrTx, tokenHash: string, now: Date) {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      lastUsedAt: sessions.lastUsedAt,
      signedInAt: sessions.createdAt,
      ...sessionUserColumns,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)))
    .limit(1);
  return row ?? null;
}

export async function renewSession(db: DbOrTx, sessionId: string, lastUsedAt: Date, expiresAt: Date) {
  await db.update(sessions).set({ lastUsedAt, expiresAt }).where(eq(sessions.id, sessionId));
}

export async function deleteSessionByHash(db: DbOrTx, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteSessionsOfUser(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export async function deleteSessionsExpiredBefore(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}

// --- e-mailed tokens ---------------------------------------------------------------------------

export async function insertUserToken(
  db: DbOrTx,
  values: {
    userId: string;
    purpose: UserTokenPurpose;
    tokenHash: string;
    expiresAt: Date;
    passwordHash?: string | null;
    locale?: UserRow["locale"] | null;
    campaignId?: string | null;
  },
): Promise<void> {
  await db.insert(userTokens).values(values);
}

export async function retireUnusedTokens(db: DbOrTx, userId: string, purpose: UserTokenPurpose) {
  await db
    .update(userTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, purpose), isNull(userTokens.usedAt)));
}

const liveToken = (tokenHash: string, purpose: UserTokenPurpose, now: Date) =>
  and(
    eq(userTokens.tokenHash, tokenHash),
    eq(userTokens.purpose, purpose),
    isNull(userTokens.usedAt),
    gt(userTokens.expiresAt, now),
  );

export async function findLiveToken(db: DbOrTx, tokenHash: string, purpose: UserTokenPurpose, now: Date) {
  const [live] = await db
    .select({ id: userTokens.id, userId: userTokens.userId, passwordHash: userTokens.passwordHash })
    .from(userTokens)
    .where(liveToken(tokenHash, purpose, now))
    .limit(1);
  return live ?? null;
}

/** How many verification links of the account were sent by a sign-up (bound to its password). */
export async function countSignupTokens(db: DbOrTx, userId: string): Promise<number> {
  const [signups] = await db
    .select({ n: count() })
    .from(userTokens)
    .where(
      and(
        eq(userTokens.userId, userId),
        eq(userTokens.purpose, "verify-email"),
        isNotNull(userTokens.passwordHash),
      ),
    );
  return signups?.n ?? 0;
}

/**
 * Spends a live token (optionally only the row `id`) in one conditional update, so two concurrent
 * uses cannot both succeed; answers what the token carried, or null.
 */
export async function spendLiveToken(
  db: DbOrTx,
  tokenHash: string,
  purpose: UserTokenPurpose,
  now: Date,
  id?: string,
) {
  const live = liveToken(tokenHash, purpose, now);
  const [row] = await db
    .update(userTokens)
    .set({ usedAt: now })
    .where(id === undefined ? live : and(eq(userTokens.id, id), live))
    .returning({
      userId: userTokens.userId,
      passwordHash: userTokens.passwordHash,
      locale: userTokens.locale,
      campaignId: userTokens.campaignId,
    });
  return row ?? null;
}
