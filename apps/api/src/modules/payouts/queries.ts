import type {
  Currency,
  Payout,
  PayoutOrigin,
  PayoutProviderKind,
  PayoutRiskRule,
  PayoutStatus,
} from "@salelink/contracts";
import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { ledgerBalances, payoutEvents, payouts, stripeConnectAccounts } from "../../db/schema/index.ts";

/*
 * Payouts' SQL. The owner's id is in every where of what a user sees; the transitions work on one
 * payout by its id, under the row lock its service takes; the admin queue's reads are in admin/.
 */

/** "FR•• •••• 1234": the country and the last four characters, enough to recognise it, not to use it. */
export const maskIban = (country: string, last4: string) => `${country}•• •••• ${last4}`;

/**
 * Any kind of account, masked: an IBAN as above; a British one by its sort code ("20-00-00 •••• 5678"),
 * an American one by its routing number ("110000000 •••• 5678"): the bank in clear, the account not.
 */
export function maskAccount(row: {
  kind: string;
  ibanCountry: string;
  ibanLast4: string;
  bankCode: string | null;
}) {
  if (row.kind === "gb" && row.bankCode)
    return `${row.bankCode.replace(/(\d{2})(?=\d)/g, "$1-")} •••• ${row.ibanLast4}`;
  if (row.kind === "us" && row.bankCode) return `${row.bankCode} •••• ${row.ibanLast4}`;
  return maskIban(row.ibanCountry, row.ibanLast4);
}

export type PayoutRow = typeof payouts.$inferSelect;

/** A payout is open from its request until it is paid or failed: at most one per account and currency. */
export const openStatuses: readonly PayoutStatus[] = ["requested", "processing"];

export function toPayout(row: PayoutRow): Payout {
  return {
    id: row.id,
    status: row.status,
    amount: row.amountMinor,
    currency: row.currency,
    bankAccount: {
      id: row.bankAccountId,
      holderName: row.holderName,
      ibanMasked: maskIban(row.ibanCountry, row.ibanLast4),
    },
    failureReason: row.failureReason,
    origin: row.origin,
    heldRules: row.heldRules,
    bankReference: row.bankReference,
    requestedAt: row.requestedAt.toISOString(),
    processingAt: row.processingAt?.toISOString() ?? null,
    paidAt: row.paidAt?.toISOString() ?? null,
    failedAt: row.failedAt?.toISOString() ?? null,
  };
}

/** What the user can withdraw now in `currency` (minor units). */
export async function availableOf(db: DbOrTx, userId: string, currency: Currency): Promise<number> {
  const [row] = await db
    .select({ balance: ledgerBalances.balanceMinor })
    .from(ledgerBalances)
    .where(
      and(
        eq(ledgerBalances.ownerId, userId),
        eq(ledgerBalances.account, "available"),
        eq(ledgerBalances.currency, currency),
      ),
    );
  return row?.balance ?? 0;
}

export async function availableBalances(
  db: DbOrTx,
  userId: string,
): Promise<{ currency: Currency; amount: number }[]> {
  const rows = await db
    .select({ currency: ledgerBalances.currency, amount: ledgerBalances.balanceMinor })
    .from(ledgerBalances)
    .where(and(eq(ledgerBalances.ownerId, userId), eq(ledgerBalances.account, "available")))
    .orderBy(ledgerBalances.currency);
  return rows;
}

/** The open payout in `currency` (at most one), or the first open one in any currency. */
export async function openPayoutOf(
  db: DbOrTx,
  userId: string,
  currency?: Currency,
): Promise<PayoutRow | null> {
  const [row] = await db
    .select()
    .from(payouts)
    .where(
      and(
        eq(payouts.userId, userId),
        inArray(payouts.status, [...openStatuses]),
        currency ? eq(payouts.currency, currency) : undefined,
      ),
    )
    .orderBy(payouts.currency)
    .limit(1);
  return row ?? null;
}

/** Every open payout of the account, one per currency at most. */
export async function openPayoutsOf(db: DbOrTx, userId: string): Promise<PayoutRow[]> {
  return db
    .select()
    .from(payouts)
    .where(and(eq(payouts.userId, userId), inArray(payouts.status, [...openStatuses])))
    .orderBy(payouts.currency);
}

/** The owner's payout (null when it is someone else's or does not exist). */
export async function ownPayout(db: DbOrTx, userId: string, id: string): Promise<PayoutRow | null> {
  const [row] = await db
    .select()
    .from(payouts)
    .where(and(eq(payouts.id, id), eq(payouts.userId, userId)));
  return row ?? null;
}

/** Newest first; the cursor is the last item's id, read within the same owner's payouts. */
export function after(cursor: string | undefined, userId?: string): SQL | undefined {
  if (!cursor) return undefined;
  const owner = userId ? sql`and p2.user_id = ${userId}` : sql``;
  return sql`(${payouts.requestedAt}, ${payouts.id}) < (select p2.requested_at, p2.id from payouts p2 where p2.id = ${cursor} ${owner})`;
}

