import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * The buyer's library links (issue 21): "send me my purchases" e-mails a one-time link to an
 * address that paid for something. Only hashes of the link's token and of the access it opens are
 * kept; the address is stored lower-cased, as checkout stores a buyer's.
 */
export const purchaseLinks = pgTable(
  "purchase_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** When the link was opened: it works once. */
    usedAt: timestamp("used_at", { withTimezone: true }),
    /** The library's access for the browser that opened it, and until when. */
    accessHash: text("access_hash").unique(),
    accessExpiresAt: timestamp("access_expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  // The links sent to an address in the last hour (the per-address limit).
  (t) => [index("purchase_links_email_created_idx").on(t.email, t.createdAt)],
);
