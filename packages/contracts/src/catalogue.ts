import { z } from "zod";
import { currencySchema } from "./business-rules.ts";
import { REFUND_WINDOW_DEFAULT_DAYS, refundWindowDaysSchema } from "./refund-window.ts";
import { fileKindSchema, uploadedFileSchema } from "./uploads.ts";

/*
 * The creator catalogue: profiles, links (the spec's `/links`; `/product` is the same thing seen by
 * id), promo codes and portfolios. Prices are integer minor units; their range comes from the
 * business rules (LINK_PRICE_MIN_MINOR, LINK_PRICE_MAX_MINOR), which the API checks with its own
 * configuration, so these schemas only require a positive integer.
 */

/** Ids in a path: anything else is a 400 with a field error, before any lookup. */
export const catalogueIdParamsSchema = z.object({ id: z.uuid() });

/**
 * Public renditions are served by the API under `/media/…`; answers carry the path (relative to the
 * API base), never a storage key. Null when there is none (a PDF has no preview: buyers get a card).
 */
export const mediaPathSchema = z.string().regex(/^\/media\/(previews|covers)\/[0-9a-f-]{36}$/);

// ---------------------------------------------------------------------------------------------
// Profiles

/** Handles that would collide with pages, brands or staff roles. Compared after lower-casing. */
export const reservedHandles = [
  "admin",
  "administrator",
  "api",
  "app",
  "account",
  "accounts",
  "auth",
  "billing",
  "blog",
  "c",
  "checkout",
  "creator",
  "creators",
  "dashboard",
  "docs",
  "help",
  "links",
  "login",
  "logout",
  "me",
  "moderator",
  "null",
  "official",
  "payouts",
  "product",
  "profile",
  "profiles",
  "public",
  "root",
  "salelink",
  "settings",
  "signin",
  "signup",
  "staff",
  "support",
  "system",
  "undefined",
  "upload",
  "v",
  "wallet",
  "www",
] as const;

export const handleSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(
    z
      .string()
      .regex(/^[a-z0-9_]{3,30}$/, "3 to 30 characters: letters, digits or underscores.")
      .refine((h) => !(reservedHandles as readonly string[]).includes(h), "This handle is reserved."),
  );

const httpsUrl = z.url({ protocol: /^https$/, message: "Use an https:// address." }).max(2048);

const profileFields = {
  displayName: z.string().trim().min(1).max(60),
  handle: handleSchema,
  bio: z.string().trim().max(500),
  /** An image uploaded by the same account; null removes the avatar. */
  avatarFileId: z.uuid().nullable(),
  socialLinks: z.array(httpsUrl).max(5),
};

/** POST /profiles */
export const createProfileBodySchema = z.object({
  displayName: profileFields.displayName,
  handle: profileFields.handle,
  bio: profileFields.bio.default(""),
  avatarFileId: profileFields.avatarFileId.default(null),
  socialLinks: profileFields.socialLinks.default([]),
});
export type CreateProfileBody = z.infer<typeof createProfileBodySchema>;

/** PATCH /profiles/:id: only the fields sent change. */
export const updateProfileBodySchema = z.object({
  displayName: profileFields.displayName.optional(),
  handle: profileFields.handle.optional(),
  bio: profileFields.bio.optional(),
  avatarFileId: profileFields.avatarFileId.optional(),
  socialLinks: profileFields.socialLinks.optional(),
});
export type UpdateProfileBody = z.infer<typeof updateProfileBodySchema>;

