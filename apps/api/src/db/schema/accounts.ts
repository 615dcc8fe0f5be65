import { date, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

export const userTokenPurposes = ["verify-email", "reset-password", "delete-account"] as const;
export type UserTokenPurpose = (typeof userTokenPurposes)[number];

/** Single-use, expiring tokens sent by e-mail; only their SHA-256 is stored. */
export const userTokens = pgTable(
  "user_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: userTokenPurposes }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * A verification token is bound to the sign-up that asked for it (issue 16, pre-account
     * hijacking): its password hash, language and affiliate campaign are what the account gets when
     * this very link is followed, so whoever reads the mailbox decides, not whoever signed up first.
     * Null password: the link asks for one (a resent link belongs to no sign-up).
     */
    passwordHash: text("password_hash"),
    locale: text("locale", { enum: ["en", "fr", "es"] }),
    campaignId: uuid("campaign_id"),
  },
  (t) => [index("user_tokens_user_purpose_idx").on(t.userId, t.purpose)],
);

/** Two-factor recovery codes, each usable once; stored hashed. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("recovery_codes_user_code_idx").on(t.userId, t.codeHash)],
);

/** What onboarding collected: one of the two variants of spec section 2. */
export const onboardingProfiles = pgTable("onboarding_profiles", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  kind: text("kind", { enum: ["individual", "professional"] }).notNull(),
  firstName: text("first_name"),
  lastName: text("last_name"),
  dateOfBirth: date("date_of_birth"),
  companyName: text("company_name"),
  registrationNumber: text("registration_number"),
  vatNumber: text("vat_number"),
  addressLine1: text("address_line1").notNull(),
  addressLine2: text("address_line2"),
  city: text("city").notNull(),
  postalCode: text("postal_code").notNull(),
  country: text("country").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Affiliate campaigns: minimal here (an owner and a token) so sign-ups can be attributed; the
 * affiliates feature adds names, statuses and counters.
 */
export const campaigns = pgTable(
  "campaigns",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    token: text("token").notNull().unique(),
    status: text("status", { enum: ["active", "archived"] })
      .notNull()
      .default("active"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("campaigns_owner_idx").on(t.ownerId)],
);
