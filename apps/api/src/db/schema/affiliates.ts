import { bigint, date, index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { campaigns } from "./accounts.ts";
import { users } from "./users.ts";

/**
 * Counted clicks per campaign and day (UTC), written in batches from the click buffer: never a
 * database write per click. Bots and link-preview fetchers are counted apart.
 */
export const campaignClickDays = pgTable(
  "campaign_click_days",
  {
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    day: date("day").notNull(),
    clicks: bigint("clicks", { mode: "number" }).notNull().default(0),
    botClicks: bigint("bot_clicks", { mode: "number" }).notNull().default(0),
    /**
     * Visits not counted because their address had already brought CLICK_ADDRESS_ALLOWANCE distinct
     * visitors to the campaign in that hour (rotated user agents or cookies): shown to the affiliate
     * apart, never as clicks.
     */
    filteredClicks: bigint("filtered_clicks", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.day] })],
);

/**
 * A claim of commissions: everything claimable at that moment, moved into the wallet once. The
 * orders it covers point to it (orders.commission_claim_id), so each commission is claimed once.
 */
export const commissionClaims = pgTable(
  "commission_claims",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("commission_claims_user_idx").on(t.userId, t.createdAt)],
);

export const accountSignalKinds = ["signup_device", "iban"] as const;
export type AccountSignalKind = (typeof accountSignalKinds)[number];

/**
 * What ties two accounts to one person, for self-referral checks: keyed hashes only (HMAC with a key
 * derived from APP_SECRET), never the address, user agent or IBAN itself. `signup_device` is the
 * sign-up's client address and user agent together; `iban`, each payout bank account's IBAN.
 */
export const accountSignals = pgTable(
  "account_signals",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: accountSignalKinds }).notNull(),
    hash: text("hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind, t.hash] }),
    index("account_signals_kind_hash_idx").on(t.kind, t.hash),
  ],
);

export const referralFlagSignals = ["signup_device", "iban", "email"] as const;
export type ReferralFlagSignal = (typeof referralFlagSignals)[number];

/**
 * A referral that shares a strong signal with its referrer (a self-referral): it earns nothing from
 * then on, its unclaimed commissions are voided, and the admin console lists it with the signal.
 */
export const referralFlags = pgTable(
  "referral_flags",
  {
    referredId: uuid("referred_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    referrerId: uuid("referrer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    signal: text("signal", { enum: referralFlagSignals }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("referral_flags_referrer_idx").on(t.referrerId),
    index("referral_flags_created_idx").on(t.createdAt),
  ],
);
