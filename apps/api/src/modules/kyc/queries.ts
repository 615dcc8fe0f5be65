import { randomUUID } from "node:crypto";
import { and, desc, eq, gt, like, lt } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { identityEvents, identitySessions, onboardingProfiles, users } from "../../db/schema/index.ts";

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

/** The row that holds the account's place while the provider is called (see PLACEHOLDER_PREFIX). */
export async function insertPlaceholder(
  db: DbOrTx,
  params: Pick<IdentitySessionRow, "userId" | "provider" | "firstName" | "lastName" | "vendorData">,
): Promise<{ id: string } | null> {
  const [row] = await db
    .insert(identitySessions)
    .values({ ...params, providerSessionId: `${PLACEHOLDER_PREFIX}${randomUUID()}`, url: "" })
    .returning({ id: identitySessions.id });
  return row ?? null;
}

const placeholderOf = (userId: string, id: string) =>
  and(eq(identitySessions.id, id), eq(identitySessions.userId, userId));

/** Gives the account its place back when the provider could not open the session. */
export async function deletePlaceholder(db: DbOrTx, userId: string, id: string): Promise<void> {
  await db.delete(identitySessions).where(placeholderOf(userId, id));
}

/** The placeholder becomes the provider's session; null if the account was deleted meanwhile. */
export async function fillPlaceholder(
  db: DbOrTx,
  userId: string,
  id: string,
  created: Pick<IdentitySessionRow, "providerSessionId" | "url" | "status">,
): Promise<IdentitySessionRow | null> {
  const [row] = await db
    .update(identitySessions)
    .set({ ...created, updatedAt: new Date() })
    .where(placeholderOf(userId, id))
    .returning();
  return row ?? null;
}

/** Records a delivery under its key; null when it was recorded before (a redelivery). */
export async function recordIdentityEvent(
  tx: DbOrTx,
  params: { provider: IdentitySessionRow["provider"]; eventKey: string; payload: unknown },
): Promise<{ id: string } | null> {
  const [recorded] = await tx
    .insert(identityEvents)
    .values(params)
    .onConflictDoNothing({ target: [identityEvents.provider, identityEvents.eventKey] })
    .returning({ id: identityEvents.id });
  return recorded ?? null;
}

/** The session a provider's event is about, locked for its update. */
export async function lockSessionByProviderId(
  tx: DbOrTx,
  provider: IdentitySessionRow["provider"],
  providerSessionId: string,
): Promise<IdentitySessionRow | null> {
  const [session] = await tx
    .select()
    .from(identitySessions)
    .where(
      and(eq(identitySessions.provider, provider), eq(identitySessions.providerSessionId, providerSessionId)),
    )
    .for("update");
  return session ?? null;
}

export async function linkEventToSession(tx: DbOrTx, eventId: string, sessionId: string): Promise<void> {
  await tx.update(identityEvents).set({ sessionId }).where(eq(identityEvents.id, eventId));
}

export async function updateSessionStatus(
  tx: DbOrTx,
  id: string,
  changes: Partial<Pick<IdentitySessionRow, "status" | "reason" | "reasonCode" | "decidedAt">>,
): Promise<void> {
  await tx
    .update(identitySessions)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(identitySessions.id, id));
}
