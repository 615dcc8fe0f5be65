import type { Currency } from "@salelink/contracts";
import {
  isUserAccount,
  type LedgerAccount,
  type LedgerTransactionKind,
  nonNegativeAccounts,
} from "@salelink/contracts/ledger";
import type { DbOrTx } from "../../db/client.ts";
import { AppError } from "../../lib/errors.ts";
import { isCheckViolation } from "../../lib/pg-errors.ts";
import {
  addToBalance,
  type BalanceDelta,
  balancesNotMatchingEntries,
  insertEntries,
  insertTransaction,
  negativeBalances,
  platformBalances,
  transactionIdOf,
  unbalancedTransactionIds,
  userBalances,
} from "./queries.ts";

export { rowsOf } from "./queries.ts";

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
  kind: LedgerTransactionKind;
  /** With `kind`, identifies the event: posting the same pair again changes nothing. */
  reference: string;
  memo?: Record<string, string | number | null>;
  entries: EntryInput[];
}

export class LedgerImbalanceError extends Error {}

/** Selects the platform's balances in `balancesOf` (its entries carry no owner). */
export const PLATFORM = "platform";

/** Refuses a posting that would not balance, or that puts a user's money in the platform's accounts. */
export function assertBalanced(posting: Posting): void {
  if (posting.entries.length < 2) throw new LedgerImbalanceError(`${posting.kind}: fewer than two entries`);
  const sums = new Map<Currency, number>();
  for (const e of posting.entries) {
    if (!Number.isSafeInteger(e.amountMinor) || e.amountMinor === 0) {
      throw new LedgerImbalanceError(`${posting.kind}: amount ${e.amountMinor} is not a non-zero integer`);
    }
    if (isUserAccount(e.account) !== (e.ownerId !== null)) {
      throw new LedgerImbalanceError(`${posting.kind}: account ${e.account} with owner ${e.ownerId}`);
    }
    sums.set(e.currency, (sums.get(e.currency) ?? 0) + e.amountMinor);
  }
  for (const [currency, sum] of sums) {
    if (sum !== 0) throw new LedgerImbalanceError(`${posting.kind}: ${currency} entries sum to ${sum}`);
  }
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
  const transactionId = await insertTransaction(tx, {
    kind: posting.kind,
    reference: posting.reference,
    memo: posting.memo ?? {},
  });
  if (!transactionId) {
    const existing = await transactionIdOf(tx, posting.kind, posting.reference);
    return { transactionId: existing ?? "", created: false };
  }
  await insertEntries(
    tx,
    posting.entries.map((e) => ({
      transactionId,
      account: e.account,
      ownerId: e.ownerId,
      currency: e.currency,
      amountMinor: e.amountMinor,
      availableAt: e.availableAt ?? null,
    })),
  );

  const deltas = new Map<string, BalanceDelta>();
  for (const e of posting.entries) {
    // The platform's accounts keep no running balance: every sale touches them, and one row for all
    // sales would serialise every payment. They may go negative anyway; their sums come from entries.
    if (e.ownerId === null) continue;
    const key = `${e.ownerId}|${e.account}|${e.currency}`;
    const row = deltas.get(key) ?? { ownerId: e.ownerId, account: e.account, currency: e.currency, delta: 0 };
    row.delta += e.amountMinor;
    deltas.set(key, row);
  }
  // Always in the same order, so two postings touching the same balances cannot deadlock.
  const ordered = [...deltas.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  try {
    for (const d of ordered) if (d.delta !== 0) await addToBalance(tx, d);
  } catch (err) {
    if (isCheckViolation(err, "ledger_balances_never_negative", { orUnnamed: true }))
      throw insufficientFunds();
    throw err;
  }
  return { transactionId, created: true };
}

export interface Balance {
  account: LedgerAccount;
  currency: Currency;
  balanceMinor: number;
}

/**
 * A user's balances (every account and currency that ever moved), or the platform's (`PLATFORM` or
 * null: sums of its entries).
 */
export async function balancesOf(db: DbOrTx, owner: string | null): Promise<Balance[]> {
  if (owner === PLATFORM || owner === null) return platformBalances(db);
  return userBalances(db, owner);
}

/**
 * These users' balances now, as the lookup the pure posting rules take (`coverShortfall`): an
 * account that never moved holds zero.
 */
export async function balanceLookup(
  db: DbOrTx,
  ownerIds: Iterable<string>,
): Promise<(ownerId: string, account: LedgerAccount, currency: Currency) => number> {
  const amounts = new Map<string, number>();
  for (const ownerId of new Set(ownerIds)) {
    for (const b of await userBalances(db, ownerId)) {
      amounts.set(`${ownerId}|${b.account}|${b.currency}`, b.balanceMinor);
    }
  }
  return (ownerId, account, currency) => amounts.get(`${ownerId}|${account}|${currency}`) ?? 0;
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
  const unbalancedTransactions = await unbalancedTransactionIds(db);
  const mismatched = await balancesNotMatchingEntries(db);
  const negative = await negativeBalances(db);
  return {
    unbalancedTransactions,
    balancesNotMatchingEntries: mismatched,
    negativeBalances: negative
      .filter((r) => nonNegativeAccounts.includes(r.account))
      .map((r) => `${r.ownerId}|${r.account}`),
  };
}
