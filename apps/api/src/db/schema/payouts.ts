import {
  bankAccountKinds,
  currencies,
  type PayoutRiskRule,
  type PayoutStepDetail,
  payoutOrigins,
  payoutProviderKinds,
  payoutScheduleKinds,
  payoutStatuses,
  payoutStepKinds,
  usAccountTypes,
} from "@salelink/contracts";
import { sql } from "drizzle-orm";
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/**
 * Bank accounts for payouts. The IBAN is sealed with a key derived from APP_SECRET (a database dump
 * alone does not reveal it); only its country and last four characters are kept in clear, to show it.
 * Issue 23 adds British (sort code and account number, GBP) and American accounts (routing and
 * account number, USD, checking or savings), and Swiss IBANs in CHF or EUR: for those, `iban_sealed`
 * holds the sealed account number, `iban_country` the country and `iban_last4` its last four; the
 * sort code or routing number (which name a bank, not an account) is `bank_code`, in clear. The
 * column names stay those of the IBAN-only table (decision 041).
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
    kind: text("kind", { enum: bankAccountKinds }).notNull().default("iban"),
    /** The one currency paid to this account. */
    currency: text("currency", { enum: currencies }).notNull().default("EUR"),
    /** GB: the sort code; US: the routing number. */
    bankCode: text("bank_code"),
    /** US only. */
    accountType: text("account_type", { enum: usAccountTypes }),
    /** Stripe Connect's external account for this IBAN, once payouts through Stripe have used it. */
    stripeExternalAccountId: text("stripe_external_account_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("bank_accounts_owner_idx").on(t.ownerId)],
);

/**
 * A withdrawal to a bank account. The amount left the available balance in the transaction that
 * created the row; at most one payout per account and currency is open (requested or processing) at
 * a time, which the partial unique index enforces against concurrent requests. A scheduled payout
 * names its period (`schedule_period`): one per account, currency and period, whatever the number
 * of workers (issue 23).
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
    /** Asked by the creator, or started by their schedule. */
    origin: text("origin", { enum: payoutOrigins }).notNull().default("request"),
    /** The schedule's period that started it ("weekly:2026-W48", "monthly:2026-11", "threshold:…"). */
    schedulePeriod: text("schedule_period"),
    /** The risk rules that held it for an operator's review; empty when it went straight on. */
    heldRules: jsonb("held_rules").$type<PayoutRiskRule[]>().notNull().default([]),
    /** What the creator's bank statement shows for it. */
    bankReference: text("bank_reference"),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    processingAt: timestamp("processing_at", { withTimezone: true }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    failedAt: timestamp("failed_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payouts_one_open_idx")
      .on(t.userId, t.currency)
      .where(sql`${t.status} in ('requested', 'processing')`),
    uniqueIndex("payouts_schedule_period_idx")
      .on(t.userId, t.currency, t.schedulePeriod)
      .where(sql`${t.schedulePeriod} is not null`),
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
  /**
   * When the account was set to pay out only when the platform asks (issue 32): with Stripe's
   * default daily schedule, money transferred for a payout that then failed would leave by itself.
   */
  manualPayoutsAt: timestamp("manual_payouts_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What the reconciliation job found (issue 32): a connected account holding another amount than its
 * payouts in flight explain. One open row per account and currency, closed when a later run finds
 * them equal again; the admin's payouts screen lists the open ones.
 */
export const connectBalanceMismatches = pgTable(
  "connect_balance_mismatches",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    accountId: text("account_id").notNull(),
    currency: text("currency", { enum: currencies }).notNull(),
    /** At most what the payouts in flight explain, and what the account holds. */
    expectedMinor: bigint("expected_minor", { mode: "number" }).notNull(),
    actualMinor: bigint("actual_minor", { mode: "number" }).notNull(),
    /** Why, when it is not only a difference of amounts (a transfer that could not be taken back). */
    reason: text("reason"),
    foundAt: timestamp("found_at", { withTimezone: true }).notNull().defaultNow(),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("connect_balance_mismatches_open_idx")
      .on(t.accountId, t.currency)
      .where(sql`${t.resolvedAt} is null`),
  ],
);

/**
 * A payout's timeline (issue 23): one row per step, written in the transaction of the step itself,
 * never changed. The creator's payouts page and the admin queue read it.
 */
export const payoutSteps = pgTable(
  "payout_steps",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    payoutId: uuid("payout_id")
      .notNull()
      .references(() => payouts.id, { onDelete: "cascade" }),
    step: text("step", { enum: payoutStepKinds }).notNull(),
    detail: jsonb("detail").$type<PayoutStepDetail>().notNull().default({}),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("payout_steps_payout_idx").on(t.payoutId, t.at)],
);

/**
 * A creator's payout schedule (issue 23). No row is "on request", today's behaviour. `blocked` says
 * what kept the last due run from paying (no verified identity, no bank account in a currency…), so
 * the creator is told instead of nothing happening; it clears when a run goes through.
 */
export const payoutSchedules = pgTable("payout_schedules", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  kind: text("kind", { enum: payoutScheduleKinds }).notNull(),
  /** weekly: ISO weekday, 1 (Monday) to 7. */
  weekday: integer("weekday"),
  /** monthly: 1 to 28, so that every month has it. */
  dayOfMonth: integer("day_of_month"),
  /** threshold: in minor units of each currency's balance; at least the payout minimum. */
  thresholdMinor: bigint("threshold_minor", { mode: "number" }),
  blocked: jsonb("blocked").$type<string[]>().notNull().default([]),
  blockedAt: timestamp("blocked_at", { withTimezone: true }),
  lastRunAt: timestamp("last_run_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
