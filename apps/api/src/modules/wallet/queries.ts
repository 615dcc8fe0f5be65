import type { Currency, TransactionListQuery } from "@salelink/contracts";
import {
  type LedgerAccount,
  type LedgerTransactionKind,
  orderTransactionKinds,
  userAccounts,
} from "@salelink/contracts/ledger";
import { and, desc, eq, gte, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import {
  ledgerBalanceDeltas,
  ledgerBalances,
  ledgerEntries,
  ledgerTransactions,
  links,
  orders,
} from "../../db/schema/index.ts";

/*
 * The wallet's SQL: the ledger's writes and sums, and what a user reads of their money. Users'
 * balances are keyed by `owner_id` like their entries; the platform's are sums of entries with none.
 */

/** The rows of a raw query, from PGlite's or node-postgres's result (both carry `rows`). */
export function rowsOf<T>(result: unknown): T[] {
  const rows = (result as { rows?: unknown } | null)?.rows;
  return Array.isArray(rows) ? (rows as T[]) : [];
}

/** The new transaction's id, or undefined when this kind and reference were already posted. */
export async function insertTransaction(
  db: DbOrTx,
  t: { kind: LedgerTransactionKind; reference: string; memo: Record<string, string | number | null> },
): Promise<string | undefined> {
  const [inserted] = await db
    .insert(ledgerTransactions)
    .values(t)
    .onConflictDoNothing({ target: [ledgerTransactions.kind, ledgerTransactions.reference] })
    .returning({ id: ledgerTransactions.id });
  return inserted?.id;
}

/**
 * Many transactions at once; answers those created now (a kind and reference already posted is
 * not). The rows travel as one JSON parameter (a batch of sales: see orders/batch-queries.ts).
 */
export async function insertTransactions(
  db: DbOrTx,
  rows: { kind: LedgerTransactionKind; reference: string; memo: Record<string, string | number | null> }[],
): Promise<{ id: string; kind: LedgerTransactionKind; reference: string }[]> {
  return rowsOf<{ id: string; kind: LedgerTransactionKind; reference: string }>(
    await db.execute(sql`
    insert into "ledger_transactions" (kind, reference, memo)
    select x.kind, x.reference, x.memo
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(kind text, reference text, memo jsonb)
    on conflict (kind, reference) do nothing
    returning id::text as id, kind, reference`),
  );
}

/** Many entries in one statement, as one JSON parameter. */
export async function insertEntryRows(
  db: DbOrTx,
  rows: (typeof ledgerEntries.$inferInsert & { transactionId: string })[],
): Promise<void> {
  const json = JSON.stringify(
    rows.map((r) => ({
      transaction_id: r.transactionId,
      account: r.account,
      owner_id: r.ownerId ?? null,
      currency: r.currency,
      amount_minor: r.amountMinor,
      available_at: r.availableAt ?? null,
    })),
  );
  await db.execute(sql`
    insert into "ledger_entries" (transaction_id, account, owner_id, currency, amount_minor, available_at)
    select x.transaction_id, x.account, x.owner_id, x.currency, x.amount_minor, x.available_at
    from jsonb_to_recordset(${json}::jsonb) as x(transaction_id uuid, account text, owner_id uuid,
      currency text, amount_minor bigint, available_at timestamptz)`);
}

export async function transactionIdOf(
  db: DbOrTx,
  kind: LedgerTransactionKind,
  reference: string,
): Promise<string | undefined> {
  const [existing] = await db
    .select({ id: ledgerTransactions.id })
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.kind, kind), eq(ledgerTransactions.reference, reference)));
  return existing?.id;
}

export async function insertEntries(
  db: DbOrTx,
  rows: (typeof ledgerEntries.$inferInsert & { transactionId: string })[],
): Promise<void> {
  await db.insert(ledgerEntries).values(rows);
}

export interface BalanceDelta {
  ownerId: string;
  account: LedgerAccount;
  currency: Currency;
  delta: number;
}

/**
 * Adds to a user's running balance. Update first: an INSERT … ON CONFLICT checks the proposed row
 * (the bare delta, negative for a debit) before it finds the conflict. The insert covers the first
 * movement of an account.
 */
export async function addToBalance(db: DbOrTx, d: BalanceDelta): Promise<void> {
  const updated = await db
    .update(ledgerBalances)
    .set({ balanceMinor: sql`${ledgerBalances.balanceMinor} + ${d.delta}`, updatedAt: sql`now()` })
    .where(
      and(
        eq(ledgerBalances.ownerId, d.ownerId),
        eq(ledgerBalances.account, d.account),
        eq(ledgerBalances.currency, d.currency),
      ),
    )
    .returning({ ownerId: ledgerBalances.ownerId });
  if (updated.length > 0) return;
  await db
    .insert(ledgerBalances)
    .values({ ownerId: d.ownerId, account: d.account, currency: d.currency, balanceMinor: d.delta })
    .onConflictDoUpdate({
      target: [ledgerBalances.ownerId, ledgerBalances.account, ledgerBalances.currency],
      set: {
        balanceMinor: sql`${ledgerBalances.balanceMinor} + excluded.balance_minor`,
        updatedAt: sql`now()`,
      },
    });
}

