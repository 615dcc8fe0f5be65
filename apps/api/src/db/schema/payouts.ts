import { currencies, payoutProviderKinds, payoutStatuses } from "@salelink/contracts";
import { sql } from "drizzle-orm";
import { bigint, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
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
    /** Stripe Connect's external account for this IBAN, once payouts through Stripe have used it. */
    stripeExternalAccountId: text("stripe_external_account_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("bank_accounts_owner_idx").on(t.ownerId)],
);

/**
 * A withdrawal to a bank account. The amount left the available balance in the transaction that
 * created the row; at most one payout per account is open (requested or processing) at a time,
 * which the partial unique index enforces against concurrent requests.
 */
export const payouts = pgTable(
  "payouts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    bankAccountId: uuid("bank_account_id").references(() => bankAccounts.id, { onDelete: "set null" }),
    /** The account as it was when requested: the history stays readable after it is deleted. */
    holderName: text("holder_name").notNull(),
    ibanCountry: text("iban_country").notNull(),
    ibanLast4: text("iban_last4").notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    currency: text("currency", { enum: currencies }).notNull(),
    status: text("status", { enum: payoutStatuses }).notNull().default("requested"),
    provider: text("provider", { enum: payoutProviderKinds }).notNull(),
    providerPayoutId: text("provider_payout_id"),
    failureReason: text("failure_reason"),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    processingAt: timestamp("processing_at", { withTimezone: true }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    failedAt: timestamp("failed_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payouts_one_open_idx").on(t.userId).where(sql`${t.status} in ('requested', 'processing')`),
    index("payouts_user_idx").on(t.userId, t.requestedAt),
    index("payouts_status_idx").on(t.status, t.requestedAt),
    uniqueIndex("payouts_provider_payout_idx").on(t.provider, t.providerPayoutId),
  ],
);

/** Payout providers' events (Stripe's payout.paid / payout.failed), each applied once. */
export const payoutEvents = pgTable(
  "payout_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    payoutId: uuid("payout_id").references(() => payouts.id),
    payload: jsonb("payload").$type<unknown>().notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("payout_events_provider_event_idx").on(t.provider, t.eventId)],
);

/** The Stripe Connect account that receives an account's payouts (created on its first payout). */
export const stripeConnectAccounts = pgTable("stripe_connect_accounts", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id),
  accountId: text("account_id").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
