import { and, desc, eq, gt, like, lt } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { identitySessions, onboardingProfiles, users } from "../../db/schema/index.ts";

export type IdentitySessionRow = typeof identitySessions.$inferSelect;

/**
 * A session being opened at the provider: its row holds the account's place (daily count, one
 * unfinished session) while the provider is called outside any transaction, and gets the provider's
 * id and address afterwards.
 */
export const PLACEHOLDER_PREFIX = "pending:";
export const isPlaceholder = (row: Pick<IdentitySessionRow, "providerSessionId">): boolean =>
  row.providerSessionId.startsWith(PLACEHOLDER_PREFIX);

/** Whether any of the account's identity checks was approved (payouts require one). */
export async function identityApproved(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: identitySessions.id })
    .from(identitySessions)
    .where(and(eq(identitySessions.userId, userId), eq(identitySessions.status, "approved")))
    .limit(1);
  return row !== undefined;
}

/** The account's sessions created since `since`, newest first. */
export function sessionsSince(db: DbOrTx, userId: string, since: Date): Promise<IdentitySessionRow[]> {
  return db
    .select()
    .from(identitySessions)
    .where(and(eq(identitySessions.userId, userId), gt(identitySessions.createdAt, since)))
    .orderBy(desc(identitySessions.createdAt));
}

/** The account's newest session that reached the provider, if any. */
export async function latestSession(db: DbOrTx, userId: string): Promise<IdentitySessionRow | null> {
  const rows = await db
    .select()
    .from(identitySessions)
    .where(eq(identitySessions.userId, userId))
    .orderBy(desc(identitySessions.createdAt));
  return rows.find((row) => !isPlaceholder(row)) ?? null;
}

/** One of the account's sessions; another account's answers null, like a missing one. */
export async function ownSession(db: DbOrTx, userId: string, id: string): Promise<IdentitySessionRow | null> {
  const [row] = await db
    .select()
    .from(identitySessions)
    .where(and(eq(identitySessions.id, id), eq(identitySessions.userId, userId)));
  return row ?? null;
}

/** The first and last names the account gave at onboarding (none for a professional account). */
export async function namesOnFile(
  db: DbOrTx,
  userId: string,
): Promise<{ firstName: string; lastName: string } | null> {
  const [row] = await db
    .select({ firstName: onboardingProfiles.firstName, lastName: onboardingProfiles.lastName })
    .from(onboardingProfiles)
    .where(eq(onboardingProfiles.userId, userId));
  const firstName = row?.firstName?.trim();
  const lastName = row?.lastName?.trim();
  return firstName && lastName ? { firstName, lastName } : null;
}

/** Takes the account's row lock: session starts of one account run one at a time. */
export async function lockAccount(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
  return row !== undefined;
}

/** Forgets placeholders left behind by a process that stopped while calling the provider. */
export async function deleteStalePlaceholders(db: DbOrTx, userId: string, olderThan: Date): Promise<void> {
  await db
    .delete(identitySessions)
    .where(
      and(
        eq(identitySessions.userId, userId),
        like(identitySessions.providerSessionId, `${PLACEHOLDER_PREFIX}%`),
        lt(identitySessions.createdAt, olderThan),
      ),
    );
}