/** A profile as its owner sees it. */
export const creatorProfileSchema = z.object({
  id: z.uuid(),
  displayName: z.string(),
  handle: z.string(),
  bio: z.string(),
  avatarFileId: z.uuid().nullable(),
  /** The avatar's public rendition, under the API base. */
  avatarUrl: z
    .string()
    .regex(/^\/media\/(previews|covers)\/[0-9a-f-]{36}$/)
    .nullable(),
  socialLinks: z.array(z.string()),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type CreatorProfile = z.infer<typeof creatorProfileSchema>;

/** GET /profiles */
export const profileListResponseSchema = z.object({ items: z.array(creatorProfileSchema) });
export type ProfileListResponse = z.infer<typeof profileListResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Links

export const linkStatuses = ["active", "paused", "removed"] as const;
export const linkStatusSchema = z.enum(linkStatuses);
export type LinkStatus = z.infer<typeof linkStatusSchema>;

/** 128 random bits in base64url (22 characters); longer ones are accepted for the future. */
export const linkTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{22,64}$/);

const linkFields = {
  title: z.string().trim().min(1).max(120),
  description: z.string().trim().max(5000),
  /** Minor units; the configured range is checked by the API. */
  priceMinor: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  currency: currencySchema,
  profileId: z.uuid(),
  /** The sold file, uploaded by the same account; null until it is uploaded. */
  fileId: z.uuid().nullable(),
  /** An image uploaded with `use=cover`, shown to buyers as is; null for none. */
  coverFileId: z.uuid().nullable(),
  /** How many may be sold; null for no limit. */
  stockLimit: z.number().int().min(1).max(1_000_000).nullable(),
  /** How many days after a sale its creator may refund it (issue 21); shown to buyers. */
  refundWindowDays: refundWindowDaysSchema,
  /**
   * Whether the price includes VAT (issue 22). True, the default: EU buyers pay the price shown, the
   * VAT of their country inside it. False: that VAT is added at checkout.
   */
  pricesIncludeVat: z.boolean(),
};

/** POST /links */
export const createLinkBodySchema = z.object({
  profileId: linkFields.profileId,
  title: linkFields.title,
  description: linkFields.description.default(""),
  priceMinor: linkFields.priceMinor,
  currency: linkFields.currency,
  fileId: linkFields.fileId.default(null),
  coverFileId: linkFields.coverFileId.default(null),
  stockLimit: linkFields.stockLimit.default(null),
  refundWindowDays: linkFields.refundWindowDays.default(REFUND_WINDOW_DEFAULT_DAYS),
  pricesIncludeVat: linkFields.pricesIncludeVat.default(true),
});
export type CreateLinkBody = z.infer<typeof createLinkBodySchema>;

/** PATCH /links/:id. "removed" is moderation's alone: a creator can neither set nor undo it. */
export const updateLinkBodySchema = z.object({
  profileId: linkFields.profileId.optional(),
  title: linkFields.title.optional(),
  description: linkFields.description.optional(),
  priceMinor: linkFields.priceMinor.optional(),
  currency: linkFields.currency.optional(),
  fileId: linkFields.fileId.optional(),
  coverFileId: linkFields.coverFileId.optional(),
  stockLimit: linkFields.stockLimit.optional(),
  refundWindowDays: linkFields.refundWindowDays.optional(),
  pricesIncludeVat: linkFields.pricesIncludeVat.optional(),
  status: z.enum(["active", "paused"]).optional(),
});
export type UpdateLinkBody = z.infer<typeof updateLinkBodySchema>;

/** A link as its owner sees it. */
export const linkSchema = z.object({
  id: z.uuid(),
  /** Null only for an archived link whose profile was deleted later; never served. */
  profileId: z.uuid().nullable(),
  fileId: z.uuid().nullable(),
  /** The sold file as its owner knows it (name, kind, size). */
  file: uploadedFileSchema.nullable(),
  coverFileId: z.uuid().nullable(),
  previewUrl: mediaPathSchema.nullable(),
  coverUrl: mediaPathSchema.nullable(),
  title: z.string(),
  description: z.string(),
  priceMinor: z.number().int(),
  currency: currencySchema,
  stockLimit: z.number().int().nullable(),
  refundWindowDays: z.number().int(),
  pricesIncludeVat: z.boolean(),
  status: linkStatusSchema,
  token: z.string(),
  salesCount: z.number().int(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Link = z.infer<typeof linkSchema>;

/** GET /links?cursor=&limit= : newest first; `cursor` is the previous page's `nextCursor`. */
export const linkListQuerySchema = z.object({
  cursor: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type LinkListQuery = z.infer<typeof linkListQuerySchema>;
export const linkListResponseSchema = z.object({
  items: z.array(linkSchema),
  nextCursor: z.uuid().nullable(),
});
export type LinkListResponse = z.infer<typeof linkListResponseSchema>;

/** GET /product/:id: a link seen as the thing sold. PATCH /product/:id ("set product title"). */
export const setProductTitleBodySchema = z.object({ title: linkFields.title });
export type SetProductTitleBody = z.infer<typeof setProductTitleBodySchema>;

/** Public routes take any string: a malformed token is a 404 like an unknown one, not a 400. */
export const publicLinkParamsSchema = z.object({ token: z.string().max(256) });

/** What a creator page shows of its owner: never the account, e-mail or original files. */
export const publicCreatorSchema = z.object({
  id: z.uuid(),
  displayName: z.string(),
  handle: z.string(),
  /** Path of the avatar under the API base; null when there is none. */
  avatarUrl: mediaPathSchema.nullable(),
});
export type PublicCreator = z.infer<typeof publicCreatorSchema>;

/** GET /public/links/:token: what a buyer sees before paying. */
export const publicLinkSchema = z.object({
  token: z.string(),
  title: z.string(),
  description: z.string(),
  priceMinor: z.number().int(),
  currency: currencySchema,
  status: linkStatusSchema,
  /** The blurred preview of an image, and the creator's cover; the paid file never leaves the API. */
  previewUrl: mediaPathSchema.nullable(),
  coverUrl: mediaPathSchema.nullable(),
  /** What the buyer gets, for the generic card; null before a file is attached. */
  fileKind: fileKindSchema.nullable(),
  /** True once a stock limit is reached: shown, but not for sale. */
  soldOut: z.boolean(),
  /**
   * Not sold out, but every remaining unit is held by a checkout under way: not for sale until
   * `availableAgainAt` at the latest (when the first of those reservations ends), or sooner if a
   * buyer leaves. Checkout answers the same from the same rule.
   */
  reservedOut: z.boolean(),
  availableAgainAt: z.iso.datetime().nullable(),
  /** Days after buying within which the creator may refund; 0: no refunds. */
  refundWindowDays: z.number().int(),
  /** True: the price shown includes the VAT of an EU buyer's country; false: it is added at checkout. */
  pricesIncludeVat: z.boolean(),
  creator: publicCreatorSchema,
});
export type PublicLink = z.infer<typeof publicLinkSchema>;

// ---------------------------------------------------------------------------------------------
// Creator pages and portfolios

export const creatorParamsSchema = z.object({ idOrHandle: z.string().min(1).max(64) });

/** GET /creators/:idOrHandle */
export const creatorPageSchema = z.object({
  profile: publicCreatorSchema.extend({ bio: z.string(), socialLinks: z.array(z.string()) }),
  /** The portfolio, in the creator's order; links no longer on sale drop out. */
  links: z.array(publicLinkSchema),
});
export type CreatorPage = z.infer<typeof creatorPageSchema>;

/** PUT /profiles/:id/portfolio: replaces the whole list and its order. */
export const portfolioBodySchema = z.object({
  linkIds: z
    .array(z.uuid())
    .max(100)
    .refine((ids) => new Set(ids).size === ids.length, "A link appears only once."),
});
export type PortfolioBody = z.infer<typeof portfolioBodySchema>;
export const portfolioResponseSchema = z.object({ linkIds: z.array(z.uuid()) });
export type PortfolioResponse = z.infer<typeof portfolioResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Promo codes

export const promoKinds = ["percent", "fixed"] as const;
export const promoKindSchema = z.enum(promoKinds);
export type PromoKind = z.infer<typeof promoKindSchema>;

export const promoCodeValueSchema = z
  .string()
  .trim()
  .toUpperCase()
  .pipe(z.string().regex(/^[A-Z0-9_-]{3,32}$/, "3 to 32 characters: letters, digits, _ or -."));

const promoCommon = {
  code: promoCodeValueSchema,
  expiresAt: z.iso.datetime({ offset: true }).nullable(),
  /** How many orders may use it; null for no cap. */
  usageLimit: z.number().int().min(1).max(1_000_000).nullable(),
  /** Restrict to these links of mine; empty for all of them. */
  linkIds: z
    .array(z.uuid())
    .max(100)
    .refine((ids) => new Set(ids).size === ids.length, "A link appears only once."),
};

/** POST /promo-codes: `value` is a percentage (1–100) or an amount in minor units of `currency`. */
export const createPromoCodeBodySchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("percent"),
    value: z.number().int().min(1).max(100),
    code: promoCommon.code,
    expiresAt: promoCommon.expiresAt.default(null),
    usageLimit: promoCommon.usageLimit.default(null),
    linkIds: promoCommon.linkIds.default([]),
  }),
  z.object({
    kind: z.literal("fixed"),
    value: z.number().int().min(1).max(100_000_000),
    currency: currencySchema,
    code: promoCommon.code,
    expiresAt: promoCommon.expiresAt.default(null),
    usageLimit: promoCommon.usageLimit.default(null),
    linkIds: promoCommon.linkIds.default([]),
  }),
]);
export type CreatePromoCodeBody = z.infer<typeof createPromoCodeBodySchema>;

/**
 * PATCH /promo-codes/:id: only the fields sent change; the kind, value and currency that result
 * are checked together (a percentage 1–100 without currency, or an amount with one).
 */
export const updatePromoCodeBodySchema = z.object({
  code: promoCommon.code.optional(),
  kind: promoKindSchema.optional(),
  value: z.number().int().min(1).max(100_000_000).optional(),
  currency: currencySchema.nullable().optional(),
  expiresAt: promoCommon.expiresAt.optional(),
  usageLimit: promoCommon.usageLimit.optional(),
  linkIds: promoCommon.linkIds.optional(),
});
export type UpdatePromoCodeBody = z.infer<typeof updatePromoCodeBodySchema>;

export const promoCodeSchema = z.object({
  id: z.uuid(),
  code: z.string(),
  kind: promoKindSchema,
  value: z.number().int(),
  currency: currencySchema.nullable(),
  expiresAt: z.iso.datetime().nullable(),
  usageLimit: z.number().int().nullable(),
  usedCount: z.number().int(),
  linkIds: z.array(z.uuid()),
  createdAt: z.iso.datetime(),
});
export type PromoCode = z.infer<typeof promoCodeSchema>;
export const promoCodeListResponseSchema = z.object({ items: z.array(promoCodeSchema) });
export type PromoCodeListResponse = z.infer<typeof promoCodeListResponseSchema>;

/** POST /public/links/:token/quote */
export const quoteBodySchema = z.object({ promoCode: z.string().trim().max(64).optional() });
export type QuoteBody = z.infer<typeof quoteBodySchema>;
/** All amounts in minor units of `currency`; `total = price - discount`. */
export const quoteResponseSchema = z.object({
  price: z.number().int(),
  discount: z.number().int(),
  total: z.number().int(),
  currency: currencySchema,
  promoCode: z.object({ code: z.string(), kind: promoKindSchema, value: z.number().int() }).optional(),
});
export type QuoteResponse = z.infer<typeof quoteResponseSchema>;
