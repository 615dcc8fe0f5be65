import type { Currency } from "@salelink/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import {
  type LedgerAccount,
  ledgerBalances,
  ledgerEntries,
  ledgerTransactions,
  nonNegativeAccounts,
} from "../../db/schema/index.ts";
import { AppError } from "../../lib/errors.ts";

/*
 * The one way money moves (DESIGN section 4): `post` writes a transaction of entries that sum to
 * zero per currency, and updates the running balances, inside the caller's database transaction, so
 * the state change that causes a movement and the movement commit together or not at all.
 */

export interface EntryInput {
  account: LedgerAccount;
  /** The user whose account it is; null for the platform's accounts. */
  ownerId: string | null;
  currency: Currency;
  amountMinor: number;
  /** Held money: when it becomes available. */
  availableAt?: Date | null;
}

export interface Posting {
  kind: string;
  /** With `kind`, identifies the event: posting the same pair again changes nothing. */
  reference: string;
  memo?: Record<string, string | number | null>;
  entries: EntryInput[];
}

export class LedgerImbalanceError extends Error {}

const platformAccounts: readonly LedgerAccount[] = ["platform_fees", "provider", "buyer_refunds"];
export const PLATFORM = "platform";

/** Refuses a posting that would not balance, or that puts a user's money in the platform's accounts. */
export function assertBalanced(posting: Posting): void {
  if (posting.entries.length < 2) throw new LedgerImbalanceError(`${posting.kind}: fewer than two entries`);
  const sums = new Map<Currency, number>();
  for (const e of posting.entries) {
    if (!Number.isSafeInteger(e.amountMinor) || e.amountMinor === 0) {
      throw new LedgerImbalanceError(`${posting.kind}: amount ${e.amountMinor} is not a non-zero integer`);
    }
    const platform = platformAccounts.includes(e.account);
    if (platform !== (e.ownerId === null)) {
      throw new LedgerImbalanceError(`${posting.kind}: account ${e.account} with owner ${e.ownerId}`);
    }
    sums.set(e.currency, (sums.get(e.currency) ?? 0) + e.amountMinor);
  }
  for (const [currency, sum] of sums) {
    if (sum !== 0) throw new LedgerImbalanceError(`${posting.kind}: ${currency} entries sum to ${sum}`);
  }
}

/** PostgreSQL's check_violation, from PGlite or node-postgres, possibly wrapped by drizzle. */
function isCheckViolation(err: unknown, constraint: string): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const pgErr = e as Error & { code?: string; constraint?: string };
    if (pgErr.code === "23514") return pgErr.constraint === undefined || pgErr.constraint === constraint;
  }
  return false;
}

export const insufficientFunds = () =>
  new AppError("ConflictException", "There is not enough money in this balance for that.");

/**
 * Posts once: answers `created: false` (and writes nothing) when this kind and reference were
 * already posted. Throws the insufficient-funds conflict, rolling back the caller's transaction,
 * when a balance that may not go negative would.
 */
