import type { Currency, TransactionListQuery } from "@salelink/contracts";
import {
  type LedgerAccount,
  type LedgerTransactionKind,
  orderTransactionKinds,
  userAccounts,
} from "@salelink/contracts/ledger";
import { and, desc, eq, gte, inArray, isNull, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { ledgerBalances, ledgerEntries, ledgerTransactions, links, orders } from "../../db/schema/index.ts";

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

export function userBalances(db: DbOrTx, ownerId: string) {
  return db
    .select({
      account: ledgerBalances.account,
      currency: ledgerBalances.currency,
      balanceMinor: ledgerBalances.balanceMinor,
    })
    .from(ledgerBalances)
    .where(eq(ledgerBalances.ownerId, ownerId));
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
    select coalesce(b.owner_id, s.owner_id)::text || '|' || coalesce(b.account, s.account) || '|' || coalesce(b.currency, s.currency) as key
    from ledger_balances b
    full join sums s on s.owner_id = b.owner_id and s.account = b.account and s.currency = b.currency
    where coalesce(b.balance_minor, 0) <> coalesce(s.total, 0)`),
  );
  return rows.map((r) => r.key);
}

export function negativeBalances(db: DbOrTx) {
  return db
    .select({ ownerId: ledgerBalances.ownerId, account: ledgerBalances.account })
    .from(ledgerBalances)
    .where(lt(ledgerBalances.balanceMinor, 0));
}

/** A creator's sales still in their hold, soonest available first. */
export function heldSales(db: DbOrTx, userId: string) {
  return db
    .select({
      orderId: orders.id,
      title: links.title,
      amount: orders.netMinor,
      currency: orders.currency,
      availableAt: orders.availableAt,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .where(and(eq(orders.creatorId, userId), eq(orders.status, "paid"), sql`${orders.releasedAt} is null`))
    .orderBy(orders.availableAt);
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
        sql`${orders.id}::text = ${ledgerTransactions.reference}`,
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

const paidBy = (userId: string) => and(eq(orders.creatorId, userId), eq(orders.status, "paid"));

export async function paidSalesCount(db: DbOrTx, userId: string): Promise<number> {
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(orders).where(paidBy(userId));
  return count?.n ?? 0;
}

export function revenueByCurrency(db: DbOrTx, userId: string) {
  return db
    .select({ currency: orders.currency, amount: sql<number>`coalesce(sum(${orders.netMinor}), 0)::bigint` })
    .from(orders)
    .where(paidBy(userId))
    .groupBy(orders.currency);
}

/** Paid sales of the last 30 days, per UTC day and currency, oldest first. */
export function salesByDay(db: DbOrTx, userId: string) {
  return db
    .select({
      date: sql<string>`to_char(date_trunc('day', ${orders.paidAt} at time zone 'UTC'), 'YYYY-MM-DD')`,
      currency: orders.currency,
      sales: sql<number>`count(*)::int`,
      amount: sql<number>`coalesce(sum(${orders.netMinor}), 0)::bigint`,
    })
    .from(orders)
    .where(and(paidBy(userId), gte(orders.paidAt, sql`now() - interval '30 days'`)))
    .groupBy(sql`1`, orders.currency)
    .orderBy(sql`1`);
}

export function latestOrders(db: DbOrTx, userId: string, limit: number) {
  return db
    .select({
      id: orders.id,
      title: links.title,
      total: orders.totalMinor,
      currency: orders.currency,
      status: orders.status,
      paidAt: orders.paidAt,
      email: orders.buyerEmail,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .where(and(eq(orders.creatorId, userId), inArray(orders.status, ["paid", "refunded"])))
    .orderBy(desc(orders.paidAt))
    .limit(limit);
}
