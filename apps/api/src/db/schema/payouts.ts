import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/**
 * Bank accounts for payouts. The IBAN is sealed with a key derived from APP_SECRET (a database dump
 * alone does not reveal it); only its country and last four characters are kept in clear, to show it.
 */
export const bankAccounts = pgTable(
  "bank_accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    holderName: text("holder_name").notNull(),
    ibanSealed: text("iban_sealed").notNull(),
    ibanCountry: text("iban_country").notNull(),
    ibanLast4: text("iban_last4").notNull(),
    bic: text("bic"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("bank_accounts_owner_idx").on(t.ownerId)],
);
