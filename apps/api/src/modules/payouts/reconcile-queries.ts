import type { Currency } from "@salelink/contracts";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { connectBalanceMismatches, payouts, stripeConnectAccounts, users } from "../../db/schema/index.ts";

/* The reconciliation's SQL (issue 32): connected accounts, payouts in flight, mismatches found. */

export async function connectAccounts(db: DbOrTx) {
  return db
    .select({ userId: stripeConnectAccounts.userId, accountId: stripeConnectAccounts.accountId })
    .from(stripeConnectAccounts)
    .orderBy(stripeConnectAccounts.userId);
}

/**
 * What the user's Stripe payouts being processed and not yet paid out at Stripe add up to, per
 * currency: their transfer may be on the connected account (a submission interrupted between its
 * transfer and its payout). A payout made there took its money out of the balance.
 */
export async function inFlightOf(db: DbOrTx, userId: string): Promise<Map<Currency, number>> {
  const rows = await db
    .select({ currency: payouts.currency, total: sql<string>`sum(${payouts.amountMinor})` })
    .from(payouts)
    .where(
      and(
        eq(payouts.userId, userId),
        eq(payouts.provider, "stripe"),
        eq(payouts.status, "processing"),
        isNull(payouts.providerPayoutId),
      ),
    )
    .groupBy(payouts.currency);
  return new Map(rows.map((r) => [r.currency, Number(r.total)]));
}

/** Records (or refreshes) the open mismatch of an account and currency. */
export async function upsertMismatch(
  db: DbOrTx,
  row: {
    userId: string;
    accountId: string;
    currency: Currency;
    expectedMinor: number;
    actualMinor: number;
    reason: string | null;
  },
): Promise<void> {
  await db
    .insert(connectBalanceMismatches)
    .values(row)
    .onConflictDoUpdate({
      target: [connectBalanceMismatches.accountId, connectBalanceMismatches.currency],
      targetWhere: sql`${connectBalanceMismatches.resolvedAt} is null`,
      set: {
        expectedMinor: row.expectedMinor,
        actualMinor: row.actualMinor,
        checkedAt: sql`now()`,
        ...(row.reason ? { reason: row.reason } : {}),
      },
    });
}

/** Closes an account's open mismatch in a currency: a later run found it explained. */
export async function resolveMismatch(db: DbOrTx, accountId: string, currency: Currency): Promise<void> {
  await db
    .update(connectBalanceMismatches)
    .set({ resolvedAt: sql`now()` })
    .where(
      and(
        eq(connectBalanceMismatches.accountId, accountId),
        eq(connectBalanceMismatches.currency, currency),
        isNull(connectBalanceMismatches.resolvedAt),
        // One marked by a refused reversal stays until an operator settles the payout.
        isNull(connectBalanceMismatches.reason),
      ),
    );
}

/** The open mismatches, newest first, for the admin's payouts screen. */
export async function openMismatches(db: DbOrTx) {
  return db
    .select({
      id: connectBalanceMismatches.id,
      userId: connectBalanceMismatches.userId,
      email: users.email,
      accountId: connectBalanceMismatches.accountId,
      currency: connectBalanceMismatches.currency,
      expectedMinor: connectBalanceMismatches.expectedMinor,
      actualMinor: connectBalanceMismatches.actualMinor,
      reason: connectBalanceMismatches.reason,
      foundAt: connectBalanceMismatches.foundAt,
      checkedAt: connectBalanceMismatches.checkedAt,
    })
    .from(connectBalanceMismatches)
    .innerJoin(users, eq(users.id, connectBalanceMismatches.userId))
    .where(isNull(connectBalanceMismatches.resolvedAt))
    .orderBy(sql`${connectBalanceMismatches.foundAt} desc`);
}
