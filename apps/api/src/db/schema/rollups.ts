import { currencies } from "@salelink/contracts";
import {
  bigint,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { links } from "./catalogue.ts";
import { users } from "./users.ts";

/*
 * Rollups of the orders for the dashboards (decision 031): kept current by a job, never by the
 * payment's transaction (a row per creator updated by every sale would serialise that creator's
 * sales again). The job recomputes whole buckets from `orders`, so a bucket is always exactly what
 * the orders said at some moment, never an accumulation that a lost or doubled update could skew.
 * Once paid, an order stays paid or refunded and never changes creator, link, referrer or payment
 * day, so a bucket's rows never disappear: the refresh only inserts or overwrites.
 */

/** A creator's sales per UTC day of payment, link and currency. */
export const salesDaily = pgTable(
  "sales_daily",
  {
    creatorId: uuid("creator_id")
      .notNull()
      .references(() => users.id),
    day: date("day").notNull(),
    linkId: uuid("link_id")
      .notNull()
      .references(() => links.id),
    currency: text("currency", { enum: currencies }).notNull(),
    /** Orders paid that day and still paid (a refunded one moves to `refunds`). */
    orders: integer("orders").notNull(),
    grossMinor: bigint("gross_minor", { mode: "number" }).notNull(),
    feeMinor: bigint("fee_minor", { mode: "number" }).notNull(),
    netMinor: bigint("net_minor", { mode: "number" }).notNull(),
    /** Orders paid that day and refunded since, and the creator's net they took back. */
    refunds: integer("refunds").notNull(),
    refundedNetMinor: bigint("refunded_net_minor", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.creatorId, t.day, t.linkId, t.currency] })],
);

/**
 * An affiliate's figures per referred account and currency, from the orders carrying the affiliate
 * as referrer: what GET /campaigns sums per campaign (the referred account's campaign).
 */
export const referralSales = pgTable(
  "referral_sales",
  {
    referrerId: uuid("referrer_id")
      .notNull()
      .references(() => users.id),
    /** The referred account: the creator of the orders. */
    creatorId: uuid("creator_id")
      .notNull()
      .references(() => users.id),
    currency: text("currency", { enum: currencies }).notNull(),
    /** Orders still paid. */
    sales: integer("sales").notNull(),
    /** Commissions of paid orders still held, released and not claimed, and claimed (refunded or not). */
    pendingMinor: bigint("pending_minor", { mode: "number" }).notNull(),
    claimableMinor: bigint("claimable_minor", { mode: "number" }).notNull(),
    claimedMinor: bigint("claimed_minor", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.referrerId, t.creatorId, t.currency] }),
    index("referral_sales_creator_idx").on(t.creatorId),
  ],
);

/**
 * How far the rollups are current. Every order change committed before `refreshed_at` is in them;
 * the next refresh recomputes the buckets of orders updated since `covered_until` (earlier than
 * `refreshed_at` by the oldest transaction then still open and a clock overlap), so a change that
 * committed after a refresh started is never missed. Its row lock serialises refreshes.
 */
export const rollupWatermarks = pgTable("rollup_watermarks", {
  name: text("name").primaryKey(),
  coveredUntil: timestamp("covered_until", { withTimezone: true }).notNull(),
  refreshedAt: timestamp("refreshed_at", { withTimezone: true }).notNull(),
});
