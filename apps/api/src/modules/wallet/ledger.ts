import type { Currency } from "@salelink/contracts";
import { isUserAccount, type LedgerAccount, nonNegativeAccounts } from "@salelink/contracts/ledger";
import type { DbOrTx } from "../../db/client.ts";
import { AppError } from "../../lib/errors.ts";
import { isCheckViolation } from "../../lib/pg-errors.ts";
import { debtRepayment } from "./debt-postings.ts";
import type { EntryInput, Posting } from "./entries.ts";
import {
  addToBalance,
  type BalanceDelta,
  balanceKeysWithDeltas,
  balancesNotMatchingEntries,
  foldBalanceDeltas,
  insertBalanceDeltas,
  insertEntries,
  insertEntryRows,
  insertTransaction,
  insertTransactions,
  lockAvailableAndDebt,
  negativeBalances,
  platformBalances,
  transactionIdOf,
  unbalancedTransactionIds,
  userBalances,
} from "./queries.ts";

export type { EntryInput, Posting } from "./entries.ts";
export { rowsOf } from "./queries.ts";

/*
 * The one way money moves (DESIGN section 4): `post` writes a transaction of entries that sum to
 * zero per currency, and updates the running balances, inside the caller's database transaction, so
 * the state change that causes a movement and the movement commit together or not at all.
 */

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
 * Sale credits go to `ledger_balance_deltas` rather than to the running row (decision 030): every
 * sale of a creator credits the same `pending` row, and one row updated by every sale serialises
 * all of that creator's payments. Only these accounts, only credits: a debit folds the credits first
 * and then goes through the row and its CHECK. `available` keeps no deltas (payouts read its row).
 */
export const deferredCreditAccounts: readonly LedgerAccount[] = [
  "pending",
  "affiliate_pending",
  // A partner whose link a launch's buyers follow is credited by every sale, like its creator.
  "partner_pending",
];

const keyOf = (e: { ownerId: string; account: LedgerAccount; currency: Currency }) =>
  `${e.ownerId}|${e.account}|${e.currency}`;

