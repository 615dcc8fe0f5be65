import {
  PARTNER_DEFAULT_ENABLED,
  PARTNER_DEFAULT_JOIN_MODE,
  PARTNER_DEFAULT_RATE_BPS,
  PARTNER_DEFAULT_WINDOW_DAYS,
  PARTNER_DESCRIPTION_MAX,
  PARTNER_RATE_MAX_BPS,
  PARTNER_RATE_MIN_BPS,
  PARTNER_TERMS_MAX,
  PARTNER_WINDOW_MAX_DAYS,
  PARTNER_WINDOW_MIN_DAYS,
  partnerJoinModes,
  partnerMembershipStatuses,
} from "@salelink/contracts";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { links } from "./catalogue.ts";
import { users } from "./users.ts";

/*
 * Creator partner programmes (issue 20): a creator's own affiliate programme. The rates here are
 * the ones that apply from now on; an attributed sale stores the rate it was made at, so changing
 * them never changes what was already earned.
 */

const rateInRange = (column: AnyPgColumn) =>
  sql`${column} between ${sql.raw(String(PARTNER_RATE_MIN_BPS))} and ${sql.raw(String(PARTNER_RATE_MAX_BPS))}`;

/** One per creator account; no row: the defaults (off). */
export const partnerProgrammes = pgTable(
  "partner_programmes",
  {
    creatorId: uuid("creator_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull().default(PARTNER_DEFAULT_ENABLED),
    defaultRateBps: integer("default_rate_bps").notNull().default(PARTNER_DEFAULT_RATE_BPS),
    windowDays: integer("window_days").notNull().default(PARTNER_DEFAULT_WINDOW_DAYS),
    joinMode: text("join_mode", { enum: partnerJoinModes }).notNull().default(PARTNER_DEFAULT_JOIN_MODE),
    description: text("description").notNull().default(""),
    terms: text("terms").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("partner_programmes_rate_range", rateInRange(t.defaultRateBps)),
    check(
      "partner_programmes_window_range",
      sql`${t.windowDays} between ${sql.raw(String(PARTNER_WINDOW_MIN_DAYS))} and ${sql.raw(String(PARTNER_WINDOW_MAX_DAYS))}`,
    ),
    check(
      "partner_programmes_join_mode",
      sql`${t.joinMode} in (${sql.raw(partnerJoinModes.map((m) => `'${m}'`).join(", "))})`,
    ),
    check(
      "partner_programmes_text_length",
      sql`char_length(${t.description}) <= ${sql.raw(String(PARTNER_DESCRIPTION_MAX))} and char_length(${t.terms}) <= ${sql.raw(String(PARTNER_TERMS_MAX))}`,
    ),
    // The open list of GET /programmes: enabled programmes, newest first.
    index("partner_programmes_enabled_idx").on(t.enabled, t.createdAt),
  ],
);

/** A programme's rate for one of its creator's links, instead of the default. */
export const partnerLinkRates = pgTable(
  "partner_link_rates",
  {
    creatorId: uuid("creator_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    linkId: uuid("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    rateBps: integer("rate_bps").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.creatorId, t.linkId] }),
    check("partner_link_rates_rate_range", rateInRange(t.rateBps)),
    index("partner_link_rates_link_idx").on(t.linkId),
  ],
);

/**
 * A partner's place in a creator's programme. Never deleted: a removed partner's row stays, so the
 * commissions of their earlier sales stay owed and their code stays theirs (it attributes nothing
 * while removed).
 */
export const partnerMemberships = pgTable(
  "partner_memberships",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    creatorId: uuid("creator_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: partnerMembershipStatuses }).notNull(),
    /** The partner's `?via=` code in this programme: random, unique over every programme. */
    code: text("code").notNull(),
    // The insert's own time, so memberships made in one transaction still page in order.
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    removedAt: timestamp("removed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("partner_memberships_code_idx").on(t.code),
    uniqueIndex("partner_memberships_creator_partner_idx").on(t.creatorId, t.partnerId),
    check(
      "partner_memberships_status",
      sql`${t.status} in (${sql.raw(partnerMembershipStatuses.map((s) => `'${s}'`).join(", "))})`,
    ),
    check("partner_memberships_not_self", sql`${t.creatorId} <> ${t.partnerId}`),
    // The creator's partners list, newest first (and by status).
    index("partner_memberships_creator_created_idx").on(t.creatorId, t.createdAt, t.id),
    // The partner's own list (GET /programmes).
    index("partner_memberships_partner_created_idx").on(t.partnerId, t.createdAt),
  ],
);

/** Invitations by e-mail; only the SHA-256 of the token is stored, like the account tokens. */
export const partnerInvitations = pgTable(
  "partner_invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    creatorId: uuid("creator_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Stored lower-cased. */
    email: text("email").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedBy: uuid("accepted_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  // The pending list and the day's count, per creator, newest first.
  (t) => [index("partner_invitations_creator_created_idx").on(t.creatorId, t.createdAt)],
);

/**
 * Clicks through a partner's `?via=` links per UTC day, counted by the click counter as campaigns'
 * clicks are (one per visitor per hour; bots and filtered traffic apart).
 */
export const partnerClickDays = pgTable(
  "partner_click_days",
  {
    membershipId: uuid("membership_id")
      .notNull()
      .references(() => partnerMemberships.id, { onDelete: "cascade" }),
    day: date("day").notNull(),
    clicks: bigint("clicks", { mode: "number" }).notNull().default(0),
    botClicks: bigint("bot_clicks", { mode: "number" }).notNull().default(0),
    filteredClicks: bigint("filtered_clicks", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.membershipId, t.day] })],
);
