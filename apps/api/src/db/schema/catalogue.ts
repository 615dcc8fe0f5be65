import { currencies, linkStatuses, promoKinds } from "@salelink/contracts";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/**
 * Uploaded files, filled by the upload route; the catalogue checks that a file a profile or link
 * points at belongs to the same account. `storage_key` is the paid
 * original and is never sent to anyone but its owner's download; previews and covers are public.
 */
export const files = pgTable(
  "files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    storageKey: text("storage_key").notNull().unique(),
    contentType: text("content_type").notNull(),
    /** The upload module's family of the type detected from the bytes (image, pdf, …). */
    kind: text("kind").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    originalName: text("original_name").notNull(),
    previewKey: text("preview_key"),
    coverKey: text("cover_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("files_owner_idx").on(t.ownerId)],
);

/** Public creator profiles; an account may have several. */
export const creatorProfiles = pgTable(
  "creator_profiles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    displayName: text("display_name").notNull(),
    /** Stored lower-cased, so the unique index is case-insensitive. */
    handle: text("handle").notNull(),
    bio: text("bio").notNull().default(""),
    avatarFileId: uuid("avatar_file_id").references(() => files.id, { onDelete: "set null" }),
    socialLinks: jsonb("social_links").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("creator_profiles_handle_idx").on(t.handle),
    index("creator_profiles_owner_idx").on(t.ownerId),
  ],
);

/** Sales links: the product a buyer pays for, reached through an unguessable token. */
export const links = pgTable(
  "links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // Deleting a profile is refused while it has live links, so only archived links lose theirs.
    profileId: uuid("profile_id").references(() => creatorProfiles.id, { onDelete: "set null" }),
    fileId: uuid("file_id").references(() => files.id, { onDelete: "set null" }),
    /** A public image (uploaded with use=cover) shown to buyers; the sold file only gets a blurred preview. */
    coverFileId: uuid("cover_file_id").references(() => files.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    priceMinor: bigint("price_minor", { mode: "number" }).notNull(),
    currency: text("currency", { enum: currencies }).notNull(),
    stockLimit: integer("stock_limit"),
    /** How many days after a sale its creator may refund it (issue 21): 0 to 60, 30 by default. */
    refundWindowDays: integer("refund_window_days").notNull().default(30),
    /** Whether the price includes VAT (issue 22; the default: the buyer pays the price shown) or VAT is added. */
    pricesIncludeVat: boolean("prices_include_vat").notNull().default(true),
    status: text("status", { enum: linkStatuses }).notNull().default("active"),
    token: text("token").notNull(),
    /** Maintained by checkout; a link with sales is archived on delete, never erased. */
    salesCount: integer("sales_count").notNull().default(0),
    // The insert's own time, so links made in one transaction still page in order.
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("links_token_idx").on(t.token),
    index("links_owner_created_idx").on(t.ownerId, t.createdAt, t.id),
    index("links_profile_idx").on(t.profileId),
  ],
);

/** Which of a profile's links its creator page shows, in order. */
export const portfolioEntries = pgTable(
  "portfolio_entries",
  {
    profileId: uuid("profile_id")
      .notNull()
      .references(() => creatorProfiles.id, { onDelete: "cascade" }),
    linkId: uuid("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.linkId] }), index("portfolio_entries_link_idx").on(t.linkId)],
);

/** Promo codes, per creator account. `value` is a percentage or minor units of `currency`. */
export const promoCodes = pgTable(
  "promo_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Stored upper-cased; unique per creator. */
    code: text("code").notNull(),
    kind: text("kind", { enum: promoKinds }).notNull(),
    value: bigint("value", { mode: "number" }).notNull(),
    currency: text("currency", { enum: currencies }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    usageLimit: integer("usage_limit"),
    /** Counted by checkout when an order with the code is paid. */
    usedCount: integer("used_count").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("promo_codes_owner_code_idx").on(t.ownerId, t.code)],
);

/** A promo code restricted to some links; a code without rows here applies to all its owner's links. */
export const promoCodeLinks = pgTable(
  "promo_code_links",
  {
    promoCodeId: uuid("promo_code_id")
      .notNull()
      .references(() => promoCodes.id, { onDelete: "cascade" }),
    linkId: uuid("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.promoCodeId, t.linkId] }),
    index("promo_code_links_link_idx").on(t.linkId),
  ],
);