export async function transfersOf(
  db: DbOrTx,
  userId: string,
  query: { cursor?: string; limit: number },
): Promise<{ items: Payout[]; nextCursor: string | null }> {
  const rows = await db
    .select()
    .from(payouts)
    .where(and(eq(payouts.userId, userId), after(query.cursor, userId)))
    .orderBy(desc(payouts.requestedAt), desc(payouts.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    items: page.map(toPayout),
    nextCursor: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

// --- Writes: a request, and the transitions of one payout (its row locked by the caller) ---------

export async function insertPayout(
  tx: DbOrTx,
  values: {
    userId: string;
    bankAccountId: string;
    holderName: string;
    ibanCountry: string;
    ibanLast4: string;
    amountMinor: number;
    currency: Currency;
    provider: PayoutProviderKind;
    origin?: PayoutOrigin;
    schedulePeriod?: string;
  },
): Promise<PayoutRow> {
  const [row] = await tx.insert(payouts).values(values).returning();
  if (!row) throw new Error("payout not inserted");
  return row;
}

/**
 * A payout started by a schedule, or null when the period already has one (or a payout in that
 * currency is open): the unique indexes decide, so two workers running the same period make one.
 */
export async function insertScheduledPayout(
  tx: DbOrTx,
  values: Parameters<typeof insertPayout>[1] & { schedulePeriod: string },
): Promise<PayoutRow | null> {
  const [row] = await tx
    .insert(payouts)
    .values({ ...values, origin: "schedule" })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

export async function setHeldRules(
  tx: DbOrTx,
  id: string,
  rules: PayoutRiskRule[],
): Promise<PayoutRow | null> {
  const [row] = await tx
    .update(payouts)
    .set({ heldRules: rules, updatedAt: new Date() })
    .where(eq(payouts.id, id))
    .returning();
  return row ?? null;
}

export async function setBankReference(tx: DbOrTx, id: string, bankReference: string): Promise<void> {
  await tx.update(payouts).set({ bankReference, updatedAt: new Date() }).where(eq(payouts.id, id));
}

/** The payout, its row locked until the transaction ends. */
export async function lockPayoutRow(tx: Tx, id: string): Promise<PayoutRow | null> {
  const [row] = await tx.select().from(payouts).where(eq(payouts.id, id)).for("update");
  return row ?? null;
}

export async function setProcessing(tx: DbOrTx, id: string, at: Date): Promise<PayoutRow | null> {
  const [updated] = await tx
    .update(payouts)
    .set({ status: "processing", processingAt: at, updatedAt: at })
    .where(eq(payouts.id, id))
    .returning();
  return updated ?? null;
}

export async function setPaid(tx: DbOrTx, id: string, at: Date): Promise<void> {
  await tx
    .update(payouts)
    .set({ status: "paid", paidAt: at, updatedAt: new Date() })
    .where(eq(payouts.id, id));
}

export async function setFailed(tx: DbOrTx, id: string, reason: string, at: Date): Promise<void> {
  await tx
    .update(payouts)
    .set({ status: "failed", failureReason: reason, failedAt: at, updatedAt: new Date() })
    .where(eq(payouts.id, id));
}

export async function setProviderPayoutId(tx: DbOrTx, id: string, providerPayoutId: string): Promise<void> {
  await tx.update(payouts).set({ providerPayoutId, updatedAt: new Date() }).where(eq(payouts.id, id));
}

// --- The provider's side: its connected accounts and the outcomes it reports --------------------

export async function connectAccountOf(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ accountId: stripeConnectAccounts.accountId })
    .from(stripeConnectAccounts)
    .where(eq(stripeConnectAccounts.userId, userId));
  return row?.accountId ?? null;
}

export async function saveConnectAccount(db: DbOrTx, userId: string, accountId: string): Promise<void> {
  await db.insert(stripeConnectAccounts).values({ userId, accountId }).onConflictDoNothing();
}

/** Whether the user's connected account was set to pay out only when asked (issue 32). */
export async function manualPayoutsSet(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ at: stripeConnectAccounts.manualPayoutsAt })
    .from(stripeConnectAccounts)
    .where(eq(stripeConnectAccounts.userId, userId));
  return row?.at != null;
}

export async function markManualPayouts(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(stripeConnectAccounts)
    .set({ manualPayoutsAt: new Date() })
    .where(eq(stripeConnectAccounts.userId, userId));
}

/** Records a provider's event once: the new row's id, or null when it was already recorded. */
export async function recordPayoutEvent(
  tx: DbOrTx,
  event: { provider: PayoutProviderKind; eventId: string; type: string; payload: unknown },
): Promise<string | null> {
  const [recorded] = await tx
    .insert(payoutEvents)
    .values(event)
    .onConflictDoNothing({ target: [payoutEvents.provider, payoutEvents.eventId] })
    .returning({ id: payoutEvents.id });
  return recorded?.id ?? null;
}

export async function linkPayoutEvent(tx: DbOrTx, eventRowId: string, payoutId: string): Promise<void> {
  await tx.update(payoutEvents).set({ payoutId }).where(eq(payoutEvents.id, eventRowId));
}

/** The provider's payout that an event is about: by our id when it carries one, else by the provider's. */
export async function payoutIdForEvent(
  tx: DbOrTx,
  provider: PayoutProviderKind,
  ours: string | null,
  providerPayoutId: string,
): Promise<string | null> {
  const [found] = await tx
    .select({ id: payouts.id })
    .from(payouts)
    .where(
      and(
        eq(payouts.provider, provider),
        ours ? eq(payouts.id, ours) : eq(payouts.providerPayoutId, providerPayoutId),
      ),
    );
  return found?.id ?? null;
}
