import { currencies } from "@salelink/contracts";
import { ledgerAccounts, ledgerTransactionKinds, negativeAllowedAccounts } from "@salelink/contracts/ledger";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/**
 * The money ledger (DESIGN section 4). Every movement is one transaction whose entries sum to zero per
 * currency; entries are never updated or deleted (a correction is a reversal). Its accounts and
 * transaction kinds are named once, in the chart of accounts (`@salelink/contracts/ledger`).
 */
export {
  type LedgerAccount,
  type LedgerTransactionKind,
  ledgerAccounts,
  nonNegativeAccounts,
} from "@salelink/contracts/ledger";

/** `'platform_fees', 'provider'`: the accounts whose balance may go negative, as SQL literals. */
const negativeAllowed = sql.raw(negativeAllowedAccounts.map((a) => `'${a}'`).join(", "));

export const ledgerTransactions = pgTable(
  "ledger_transactions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** What happened (the chart's transaction kinds). */
    kind: text("kind", { enum: ledgerTransactionKinds }).notNull(),
    /** The id of what caused it (an order, a payout…): with the kind, posts each event once. */
    reference: text("reference").notNull(),
    memo: jsonb("memo").$type<Record<string, string | number | null>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [uniqueIndex("ledger_transactions_kind_reference_idx").on(t.kind, t.reference)],
);

export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    transactionId: uuid("transaction_id")
      .notNull()
      .references(() => ledgerTransactions.id),
    account: text("account", { enum: ledgerAccounts }).notNull(),
    /** The user whose account this is; null for the platform's own accounts. */
    ownerId: uuid("owner_id").references(() => users.id),
    currency: text("currency", { enum: currencies }).notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    /** For held money: when it becomes available (shown to the creator with the reason). */
    availableAt: timestamp("available_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [
    index("ledger_entries_owner_idx").on(t.ownerId, t.account, t.currency),
    index("ledger_entries_transaction_idx").on(t.transactionId),
    check("ledger_entries_amount_nonzero", sql`${t.amountMinor} <> 0`),
  ],
);

/**
 * Running balances of users' accounts, updated in the same transaction as the entries: the row lock
 * serialises concurrent movements of one account, and the check makes an overdraft fail the whole
 * posting. Tests prove each row equals the sum of its entries. The platform's accounts have no row
 * (one row touched by every sale would serialise all payments): their sums come from the entries.
 * So every row is a user's, keyed like the entries by `owner_id` (decision 024).
 */
export const ledgerBalances = pgTable(
  "ledger_balances",
  {
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id),
    account: text("account", { enum: ledgerAccounts }).notNull(),
    currency: text("currency", { enum: currencies }).notNull(),
    balanceMinor: bigint("balance_minor", { mode: "number" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.ownerId, t.account, t.currency] }),
    check(
      "ledger_balances_never_negative",
      sql`${t.balanceMinor} >= 0 or ${t.account} in (${negativeAllowed})`,
    ),
    // A debt is what a user owes: repaid up to zero, never past it (decision 042).
    check("ledger_balances_debt_not_positive", sql`${t.account} <> 'debt' or ${t.balanceMinor} <= 0`),
  ],
);

/**
 * Sale credits not yet folded into `ledger_balances` (decision 030). A sale adds its creator's and
 * referrer's held shares here with a plain insert, so concurrent sales of one creator never wait on
 * that creator's balance row. A fold (the wallet's job, and any debit of the balance before its
 * check) deletes committed rows and adds them to the row in one transaction; a balance is its row
 * plus the rows still here. Credits only: a debit always goes through the row and its CHECK.
 */
export const ledgerBalanceDeltas = pgTable(
  "ledger_balance_deltas",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id),
    account: text("account", { enum: ledgerAccounts }).notNull(),
    currency: text("currency", { enum: currencies }).notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
  },
  (t) => [
    index("ledger_balance_deltas_key_idx").on(t.ownerId, t.account, t.currency),
    check("ledger_balance_deltas_credit", sql`${t.amountMinor} > 0`),
  ],
);
