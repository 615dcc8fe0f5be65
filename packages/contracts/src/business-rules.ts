import { z } from "zod";

/** Links sell in these; since issue 23 also Swiss francs, so that a Swiss account is paid in its own. */
export const currencies = ["EUR", "USD", "GBP", "CHF"] as const;
export const currencySchema = z.enum(currencies);
export type Currency = z.infer<typeof currencySchema>;

const int = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/**
 * The business rules of DESIGN section 3, read from the environment by both the API and the web
 * server (the web shows them on public pages), so the two always agree. Rates are basis points.
 */
export const businessRulesEnvSchema = z
  .object({
    PLATFORM_FEE_BPS: int(0, 10_000, 1_000),
    HOLD_DAYS: int(0, 365, 7),
    AFFILIATE_COMMISSION_BPS: int(0, 10_000, 2_000),
    AFFILIATE_DURATION_MONTHS: int(1, 120, 12),
    AFFILIATE_COOKIE_DAYS: int(1, 365, 30),
    PAYOUT_MINIMUM_MINOR: int(1, 100_000_000, 1_000),
    LINK_PRICE_MIN_MINOR: int(1, 100_000_000, 100),
    LINK_PRICE_MAX_MINOR: int(1, 100_000_000, 500_000),
    IDENTITY_SESSIONS_PER_DAY: int(1, 100, 2),
    DEFAULT_CURRENCY: currencySchema.default("EUR"),
  })
  .transform((env) => ({
    platformFeeBps: env.PLATFORM_FEE_BPS,
    holdDays: env.HOLD_DAYS,
    affiliateCommissionBps: env.AFFILIATE_COMMISSION_BPS,
    affiliateDurationMonths: env.AFFILIATE_DURATION_MONTHS,
    affiliateCookieDays: env.AFFILIATE_COOKIE_DAYS,
    payoutMinimumMinor: env.PAYOUT_MINIMUM_MINOR,
    linkPriceMinMinor: env.LINK_PRICE_MIN_MINOR,
    linkPriceMaxMinor: env.LINK_PRICE_MAX_MINOR,
    identitySessionsPerDay: env.IDENTITY_SESSIONS_PER_DAY,
    defaultCurrency: env.DEFAULT_CURRENCY,
  }));

export type BusinessRules = z.output<typeof businessRulesEnvSchema>;
