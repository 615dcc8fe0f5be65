import { currencies, refundRequesters, refundStatuses } from "@salelink/contracts";
import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { orders } from "./orders.ts";
import { users } from "./users.ts";

/**
 * A creator's customers (issue 21): one row per creator and buyer address, written in the same
 * transaction as each paid order (`upsertCustomers`), so the customers screen reads one row per
 * buyer instead of grouping every order. The address is stored lower-cased, as checkout stores it;
 * an account's deletion erases it here as on the orders. `unsubscribedAt`: the buyer asked this
 * creator for no more updates.
 */
export const customers = pgTable(
  "customers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    creatorId: uuid("creator_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    firstPaidAt: timestamp("first_paid_at", { withTimezone: true }).notNull(),
    lastPaidAt: timestamp("last_paid_at", { withTimezone: true }).notNull(),
    ordersCount: integer("orders_count").notNull().default(0),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [
    uniqueIndex("customers_creator_email_idx").on(t.creatorId, t.email),
    index("customers_creator_last_idx").on(t.creatorId, t.lastPaidAt, t.id),
    // The screen's search, part of an address (LIKE '%…%'): trigrams find the few matches of a
    // creator with 100,000 customers without reading them all (pg_trgm, migration 0026).
    index("customers_email_trgm_idx").using("gin", t.email.op("gin_trgm_ops")),
  ],
);

/**
 * Every refund asked of the provider (issue 21, decision 037): by the creator (full or partial,
 * within the link's window) or by an admin (in full). At most one is under way per order (the
 * partial unique index); the provider's refund event settles it and reverses the ledger.
 */
export const orderRefunds = pgTable(
  "order_refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    creatorId: uuid("creator_id")
      .notNull()
      .references(() => users.id),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    currency: text("currency", { enum: currencies }).notNull(),
    /** What the payment's refunds add up to once this one is through (the provider reports that). */
    cumulativeMinor: bigint("cumulative_minor", { mode: "number" }).notNull(),
    reason: text("reason").notNull(),
    by: text("requested_by", { enum: refundRequesters }).notNull(),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    status: text("status", { enum: refundStatuses }).notNull().default("asked"),
    failure: text("failure"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (t) => [
    index("order_refunds_order_idx").on(t.orderId, t.createdAt),
    uniqueIndex("order_refunds_one_asked_idx").on(t.orderId).where(sql`${t.status} = 'asked'`),
  ],
);
