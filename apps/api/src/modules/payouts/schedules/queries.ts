import type { Currency } from "@salelink/contracts";
import { and, eq, gte, inArray, isNotNull, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../../db/client.ts";
import { ledgerBalances, payoutSchedules, payouts, users } from "../../../db/schema/index.ts";

/* Payout schedules' SQL: one row per account with a schedule (none: on request). */

export type ScheduleRow = typeof payoutSchedules.$inferSelect;

export async function scheduleOf(db: DbOrTx, userId: string): Promise<ScheduleRow | null> {
  const [row] = await db.select().from(payoutSchedules).where(eq(payoutSchedules.userId, userId));
  return row ?? null;
}

/** The schedule, its row locked: one run of an account's schedule at a time, and none during a change. */
export async function lockSchedule(tx: Tx, userId: string): Promise<ScheduleRow | null> {
  const [row] = await tx
    .select()
    .from(payoutSchedules)
    .where(eq(payoutSchedules.userId, userId))
    .for("update");
  return row ?? null;
}

/** A new or changed schedule starts afresh: what blocked the old one is forgotten. */
export async function saveSchedule(
  db: DbOrTx,
  values: Pick<ScheduleRow, "userId" | "kind" | "weekday" | "dayOfMonth" | "thresholdMinor">,
): Promise<ScheduleRow> {
  const now = new Date();
  const changes = { ...values, blocked: [], blockedAt: null, updatedAt: now };
  const [row] = await db
    .insert(payoutSchedules)
    .values(changes)
    .onConflictDoUpdate({ target: payoutSchedules.userId, set: changes })
    .returning();
  if (!row) throw new Error("payout schedule not saved");
  return row;
}

export async function deleteSchedule(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(payoutSchedules).where(eq(payoutSchedules.userId, userId));
}

/** What kept the last due run from paying, and when it first did; `updated_at` is the creator's change only. */
export async function setBlocked(
  db: DbOrTx,
  userId: string,
  blocked: string[],
  blockedAt: Date | null,
): Promise<void> {
  await db.update(payoutSchedules).set({ blocked, blockedAt }).where(eq(payoutSchedules.userId, userId));
}

export async function setLastRun(db: DbOrTx, userId: string, at: Date): Promise<void> {
  await db.update(payoutSchedules).set({ lastRunAt: at }).where(eq(payoutSchedules.userId, userId));
}

/**
 * The schedules with a currency's available balance at or above `floor` (and their own threshold):
 * the only ones a run could pay, with those balances.
 */
export async function schedulesWithBalance(db: DbOrTx, floor: number) {
  return db
    .select({
      userId: payoutSchedules.userId,
      kind: payoutSchedules.kind,
      weekday: payoutSchedules.weekday,
      dayOfMonth: payoutSchedules.dayOfMonth,
      thresholdMinor: payoutSchedules.thresholdMinor,
      updatedAt: payoutSchedules.updatedAt,
      currency: ledgerBalances.currency,
    })
    .from(payoutSchedules)
    .innerJoin(
      ledgerBalances,
      and(eq(ledgerBalances.ownerId, payoutSchedules.userId), eq(ledgerBalances.account, "available")),
    )
    .where(
      and(
        gte(ledgerBalances.balanceMinor, floor),
        gte(ledgerBalances.balanceMinor, sql`coalesce(${payoutSchedules.thresholdMinor}, 0)`),
      ),
    );
}

/** The (account, currency) pairs already paid in one of these periods. */
export async function periodsTaken(
  db: DbOrTx,
  userIds: string[],
  periods: string[],
): Promise<{ userId: string; currency: Currency; schedulePeriod: string | null }[]> {
  if (userIds.length === 0 || periods.length === 0) return [];
  return db
    .select({ userId: payouts.userId, currency: payouts.currency, schedulePeriod: payouts.schedulePeriod })
    .from(payouts)
    .where(
      and(
        inArray(payouts.userId, userIds),
        isNotNull(payouts.schedulePeriod),
        inArray(payouts.schedulePeriod, periods),
      ),
    );
}

/** The account's currencies paid in this period already. */
export async function currenciesPaidIn(db: DbOrTx, userId: string, period: string): Promise<Currency[]> {
  const rows = await db
    .select({ currency: payouts.currency })
    .from(payouts)
    .where(and(eq(payouts.userId, userId), eq(payouts.schedulePeriod, period)));
  return rows.map((r) => r.currency);
}

export async function scheduleOwner(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      locale: users.locale,
      onboardingCompletedAt: users.onboardingCompletedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}
