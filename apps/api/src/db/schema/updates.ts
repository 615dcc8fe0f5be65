import { locales, updateStatuses } from "@salelink/contracts";
import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { links } from "./catalogue.ts";
import { customers } from "./customers.ts";
import { users } from "./users.ts";

/**
 * A creator's update to their buyers (issue 21, decision 038): to one link's buyers or to all of
 * theirs. The job sends it in batches of customers in address order; `cursor` is the last address a
 * committed batch covered, so a batch that crashed starts again from the same place. The counts are
 * what the committed batches recorded.
 */
export const buyerUpdates = pgTable(
  "buyer_updates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    creatorId: uuid("creator_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Null: every link's buyers. Links with sales are archived, never erased. */
    linkId: uuid("link_id").references(() => links.id, { onDelete: "set null" }),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    locale: text("locale", { enum: locales }).notNull(),
    /** The name the e-mails are signed with, fixed when it was written. */
    senderName: text("sender_name"),
    status: text("status", { enum: updateStatuses }).notNull().default("sending"),
    recipients: integer("recipients").notNull().default(0),
    sent: integer("sent").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    cursor: text("cursor"),
    batches: integer("batches").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("buyer_updates_creator_created_idx").on(t.creatorId, t.createdAt)],
);

/**
 * One row per update and customer it reached: a batch run again (a retry, a second worker) never
 * sends to a customer twice. `skipped`: they had unsubscribed.
 */
export const buyerUpdateDeliveries = pgTable(
  "buyer_update_deliveries",
  {
    updateId: uuid("update_id")
      .notNull()
      .references(() => buyerUpdates.id, { onDelete: "cascade" }),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["sent", "failed", "skipped"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  // The customer's side: an erased buyer's rows go without reading every update's deliveries.
  (t) => [
    primaryKey({ columns: [t.updateId, t.customerId] }),
    index("buyer_update_deliveries_customer_idx").on(t.customerId),
  ],
);