/**
 * The available and debt balances of these users in these currencies, their rows locked until the
 * caller's transaction ends (decision 042: what became available repays a debt, read and written
 * under the same locks). Rows that do not exist hold zero and are not returned.
 */
export async function lockAvailableAndDebt(
  db: DbOrTx,
  keys: { ownerId: string; currency: Currency }[],
): Promise<{ ownerId: string; currency: Currency; account: LedgerAccount; balanceMinor: number }[]> {
  if (keys.length === 0) return [];
  return db
    .select({
      ownerId: ledgerBalances.ownerId,
      currency: ledgerBalances.currency,
      account: ledgerBalances.account,
      balanceMinor: ledgerBalances.balanceMinor,
    })
    .from(ledgerBalances)
    .where(
      and(
        inArray(ledgerBalances.account, ["available", "debt"]),
        or(
          ...keys.map((k) =>
            and(eq(ledgerBalances.ownerId, k.ownerId), eq(ledgerBalances.currency, k.currency)),
          ),
        ),
      ),
    )
    .orderBy(ledgerBalances.ownerId, ledgerBalances.account, ledgerBalances.currency)
    .for("update");
}

export async function platformBalances(db: DbOrTx) {
  const rows = await db
    .select({
      account: ledgerEntries.account,
      currency: ledgerEntries.currency,
      balanceMinor: sql<string>`sum(${ledgerEntries.amountMinor})`,
    })
    .from(ledgerEntries)
    .where(isNull(ledgerEntries.ownerId))
    .groupBy(ledgerEntries.account, ledgerEntries.currency);
  return rows.map((r) => ({ ...r, balanceMinor: Number(r.balanceMinor) }));
}

/**
 * A user's balances: each running balance plus its credits not yet folded (decision 030). One
 * statement, so a fold committing meanwhile (rows moved from the deltas into the row) is seen
 * entirely or not at all.
 */
export async function userBalances(
  db: DbOrTx,
  ownerId: string,
): Promise<{ account: LedgerAccount; currency: Currency; balanceMinor: number }[]> {
  const rows = rowsOf<{ account: LedgerAccount; currency: Currency; balance: string }>(
    await db.execute(sql`
    select account, currency, sum(amount)::text as balance from (
      select account, currency, balance_minor as amount from ledger_balances where owner_id = ${ownerId}
      union all
      select account, currency, amount_minor from ledger_balance_deltas where owner_id = ${ownerId}
    ) b group by account, currency order by account, currency`),
  );
  return rows.map((r) => ({ account: r.account, currency: r.currency, balanceMinor: Number(r.balance) }));
}

export interface BalanceKey {
  ownerId: string;
  account: LedgerAccount;
  currency: Currency;
}

/** Appends sale credits (positive amounts) to be folded later: plain inserts, no row is locked. */
export async function insertBalanceDeltas(db: DbOrTx, rows: (BalanceKey & { amountMinor: number })[]) {
  if (rows.length === 0) return;
  await db.insert(ledgerBalanceDeltas).values(rows);
}

/**
 * Moves this balance's committed credits into its row, in the caller's transaction: deleted and
 * added in one statement, so each credit is counted once, by whichever fold deletes it. SKIP LOCKED:
 * a credit another fold is moving is skipped, never waited for; that fold holds the row's lock until
 * it commits, and any later update of the row waits for it and sees its sum. A credit whose
 * transaction has not committed is invisible here and stays for the next fold.
 */
export async function foldBalanceDeltas(db: DbOrTx, key: BalanceKey): Promise<void> {
  await db.execute(sql`
    with moved as (
      delete from ledger_balance_deltas where id in (
        select id from ledger_balance_deltas
        where owner_id = ${key.ownerId} and account = ${key.account} and currency = ${key.currency}
        for update skip locked)
      returning amount_minor
    ), total as (select sum(amount_minor) as amount from moved)
    insert into ledger_balances (owner_id, account, currency, balance_minor)
    select ${key.ownerId}, ${key.account}, ${key.currency}, amount from total where amount is not null
    on conflict (owner_id, account, currency) do update
      set balance_minor = ledger_balances.balance_minor + excluded.balance_minor, updated_at = now()`);
}

/** Balances that have credits waiting to be folded, at most `limit`, in the order posts lock them. */
export async function balanceKeysWithDeltas(db: DbOrTx, limit: number): Promise<BalanceKey[]> {
  return db
    .selectDistinct({
      ownerId: ledgerBalanceDeltas.ownerId,
      account: ledgerBalanceDeltas.account,
      currency: ledgerBalanceDeltas.currency,
    })
    .from(ledgerBalanceDeltas)
    .orderBy(ledgerBalanceDeltas.ownerId, ledgerBalanceDeltas.account, ledgerBalanceDeltas.currency)
    .limit(limit);
}

