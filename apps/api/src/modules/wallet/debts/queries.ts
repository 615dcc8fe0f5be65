import type { Currency } from "@salelink/contracts";
import { and, eq, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.ts";
import {
  disputes,
  ledgerBalances,
  ledgerEntries,
  ledgerTransactions,
  users,
} from "../../../db/schema/index.ts";
import { rowsOf } from "../queries.ts";

/* What users owe (decision 042): the debt balances, where each came from, and the write-offs. */

/** A user's debts, per currency (negative balances). */
export async function debtsOf(
  db: DbOrTx,
  userId: string,
): Promise<{ currency: Currency; balanceMinor: number }[]> {
  return db
    .select({ currency: ledgerBalances.currency, balanceMinor: ledgerBalances.balanceMinor })
    .from(ledgerBalances)
    .where(
      and(
        eq(ledgerBalances.ownerId, userId),
        eq(ledgerBalances.account, "debt"),
        lt(ledgerBalances.balanceMinor, 0),
      ),
    )
    .orderBy(ledgerBalances.currency);
}

/** Every debt of every user. */
export async function allDebts(db: DbOrTx) {
  return db
    .select({
      userId: ledgerBalances.ownerId,
      email: users.email,
      currency: ledgerBalances.currency,
      balanceMinor: ledgerBalances.balanceMinor,
    })
    .from(ledgerBalances)
    .innerJoin(users, eq(users.id, ledgerBalances.ownerId))
    .where(and(eq(ledgerBalances.account, "debt"), lt(ledgerBalances.balanceMinor, 0)))
    .orderBy(ledgerBalances.currency, ledgerBalances.balanceMinor);
}

export interface DebtMovement {
  ownerId: string;
  currency: Currency;
  kind: string;
  /** The sale the movement comes from, when it does. */
  orderId: string | null;
  amountMinor: number;
  createdAt: Date;
}

/**
 * The movements of these users' debts since each last stood at zero, oldest first: what the debt
 * now is made of. A refund's reference is its order (or `{order}:{total}`), a dispute's its row.
 */
export async function debtMovementsSinceZero(db: DbOrTx, ownerIds: string[]): Promise<DebtMovement[]> {
  if (ownerIds.length === 0) return [];
  const rows = rowsOf<{
    owner_id: string;
    currency: Currency;
    kind: string;
    order_id: string | null;
    amount_minor: string | number;
    created_at: string | Date;
  }>(
    await db.execute(sql`
      with moves as (
        select e.id, e.owner_id, e.currency, e.amount_minor, e.created_at, t.kind, t.reference,
          sum(e.amount_minor) over (partition by e.owner_id, e.currency order by e.id) as running
        from ${ledgerEntries} e
        join ${ledgerTransactions} t on t.id = e.transaction_id
        where e.account = 'debt' and e.owner_id in (${sql.join(
          ownerIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
      ),
      last_zero as (
        select owner_id, currency, max(id) filter (where running = 0) as id from moves group by owner_id, currency
      )
      select m.owner_id, m.currency, m.kind, m.amount_minor, m.created_at,
        case
          when m.kind = 'refund' then split_part(m.reference, ':', 1)
          when m.kind in ('dispute', 'dispute_fee') then (select d.order_id::text from ${disputes} d where d.id::text = m.reference)
        end as order_id
      from moves m
      join last_zero z on z.owner_id = m.owner_id and z.currency = m.currency
      where m.id > coalesce(z.id, 0)
      order by m.id`),
  );
  return rows.map((r) => ({
    ownerId: r.owner_id,
    currency: r.currency,
    kind: r.kind,
    orderId: r.order_id,
    amountMinor: Number(r.amount_minor),
    createdAt: new Date(r.created_at),
  }));
}

/** The debt balance of one user in one currency, locked for the write-off. */
export async function lockDebt(db: DbOrTx, userId: string, currency: Currency): Promise<number> {
  const [row] = await db
    .select({ balanceMinor: ledgerBalances.balanceMinor })
    .from(ledgerBalances)
    .where(
      and(
        eq(ledgerBalances.ownerId, userId),
        eq(ledgerBalances.account, "debt"),
        eq(ledgerBalances.currency, currency),
      ),
    )
    .for("update");
  return row?.balanceMinor ?? 0;
}

/** What was written off so far, per currency (positive amounts). */
export async function writtenOffTotals(db: DbOrTx): Promise<{ currency: Currency; amount: number }[]> {
  const rows = await db
    .select({
      currency: ledgerEntries.currency,
      total: sql<string>`-sum(${ledgerEntries.amountMinor})`,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.account, "debts_written_off"))
    .groupBy(ledgerEntries.currency)
    .orderBy(ledgerEntries.currency);
  return rows.map((r) => ({ currency: r.currency, amount: Number(r.total) }));
}

/** The debtor's address and language, for the notice. */
export async function debtorOf(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({ email: users.email, locale: users.locale })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}
