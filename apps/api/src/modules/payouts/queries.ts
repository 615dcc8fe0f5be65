import type { AdminPayout, Currency, Payout, PayoutProviderKind, PayoutStatus } from "@salelink/contracts";
import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { bankAccounts, ledgerBalances, payouts, users } from "../../db/schema/index.ts";
import { identityApproved } from "../kyc/queries.ts";

/*
 * Reads of payouts. The owner's id is in every where of what a user sees; the admin queue reads
 * across accounts, behind the admin rule of its routes.
 */

/** "FR•• •••• 1234": the country and the last four characters, enough to recognise it, not to use it. */
export const maskIban = (country: string, last4: string) => `${country}•• •••• ${last4}`;

export type PayoutRow = typeof payouts.$inferSelect;

/** A payout is open from its request until it is paid or failed: at most one per account. */
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
        eq(ledgerBalances.holder, userId),
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
    .where(and(eq(ledgerBalances.holder, userId), eq(ledgerBalances.account, "available")))
    .orderBy(ledgerBalances.currency);
  return rows;
}

export async function openPayoutOf(db: DbOrTx, userId: string): Promise<PayoutRow | null> {
  const [row] = await db
    .select()
    .from(payouts)
    .where(and(eq(payouts.userId, userId), inArray(payouts.status, [...openStatuses])))
    .limit(1);
  return row ?? null;
}

export async function hasBankAccount(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: bankAccounts.id })
    .from(bankAccounts)
    .where(eq(bankAccounts.ownerId, userId))
    .limit(1);
  return row !== undefined;
}

/** Newest first; the cursor is the last item's id, read within the same owner's payouts. */
function after(cursor: string | undefined, userId?: string): SQL | undefined {
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

async function toAdminPayouts(
  db: DbOrTx,
  rows: {
    payout: PayoutRow;
    email: string;
    onboardingCompletedAt: Date | null;
    bankAccountOnFile: boolean;
  }[],
): Promise<AdminPayout[]> {
  // The identity rule is the identity module's own: asked per payee, at most a page of them.
  const payees = [...new Set(rows.map((r) => r.payout.userId))];
  const approved = new Map(
    await Promise.all(payees.map(async (id) => [id, await identityApproved(db, id)] as const)),
  );
  return rows.map((r) => ({
    ...toPayout(r.payout),
    user: { id: r.payout.userId, email: r.email },
    identityApproved: approved.get(r.payout.userId) ?? false,
    onboardingCompleted: r.onboardingCompletedAt !== null,
    bankAccountOnFile: r.bankAccountOnFile,
    provider: r.payout.provider satisfies PayoutProviderKind,
    providerPayoutId: r.payout.providerPayoutId,
  }));
}

function adminRows(db: DbOrTx) {
  return db
    .select({
      payout: payouts,
      email: users.email,
      onboardingCompletedAt: users.onboardingCompletedAt,
      bankAccountOnFile: sql<boolean>`exists (select 1 from bank_accounts b where b.id = ${payouts.bankAccountId} and b.owner_id = ${payouts.userId})`,
    })
    .from(payouts)
    .innerJoin(users, eq(users.id, payouts.userId));
}

/** The admin queue, newest first, with what an operator checks before paying. */
export async function adminPayouts(
  db: DbOrTx,
  query: { status?: PayoutStatus; cursor?: string; limit: number },
): Promise<{ items: AdminPayout[]; nextCursor: string | null }> {
  const rows = await adminRows(db)
    .where(and(query.status ? eq(payouts.status, query.status) : undefined, after(query.cursor)))
    .orderBy(desc(payouts.requestedAt), desc(payouts.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    items: await toAdminPayouts(db, page),
    nextCursor: rows.length > query.limit ? (page.at(-1)?.payout.id ?? null) : null,
  };
}

export async function adminPayoutById(db: DbOrTx, id: string): Promise<AdminPayout | null> {
  const rows = await adminRows(db).where(eq(payouts.id, id));
  const [item] = await toAdminPayouts(db, rows);
  return item ?? null;
}
