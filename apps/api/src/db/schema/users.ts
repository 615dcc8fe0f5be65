import { saleNotificationModes } from "@salelink/contracts/notifications";
import { bigint, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Stored lower-cased; unique. */
    email: text("email").notNull().unique(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ["user", "admin"] })
      .notNull()
      .default("user"),
    locale: text("locale", { enum: ["en", "fr", "es"] })
      .notNull()
      .default("en"),
    /** Sale e-mails to this account as a creator (issue 21): each sale, a daily digest, or none. */
    saleNotifications: text("sale_notifications", { enum: saleNotificationModes }).notNull().default("each"),
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    onboardingCompletedAt: timestamp("onboarding_completed_at", { withTimezone: true }),
    /** Sealed with SecretBox; pending until twoFactorEnabledAt is set. */
    twoFactorSecret: text("two_factor_secret"),
    twoFactorEnabledAt: timestamp("two_factor_enabled_at", { withTimezone: true }),
    /** The last TOTP time step accepted: a code is never accepted twice. */
    twoFactorLastStep: bigint("two_factor_last_step", { mode: "number" }),
    /** The affiliate campaign this account signed up through, for good (DESIGN section 3). */
    referredByCampaignId: uuid("referred_by_campaign_id"),
    /** Set by an admin: the account's links stop selling and its payouts stop until reinstated. */
    suspendedAt: timestamp("suspended_at", { withTimezone: true }),
    /** Set when the account was deleted: personal data erased, the row kept for sales records. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // The affiliate's sign-ups per campaign and day (GET /campaigns, /campaigns/stats), without a scan of all accounts.
  (t) => [index("users_referred_by_campaign_idx").on(t.referredByCampaignId, t.createdAt)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** SHA-256 of the cookie's token: a stolen table cannot be replayed as cookies. */
    tokenHash: text("token_hash").notNull().unique(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Absolute end of the session, moved forward when it is used (DESIGN section 3). */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);
