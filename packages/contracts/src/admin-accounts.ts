import { z } from "zod";
import { adminReasonSchema, auditEntrySchema } from "./admin.ts";
import { currencySchema } from "./business-rules.ts";
import { linkStatusSchema } from "./catalogue.ts";
import { orderStatusSchema } from "./checkout.ts";
import { identityProviderKindSchema, identitySessionStatusSchema } from "./identity.ts";
import { payoutStatusSchema } from "./payouts.ts";

/*
 * The admin console's accounts, identity list and overview (issue 8). Every action carries a reason
 * (adminReasonSchema) and is written to the audit log.
 */

/** An account's identity check as the console shows it: the latest session's status, or none. */
export const adminIdentityStatusSchema = z.union([identitySessionStatusSchema, z.literal("none")]);

/** GET /admin/accounts?q=&cursor=&limit= : search by e-mail or name, newest first. */
export const adminAccountListQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  cursor: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type AdminAccountListQuery = z.infer<typeof adminAccountListQuerySchema>;

export const adminAccountSummarySchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role: z.enum(["user", "admin"]),
  createdAt: z.iso.datetime(),
  emailVerified: z.boolean(),
  onboardingCompleted: z.boolean(),
  identityStatus: adminIdentityStatusSchema,
  suspendedAt: z.iso.datetime().nullable(),
  deletedAt: z.iso.datetime().nullable(),
});
export type AdminAccountSummary = z.infer<typeof adminAccountSummarySchema>;

export const adminAccountListSchema = z.object({
  items: z.array(adminAccountSummarySchema),
  nextCursor: z.uuid().nullable(),
});
export type AdminAccountList = z.infer<typeof adminAccountListSchema>;

export const adminIdentitySessionSchema = z.object({
  id: z.uuid(),
  provider: identityProviderKindSchema,
  status: identitySessionStatusSchema,
  reason: z.string().nullable(),
  createdAt: z.iso.datetime(),
  decidedAt: z.iso.datetime().nullable(),
});

/** GET /admin/accounts/:id */
export const adminAccountDetailSchema = adminAccountSummarySchema.extend({
  onboarding: z
    .object({
      kind: z.enum(["individual", "professional"]),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      companyName: z.string().nullable(),
      country: z.string(),
    })
    .nullable(),
  identitySessions: z.array(adminIdentitySessionSchema),
  /** Per ledger account and currency, in minor units. */
  balances: z.array(z.object({ account: z.string(), currency: currencySchema, amount: z.number().int() })),
  links: z.array(
    z.object({
      id: z.uuid(),
      title: z.string(),
      token: z.string(),
      status: linkStatusSchema,
      priceMinor: z.number().int(),
      currency: currencySchema,
      salesCount: z.number().int(),
      deleted: z.boolean(),
    }),
  ),
  /** The latest orders of this account's links; the buyer's address is masked. */
  orders: z.array(
    z.object({
      id: z.uuid(),
      totalMinor: z.number().int(),
      currency: currencySchema,
      status: orderStatusSchema,
      paidAt: z.iso.datetime().nullable(),
      buyer: z.string(),
    }),
  ),
  payouts: z.array(
    z.object({
      id: z.uuid(),
      status: payoutStatusSchema,
      amountMinor: z.number().int(),
      currency: currencySchema,
      requestedAt: z.iso.datetime(),
    }),
  ),
  referredBy: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  audit: z.array(auditEntrySchema),
});
export type AdminAccountDetail = z.infer<typeof adminAccountDetailSchema>;

/** POST /admin/accounts/:id/role */
export const adminRoleBodySchema = z.object({ role: z.enum(["user", "admin"]), reason: adminReasonSchema });
export type AdminRoleBody = z.infer<typeof adminRoleBodySchema>;

/** Actions whose reason may be left out (a fixed text is recorded then), e.g. approving a payout. */
/** A request without a body reaches validation as null: both mean "no reason given". */
export const adminOptionalReasonBodySchema = z.object({ reason: adminReasonSchema.optional() }).nullish();
export type AdminOptionalReasonBody = z.infer<typeof adminOptionalReasonBodySchema>;

/** GET /admin/identity?status=&cursor=&limit= */
export const adminIdentityListQuerySchema = z.object({
  status: identitySessionStatusSchema.optional(),
  cursor: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type AdminIdentityListQuery = z.infer<typeof adminIdentityListQuerySchema>;

export const adminIdentityListSchema = z.object({
  items: z.array(
    adminIdentitySessionSchema.extend({ account: z.object({ id: z.uuid(), email: z.string() }) }),
  ),
  nextCursor: z.uuid().nullable(),
});
export type AdminIdentityList = z.infer<typeof adminIdentityListSchema>;

/** GET /admin/overview?days=30 */
export const adminOverviewQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(365).default(30),
});

const moneyByCurrency = z.array(z.object({ currency: currencySchema, amount: z.number().int() }));

export const adminOverviewSchema = z.object({
  days: z.number().int(),
  totals: z.object({
    sales: z.array(z.object({ currency: currencySchema, count: z.number().int(), gross: z.number().int() })),
    fees: moneyByCurrency,
    newAccounts: z.number().int(),
    pendingPayouts: z.array(
      z.object({ currency: currencySchema, count: z.number().int(), amount: z.number().int() }),
    ),
    openReports: z.number().int(),
    identityAwaiting: z.number().int(),
  }),
  /** One row per day of the period (UTC dates, oldest first), days without activity included. */
  daily: z.array(
    z.object({
      date: z.iso.date(),
      sales: z.array(
        z.object({ currency: currencySchema, count: z.number().int(), gross: z.number().int() }),
      ),
      fees: moneyByCurrency,
      newAccounts: z.number().int(),
    }),
  ),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;
