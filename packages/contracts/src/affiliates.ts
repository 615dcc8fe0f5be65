import { z } from "zod";
import { currencySchema } from "./business-rules.ts";

/*
 * The affiliate programme (spec sections 1, 3, 7 and 8): campaigns with their own `?ref=` token,
 * clicks counted once per visitor per hour, sign-ups attributed for good, and a share of the
 * platform fee on the referred accounts' sales, claimed into the wallet. Amounts in minor units.
 */

/** A campaign token as it travels in `?ref=` (the same shape the sign-up accepts). */
export const campaignTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{4,64}$/);

/** PATCH /campaigns/clicks/{token}: the spec's click update body. */
export const clickParamsSchema = z.object({ token: campaignTokenSchema });
export const clickBodySchema = z.object({ token: campaignTokenSchema });
export type ClickBody = z.infer<typeof clickBodySchema>;

export const campaignStatusSchema = z.enum(["active", "archived"]);
export type CampaignStatus = z.infer<typeof campaignStatusSchema>;

/** POST /campaigns */
export const createCampaignBodySchema = z.object({ name: z.string().trim().min(1).max(80) });
/** PATCH /campaigns/{id} */
export const updateCampaignBodySchema = z
  .object({ name: z.string().trim().min(1).max(80), status: campaignStatusSchema })
  .partial()
  .refine((b) => b.name !== undefined || b.status !== undefined, "Nothing to change.");

/** Amounts per currency (a creator's links may sell in several). */
export const moneyByCurrency = z.array(z.object({ currency: currencySchema, amount: z.number().int() }));

export const campaignSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  token: z.string(),
  /** `{WEB_ORIGIN}/?ref={token}` */
  shareUrl: z.url(),
  status: campaignStatusSchema,
  createdAt: z.iso.datetime(),
  /** Counted clicks: one per visitor per hour. */
  clicks: z.number().int(),
  /** Bots and link-preview fetchers, counted apart. */
  botClicks: z.number().int(),
  /**
   * Visits not counted as clicks: more distinct visitors from one address in an hour than the
   * allowance (one machine rotating user agents or cookies). Shown apart, never as clicks.
   */
  filteredClicks: z.number().int(),
  signups: z.number().int(),
  /** Paid sales of the referred accounts within their commission period, net of refunds. */
  sales: z.number().int(),
  /** Commissions still in the hold. */
  pending: moneyByCurrency,
  /** After the hold, not yet claimed. */
  claimable: moneyByCurrency,
  claimed: moneyByCurrency,
});
export type Campaign = z.infer<typeof campaignSchema>;

/** GET /campaigns */
export const campaignListSchema = z.object({
  items: z.array(campaignSchema),
  /** Everything claimable now, per currency (what POST /campaigns/claim would move). */
  claimable: moneyByCurrency,
  /** The programme's figures, from configuration. */
  rules: z.object({
    commissionBps: z.number().int(),
    durationMonths: z.number().int(),
    holdDays: z.number().int(),
    cookieDays: z.number().int(),
    /** Distinct visitors one address may add to a campaign's clicks per hour; past it, filtered. */
    clicksPerAddress: z.number().int(),
  }),
});
export type CampaignList = z.infer<typeof campaignListSchema>;

/** GET /campaigns/stats?days=30: clicks and sign-ups per day over all of the caller's campaigns (or one). */
export const campaignStatsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(365).default(30),
  campaignId: z.uuid().optional(),
});
export const campaignStatsSchema = z.object({
  days: z.array(
    z.object({
      date: z.iso.date(),
      clicks: z.number().int(),
      botClicks: z.number().int(),
      filteredClicks: z.number().int(),
      signups: z.number().int(),
    }),
  ),
});
export type CampaignStats = z.infer<typeof campaignStatsSchema>;

/** GET /campaigns/referrals: the referred accounts, anonymised ("a•••@example.com"). */
export const referralListSchema = z.object({
  items: z.array(
    z.object({
      /** A stable pseudonym, not the account id. */
      id: z.string(),
      account: z.string(),
      campaignId: z.uuid(),
      joinedAt: z.iso.datetime(),
      /** The end of the commission period (12 months after sign-up by default). */
      earnsUntil: z.iso.datetime(),
      sales: z.number().int(),
      earned: moneyByCurrency,
    }),
  ),
});
export type ReferralList = z.infer<typeof referralListSchema>;

/** GET /campaigns/earnings?cursor=&limit=: one row per commission (an order of a referred account). */
export const earningsQuerySchema = z.object({
  cursor: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const earningStatusSchema = z.enum(["pending", "claimable", "claimed", "reversed"]);
export const earningSchema = z.object({
  orderId: z.uuid(),
  campaignId: z.uuid(),
  /** The referred account, anonymised. */
  account: z.string(),
  saleAmount: z.number().int(),
  commission: z.number().int(),
  currency: currencySchema,
  status: earningStatusSchema,
  paidAt: z.iso.datetime(),
  availableAt: z.iso.datetime(),
});
export type Earning = z.infer<typeof earningSchema>;
export const earningListSchema = z.object({ items: z.array(earningSchema), nextCursor: z.uuid().nullable() });

/**
 * POST /campaigns/claim: everything claimable moves into the wallet's available balance, once.
 * `amount`/`currency` are the claim's (its largest currency when there are several); `claims` lists each.
 */
export const claimResponseSchema = z.object({
  amount: z.number().int(),
  currency: currencySchema,
  claims: moneyByCurrency,
});
export type ClaimResponse = z.infer<typeof claimResponseSchema>;

/** The strong signal a flagged referral shared with its referrer (issue 16, self-referral). */
export const referralFlagSignals = ["email", "signup_device", "iban"] as const;
export const referralFlagSignalSchema = z.enum(referralFlagSignals);

/** GET /admin/referral-flags: self-referrals, newest first; they earn nothing from their flag on. */
export const adminReferralFlagListSchema = z.object({
  items: z.array(
    z.object({
      referred: z.object({ id: z.uuid(), email: z.string() }),
      referrer: z.object({ id: z.uuid(), email: z.string() }),
      signal: referralFlagSignalSchema,
      flaggedAt: z.iso.datetime(),
      /** Unclaimed commissions taken back (one reversal per order). */
      voidedCommissions: z.number().int(),
    }),
  ),
});
export type AdminReferralFlagList = z.infer<typeof adminReferralFlagListSchema>;