/** Adds the users' entries of created postings to their balances (rows, or deltas for credits). */
async function applyToBalances(tx: DbOrTx, entries: EntryInput[]): Promise<void> {
  const deltas = new Map<string, BalanceDelta>();
  for (const e of entries) {
    // The platform's accounts keep no running balance: every sale touches them, and one row for all
    // sales would serialise every payment. They may go negative anyway; their sums come from entries.
    if (e.ownerId === null) continue;
    const key = keyOf({ ownerId: e.ownerId, account: e.account, currency: e.currency });
    const row = deltas.get(key) ?? { ownerId: e.ownerId, account: e.account, currency: e.currency, delta: 0 };
    row.delta += e.amountMinor;
    deltas.set(key, row);
  }
  // Always in the same order (folds included), so two postings touching the same balances cannot
  // deadlock.
  const ordered = [...deltas.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  const credits = ordered.filter((d) => d.delta > 0 && deferredCreditAccounts.includes(d.account));
  try {
    for (const d of ordered) {
      if (d.delta === 0 || credits.includes(d)) continue;
      // A debit is checked against everything committed: its credits are folded in first.
      if (deferredCreditAccounts.includes(d.account)) await foldBalanceDeltas(tx, d);
      await addToBalance(tx, d);
    }
  } catch (err) {
    if (isCheckViolation(err, "ledger_balances_never_negative", { orUnnamed: true }))
      throw insufficientFunds();
    throw err;
  }
  await insertBalanceDeltas(
    tx,
    credits.map((d) => ({
      ownerId: d.ownerId,
      account: d.account,
      currency: d.currency,
      amountMinor: d.delta,
    })),
  );
}

/**
 * Posts once: answers `created: false` (and writes nothing) when this kind and reference were
 * already posted. Throws the insufficient-funds conflict, rolling back the caller's transaction,
 * when a balance that may not go negative would. Then, in the same transaction, whatever a user in
 * debt now holds available repays that debt (decision 042): a user never holds available money and
 * a debt in the same currency at once.
 */
export async function post(
  tx: DbOrTx,
  posting: Posting,
): Promise<{ transactionId: string; created: boolean }> {
  const posted = await postOnce(tx, posting);
  if (posted.created) await repayDebts(tx, posted.transactionId, posting.entries);
  return posted;
}

async function postOnce(tx: DbOrTx, posting: Posting): Promise<{ transactionId: string; created: boolean }> {
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
  await insertEntries(tx, entryRows(transactionId, posting));
  await applyToBalances(tx, posting.entries);
  return { transactionId, created: true };
}

/**
 * The users and currencies where a posting may have left both available money and a debt: it
 * credited available, or it added to a debt.
 */
function debtKeys(entries: readonly EntryInput[]): { ownerId: string; currency: Currency }[] {
  const keys = new Map<string, { ownerId: string; currency: Currency }>();
  for (const e of entries) {
    if (e.ownerId === null) continue;
    if ((e.account === "available" && e.amountMinor > 0) || (e.account === "debt" && e.amountMinor < 0))
      keys.set(`${e.ownerId}|${e.currency}`, { ownerId: e.ownerId, currency: e.currency });
  }
  return [...keys.values()];
}

/** One `debt_repayment` posting for every user and currency the posting left with both. */
async function repayDebts(tx: DbOrTx, transactionId: string, entries: readonly EntryInput[]): Promise<void> {
  const keys = debtKeys(entries);
  if (keys.length === 0) return;
  const rows = await lockAvailableAndDebt(tx, keys);
  const amount = (k: { ownerId: string; currency: Currency }, account: LedgerAccount) =>
    rows.find((r) => r.ownerId === k.ownerId && r.currency === k.currency && r.account === account)
      ?.balanceMinor ?? 0;
  const repayments = keys.flatMap(
    (k) =>
      debtRepayment({
        reference: transactionId,
        ownerId: k.ownerId,
        currency: k.currency,
        availableMinor: amount(k, "available"),
        debtMinor: amount(k, "debt"),
      })?.entries ?? [],
  );
  if (repayments.length > 0)
    await postOnce(tx, { kind: "debt_repayment", reference: transactionId, entries: repayments });
}

function entryRows(transactionId: string, posting: Posting) {
  return posting.entries.map((e) => ({
    transactionId,
    account: e.account,
    ownerId: e.ownerId,
    currency: e.currency,
    amountMinor: e.amountMinor,
    availableAt: e.availableAt ?? null,
  }));
}

/**
 * `post` for many postings in three statements plus their balances (a batch of sales): each posted
 * once, as `post` would. Answers the references of the postings created now.
 */
export async function postMany(tx: DbOrTx, postings: Posting[]): Promise<Set<string>> {
  for (const posting of postings) assertBalanced(posting);
  if (postings.length === 0) return new Set();
  const created = await insertTransactions(
    tx,
    postings.map((p) => ({ kind: p.kind, reference: p.reference, memo: p.memo ?? {} })),
  );
  const idOf = new Map(created.map((t) => [`${t.kind}|${t.reference}`, t.id]));
  const fresh = postings.flatMap((p) => {
    const id = idOf.get(`${p.kind}|${p.reference}`);
    return id ? [{ id, posting: p }] : [];
  });
  if (fresh.length === 0) return new Set();
  await insertEntryRows(
    tx,
    fresh.flatMap(({ id, posting }) => entryRows(id, posting)),
  );
  await applyToBalances(
    tx,
    fresh.flatMap(({ posting }) => posting.entries),
  );
  // Sales credit held money only; should a batch ever make money available, debts come first.
  for (const { id, posting } of fresh) await repayDebts(tx, id, posting.entries);
  return new Set(fresh.map(({ posting }) => posting.reference));
}

/** Folds the credits of every balance that has some (at most `limit` balances), in lock order. */
export async function foldAllDeltas(tx: DbOrTx, limit: number): Promise<number> {
  const keys = (await balanceKeysWithDeltas(tx, limit)).sort((a, b) =>
    keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0,
  );
  for (const key of keys) await foldBalanceDeltas(tx, key);
  return keys.length;
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