export async function post(
  tx: DbOrTx,
  posting: Posting,
): Promise<{ transactionId: string; created: boolean }> {
  assertBalanced(posting);
  const [inserted] = await tx
    .insert(ledgerTransactions)
    .values({ kind: posting.kind, reference: posting.reference, memo: posting.memo ?? {} })
    .onConflictDoNothing({ target: [ledgerTransactions.kind, ledgerTransactions.reference] })
    .returning({ id: ledgerTransactions.id });
  if (!inserted) {
    const [existing] = await tx
      .select({ id: ledgerTransactions.id })
      .from(ledgerTransactions)
      .where(
        and(eq(ledgerTransactions.kind, posting.kind), eq(ledgerTransactions.reference, posting.reference)),
      );
    return { transactionId: existing?.id ?? "", created: false };
  }
  await tx.insert(ledgerEntries).values(
    posting.entries.map((e) => ({
      transactionId: inserted.id,
      account: e.account,
      ownerId: e.ownerId,
      currency: e.currency,
      amountMinor: e.amountMinor,
      availableAt: e.availableAt ?? null,
    })),
  );

  const deltas = new Map<
    string,
    { holder: string; account: LedgerAccount; currency: Currency; delta: number }
  >();
  for (const e of posting.entries) {
    // The platform's accounts keep no running balance: every sale touches them, and one row for all
    // sales would serialise every payment. They may go negative anyway; their sums come from entries.
    if (e.ownerId === null) continue;
    const holder = e.ownerId;
    const key = `${holder}|${e.account}|${e.currency}`;
    const row = deltas.get(key) ?? { holder, account: e.account, currency: e.currency, delta: 0 };
    row.delta += e.amountMinor;
    deltas.set(key, row);
  }
  // Always in the same order, so two postings touching the same balances cannot deadlock.
  const ordered = [...deltas.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  try {
    for (const d of ordered) {
      if (d.delta === 0) continue;
      // Update first: an INSERT … ON CONFLICT checks the proposed row (the bare delta, negative for a
      // debit) before it finds the conflict. The insert covers the first movement of an account.
      const updated = await tx
        .update(ledgerBalances)
        .set({ balanceMinor: sql`${ledgerBalances.balanceMinor} + ${d.delta}`, updatedAt: sql`now()` })
        .where(
          and(
            eq(ledgerBalances.holder, d.holder),
            eq(ledgerBalances.account, d.account),
            eq(ledgerBalances.currency, d.currency),
          ),
        )
        .returning({ holder: ledgerBalances.holder });
      if (updated.length > 0) continue;
      await tx
        .insert(ledgerBalances)
        .values({ holder: d.holder, account: d.account, currency: d.currency, balanceMinor: d.delta })
        .onConflictDoUpdate({
          target: [ledgerBalances.holder, ledgerBalances.account, ledgerBalances.currency],
          set: {
            balanceMinor: sql`${ledgerBalances.balanceMinor} + excluded.balance_minor`,
            updatedAt: sql`now()`,
          },
        });
    }
  } catch (err) {
    if (isCheckViolation(err, "ledger_balances_never_negative")) throw insufficientFunds();
    throw err;
  }
  return { transactionId: inserted.id, created: true };
}

export interface Balance {
  account: LedgerAccount;
  currency: Currency;
  balanceMinor: number;
}

/** A user's balances (every account and currency that ever moved), or the platform's (from its entries). */
export async function balancesOf(db: DbOrTx, holder: string): Promise<Balance[]> {
  if (holder === PLATFORM) {
    const rows = await db
      .select({
        account: ledgerEntries.account,
        currency: ledgerEntries.currency,
        balanceMinor: sql<string>`sum(${ledgerEntries.amountMinor})`,
      })
      .from(ledgerEntries)
      .where(sql`${ledgerEntries.ownerId} is null`)
      .groupBy(ledgerEntries.account, ledgerEntries.currency);
    return rows.map((r) => ({ ...r, balanceMinor: Number(r.balanceMinor) }));
  }
  return db
    .select({
      account: ledgerBalances.account,
      currency: ledgerBalances.currency,
      balanceMinor: ledgerBalances.balanceMinor,
    })
    .from(ledgerBalances)
    .where(eq(ledgerBalances.holder, holder));
}

/** The rows of a raw query, from PGlite's or node-postgres's result (both carry `rows`). */
export function rowsOf<T>(result: unknown): T[] {
  const rows = (result as { rows?: unknown } | null)?.rows;
  return Array.isArray(rows) ? (rows as T[]) : [];
}

export interface LedgerProblems {
  unbalancedTransactions: string[];
  balancesNotMatchingEntries: string[];
  negativeBalances: string[];
}

/**
 * Audits the whole ledger: every transaction sums to zero per currency, every running balance equals
 * the sum of its entries, and no balance that must stay positive is negative. Empty lists: all good.
 */
export async function auditLedger(db: DbOrTx): Promise<LedgerProblems> {
  const unbalanced = rowsOf<{ id: string }>(
    await db.execute(sql`
    select transaction_id::text as id from ledger_entries
    group by transaction_id, currency having sum(amount_minor) <> 0`),
  );
  const mismatched = rowsOf<{ key: string }>(
    await db.execute(sql`
    with sums as (
      select owner_id::text as holder, account, currency, sum(amount_minor) as total
      from ledger_entries where owner_id is not null group by 1, 2, 3
    )
    select coalesce(b.holder, s.holder) || '|' || coalesce(b.account, s.account) || '|' || coalesce(b.currency, s.currency) as key
    from ledger_balances b
    full join sums s on s.holder = b.holder and s.account = b.account and s.currency = b.currency
    where coalesce(b.balance_minor, 0) <> coalesce(s.total, 0)`),
  );
  const negative = await db
    .select({ holder: ledgerBalances.holder, account: ledgerBalances.account })
    .from(ledgerBalances)
    .where(sql`${ledgerBalances.balanceMinor} < 0`);
  return {
    unbalancedTransactions: unbalanced.map((r) => r.id),
    balancesNotMatchingEntries: mismatched.map((r) => r.key),
    negativeBalances: negative
      .filter((r) => nonNegativeAccounts.includes(r.account))
      .map((r) => `${r.holder}|${r.account}`),
  };
}
