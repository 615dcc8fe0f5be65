import { z } from "zod";
import { type ClaimResponse, claimResponseSchema, moneyByCurrency } from "./affiliates.ts";
import { currencySchema } from "./business-rules.ts";

/*
 * Partner programmes' sales (issue 20, decision 035): the commission each attributed sale carries
 * and the figures creators and partners see (partners.ts has the programmes and memberships).
 * Amounts in minor units of their currency.
 */

/**
 * Why an attributed sale earned its partner nothing (the creator sees it): the partner bought
 * through their own link, or their account shares a strong signal with the creator's (the checks
 * of the platform's self-referral: e-mail, sign-up device, bank account).
 */
export const partnerBlockReasons = ["self-purchase", "shared-signals"] as const;
export const partnerBlockReasonSchema = z.enum(partnerBlockReasons);
export type PartnerBlockReason = z.infer<typeof partnerBlockReasonSchema>;

// ---------------------------------------------------------------------------------------------
// Figures

/** A partner's money in one currency: what their sales brought and where their commission is. */
export const partnerMoneySchema = z.object({
  currency: currencySchema,
  /** What the buyers of their paid sales paid, net of refunds. */
  revenueMinor: z.number().int(),
  /** Commission still in the hold. */
  heldMinor: z.number().int(),
  /** After the hold, not claimed yet. */
  owedMinor: z.number().int(),
  /** Claimed into the partner's wallet. */
  paidMinor: z.number().int(),
});
export type PartnerMoney = z.infer<typeof partnerMoneySchema>;

export const partnerStatsSchema = z.object({
  /** Counted by the click counter: one per visitor per hour; bots and filtered traffic apart. */
  clicks: z.number().int(),
  botClicks: z.number().int(),
  filteredClicks: z.number().int(),
  /** Paid sales attributed to the partner, refunded ones excepted. */
  sales: z.number().int(),
  refunds: z.number().int(),
  /** Attributed sales that earned nothing, per reason. */
  blocked: z.array(z.object({ reason: partnerBlockReasonSchema, sales: z.number().int() })),
  money: z.array(partnerMoneySchema),
});
export type PartnerStats = z.infer<typeof partnerStatsSchema>;

/** One day of a partner's chart (UTC). */
export const partnerDaySchema = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  clicks: z.number().int(),
  sales: z.number().int(),
  /** Commission earned that day (refunds taken off), per currency. */
  commission: moneyByCurrency,
});
export type PartnerDay = z.infer<typeof partnerDaySchema>;

export const PARTNER_CHART_DEFAULT_DAYS = 30;
export const PARTNER_CHART_MAX_DAYS = 365;

/**
 * POST /programmes/claim: every partner commission past its hold moves into the wallet's available
 * balance, once. Answers as POST /campaigns/claim: the largest currency's amount, and each.
 */
export const partnerClaimResponseSchema = claimResponseSchema;
export type PartnerClaimResponse = ClaimResponse;