/** Transactions whose entries do not sum to zero in some currency. */
export async function unbalancedTransactionIds(db: DbOrTx): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
    select transaction_id::text as id from ledger_entries
    group by transaction_id, currency having sum(amount_minor) <> 0`),
  );
  return rows.map((r) => r.id);
}

/** `owner|account|currency` of every running balance that differs from the sum of its entries. */
export async function balancesNotMatchingEntries(db: DbOrTx): Promise<string[]> {
  const rows = rowsOf<{ key: string }>(
    await db.execute(sql`
    with sums as (
      select owner_id, account, currency, sum(amount_minor) as total
      from ledger_entries where owner_id is not null group by 1, 2, 3
    )
    -- A balance is its row plus its unfolded credits (decision 030): both are compared to entries.
    , balances as (
      select owner_id, account, currency, sum(amount) as balance_minor from (
        select owner_id, account, currency, balance_minor as amount from ledger_balances
        union all
        select owner_id, account, currency, amount_minor from ledger_balance_deltas
      ) u group by 1, 2, 3
    )
    select coalesce(b.owner_id, s.owner_id)::text || '|' || coalesce(b.account, s.account) || '|' || coalesce(b.currency, s.currency) as key
    from balances b
    full join sums s on s.owner_id = b.owner_id and s.account = b.account and s.currency = b.currency
    where coalesce(b.balance_minor, 0) <> coalesce(s.total, 0)`),
  );
  return rows.map((r) => r.key);
}

/** Balances (row plus unfolded credits) below zero. */
export async function negativeBalances(db: DbOrTx): Promise<{ ownerId: string; account: LedgerAccount }[]> {
  return rowsOf<{ ownerId: string; account: LedgerAccount }>(
    await db.execute(sql`
    select owner_id::text as "ownerId", account from (
      select owner_id, account, currency, balance_minor as amount from ledger_balances
      union all
      select owner_id, account, currency, amount_minor from ledger_balance_deltas
    ) u group by owner_id, account, currency having sum(amount) < 0`),
  );
}

/**
 * A creator's sales still in their hold, the `limit` soonest available (a launch holds tens of
 * thousands; the pending balance sums them all). Walks orders_creator_held_idx.
 */
export function heldSales(db: DbOrTx, userId: string, limit: number) {
  return db
    .select({
      orderId: orders.id,
      title: links.title,
      // What partial refunds (decision 037) and a chargeback (issue 32) left of it.
      amount:
        sql<number>`(${orders.netMinor} - ${orders.refundedNetMinor} - ${orders.disputedNetMinor})`.mapWith(
          Number,
        ),
      currency: orders.currency,
      availableAt: orders.availableAt,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .where(and(eq(orders.creatorId, userId), eq(orders.status, "paid"), sql`${orders.releasedAt} is null`))
    .orderBy(orders.availableAt)
    .limit(limit);
}

/** One page (plus one row, to know whether there is a next) of a user's entries, newest first. */
export function movementsOf(db: DbOrTx, userId: string, query: TransactionListQuery, limit: number) {
  return db
    .select({
      id: ledgerEntries.id,
      kind: ledgerTransactions.kind,
      account: ledgerEntries.account,
      amount: ledgerEntries.amountMinor,
      currency: ledgerEntries.currency,
      createdAt: ledgerEntries.createdAt,
      availableAt: ledgerEntries.availableAt,
      reference: ledgerTransactions.reference,
      title: links.title,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .leftJoin(
      orders,
      and(
        inArray(ledgerTransactions.kind, [...orderTransactionKinds]),
        // A partial refund's reference is `{orderId}:{refunded so far}` (decision 037).
        sql`${orders.id}::text = split_part(${ledgerTransactions.reference}, ':', 1)`,
      ),
    )
    .leftJoin(links, eq(links.id, orders.linkId))
    .where(
      and(
        eq(ledgerEntries.ownerId, userId),
        inArray(ledgerEntries.account, [...userAccounts]),
        query.cursor ? lt(ledgerEntries.id, query.cursor) : undefined,
        query.kind ? eq(ledgerTransactions.kind, query.kind) : undefined,
        query.currency ? eq(ledgerEntries.currency, query.currency) : undefined,
        query.from ? gte(ledgerEntries.createdAt, new Date(`${query.from}T00:00:00Z`)) : undefined,
        query.to
          ? lt(ledgerEntries.createdAt, new Date(new Date(`${query.to}T00:00:00Z`).getTime() + 86_400_000))
          : undefined,
      ),
    )
    .orderBy(desc(ledgerEntries.id))
    .limit(limit + 1);
}
