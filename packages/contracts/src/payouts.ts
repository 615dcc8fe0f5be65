import { z } from "zod";
import { type Currency, currencySchema } from "./business-rules.ts";
import { type EuropeanCountry, europeanCountries } from "./countries.ts";

/*
 * Bank accounts for payouts (spec: "create IBAN section", "bank delete account"): IBANs of the 30
 * European countries of spec section 9, checked for their country's length and their checksum; since
 * issue 23 also Swiss IBANs (CHF or EUR), British accounts (sort code, account number, GBP) and
 * American ones (routing number, account number, checking or savings, USD).
 */

/** ISO 13616 lengths of the 30 countries' IBANs, and Switzerland's. */
export const ibanLengths: Record<EuropeanCountry | "CH", number> = {
  CH: 21,
  AT: 20,
  BE: 16,
  BG: 22,
  HR: 21,
  CY: 28,
  CZ: 24,
  DK: 18,
  EE: 20,
  FI: 18,
  FR: 27,
  DE: 22,
  GR: 27,
  HU: 28,
  IS: 26,
  IE: 22,
  IT: 27,
  LV: 21,
  LI: 21,
  LT: 20,
  LU: 20,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SK: 24,
  SI: 19,
  ES: 24,
  SE: 24,
};

/** The ISO 7064 mod-97 check of an IBAN (letters as 10–35, the first four characters moved to the end). */
export function ibanChecksumValid(iban: string): boolean {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of moved) {
    const digits = /[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}

const isIbanCountry = (code: string): code is EuropeanCountry | "CH" =>
  code === "CH" || (europeanCountries as readonly string[]).includes(code);

/** Spaces and case do not matter as typed; stored and compared in the electronic form. */
export const ibanSchema = z
  .string()
  .transform((s) => s.replace(/[\s-]/g, "").toUpperCase())
  .superRefine((iban, ctx) => {
    const country = iban.slice(0, 2);
    if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) {
      ctx.addIssue({ code: "custom", message: "Enter an IBAN: two letters, two digits, then the account." });
    } else if (!isIbanCountry(country)) {
      ctx.addIssue({
        code: "custom",
        message: "Payouts go to IBANs in the 30 European countries we serve and Switzerland.",
      });
    } else if (iban.length !== ibanLengths[country]) {
      ctx.addIssue({ code: "custom", message: "This IBAN does not have the length of its country's." });
    } else if (!ibanChecksumValid(iban)) {
      ctx.addIssue({ code: "custom", message: "This IBAN's check digits do not match: check for a typo." });
    }
  });

export const bicSchema = z
  .string()
  .transform((s) => s.replace(/\s/g, "").toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, "A BIC has 8 or 11 letters and digits."));

export const bankAccountKinds = ["iban", "gb", "us"] as const;
export const bankAccountKindSchema = z.enum(bankAccountKinds);
export type BankAccountKind = z.infer<typeof bankAccountKindSchema>;
export const usAccountTypes = ["checking", "savings"] as const;
export const usAccountTypeSchema = z.enum(usAccountTypes);

/** The ABA routing number's check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 mod 10. */
export function routingNumberValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = [...routing].map(Number);
  const [a = 0, b = 0, c = 0, e = 0, f = 0, g = 0, h = 0, i = 0, j = 0] = d;
  return (3 * (a + e + h) + 7 * (b + f + i) + (c + g + j)) % 10 === 0;
}

const digitsOnly = z.string().transform((s) => s.replace(/[\s-]/g, ""));
const holderNameSchema = z.string().trim().min(2).max(140);

const ibanAccountBody = z
  .object({
    kind: z.literal("iban"),
    holderName: holderNameSchema,
    iban: ibanSchema,
    bic: bicSchema.optional(),
    /** Euros, or Swiss francs for a Swiss IBAN. */
    currency: z.enum(["EUR", "CHF"]).default("EUR"),
  })
  .superRefine((body, ctx) => {
    if (body.currency === "CHF" && !body.iban.startsWith("CH"))
      ctx.addIssue({
        code: "custom",
        path: ["currency"],
        message: "Only a Swiss account is paid in francs.",
      });
  });
const gbAccountBody = z.object({
  kind: z.literal("gb"),
  holderName: holderNameSchema,
  sortCode: digitsOnly.pipe(z.string().regex(/^\d{6}$/, "A sort code has 6 digits.")),
  accountNumber: digitsOnly.pipe(z.string().regex(/^\d{8}$/, "A UK account number has 8 digits.")),
});
const usAccountBody = z.object({
  kind: z.literal("us"),
  holderName: holderNameSchema,
  routingNumber: digitsOnly
    .pipe(z.string().regex(/^\d{9}$/, "A routing number has 9 digits."))
    // Only on nine digits: a short or long number has its own message, not this one too.
    .refine(
      (routing) => !/^\d{9}$/.test(routing) || routingNumberValid(routing),
      "This routing number's check digit does not match: check for a typo.",
    ),
  accountNumber: digitsOnly.pipe(z.string().regex(/^\d{4,17}$/, "A US account number has 4 to 17 digits.")),
  accountType: usAccountTypeSchema,
});

/**
 * POST /profile/bank-accounts. A body without `kind` is an IBAN account, as before issue 23. Each
 * account is paid in one currency: an IBAN in EUR (or CHF when Swiss), GB in GBP, US in USD.
 */
export const createBankAccountBodySchema = z.preprocess(
  (value) =>
    value !== null && typeof value === "object" && !("kind" in value) ? { ...value, kind: "iban" } : value,
  z.discriminatedUnion("kind", [ibanAccountBody, gbAccountBody, usAccountBody]),
);
export type CreateBankAccountBody = z.infer<typeof createBankAccountBodySchema>;

/** The currency each kind of account is paid in (an IBAN: the body's). */
export const bankAccountCurrency = (body: CreateBankAccountBody): Currency =>
  body.kind === "iban" ? body.currency : body.kind === "gb" ? "GBP" : "USD";

/** A bank account as its owner sees it: never the whole IBAN once saved. */
export const bankAccountSchema = z.object({
  id: z.uuid(),
  holderName: z.string(),
  /** "FR76 •••• 1234"; for a GB or US account, its bank code and last four ("20-00-00 •••• 5678"). */
  ibanMasked: z.string(),
  country: z.string().length(2),
  bic: z.string().nullable(),
  kind: bankAccountKindSchema,
  currency: currencySchema,
  accountType: usAccountTypeSchema.nullable(),
  createdAt: z.iso.datetime(),
});
export type BankAccount = z.infer<typeof bankAccountSchema>;
export const bankAccountListSchema = z.object({ items: z.array(bankAccountSchema) });

/*
 * Payouts ("bank withdraw", `/profile/payout`, `/profile/transfers`): money leaves the available
 * balance when a payout is requested and reaches the bank when it is paid; a failed payout gives it
 * back. Amounts are minor units of their currency.
 */

export const payoutStatuses = ["requested", "processing", "paid", "failed"] as const;
export const payoutStatusSchema = z.enum(payoutStatuses);
export type PayoutStatus = z.infer<typeof payoutStatusSchema>;

/**
 * Who moves the money: Stripe Connect, our team by bank transfer, or the sandbox's simulated bank
 * (the default of a development run, labelled on screen; decision 041).
 */
export const payoutProviderKinds = ["manual", "stripe", "sandbox"] as const;
export const payoutProviderKindSchema = z.enum(payoutProviderKinds);
export type PayoutProviderKind = z.infer<typeof payoutProviderKindSchema>;

/** Asked by the creator, or started by their schedule (issue 23). */
export const payoutOrigins = ["request", "schedule"] as const;
export const payoutOriginSchema = z.enum(payoutOrigins);
export type PayoutOrigin = z.infer<typeof payoutOriginSchema>;

/**
 * The risk rules that hold a payout for an operator's review (issue 23; thresholds are settings):
 * the account's first payout, an amount above a threshold, an account younger than some days,
 * refunds or reports on its sales lately, a bank account added lately.
 */
export const payoutRiskRules = [
  "first_payout",
  "above_threshold",
  "young_account",
  "recent_refunds",
  "recent_reports",
  "bank_account_changed",
] as const;
export const payoutRiskRuleSchema = z.enum(payoutRiskRules);
export type PayoutRiskRule = z.infer<typeof payoutRiskRuleSchema>;

/** A payout's timeline, step by step (issue 23). */
export const payoutStepKinds = [
  "requested",
  "scheduled",
  "held",
  "approved",
  "sent",
  "paid",
  "failed",
] as const;
export const payoutStepKindSchema = z.enum(payoutStepKinds);
export const payoutStepDetailSchema = z.object({
  /** held: the rules that held it. */
  rules: z.array(payoutRiskRuleSchema).optional(),
  /** approved: by the risk rules (nothing held it) or by an operator. */
  by: z.enum(["rules", "admin"]).optional(),
  /** failed: the provider's or the operator's reason; held/approved: the operator's note. */
  reason: z.string().optional(),
  /** sent / paid: what the bank statement shows. */
  bankReference: z.string().optional(),
  /** scheduled: the schedule's period. */
  period: z.string().optional(),
});
export type PayoutStepDetail = z.infer<typeof payoutStepDetailSchema>;
export const payoutStepSchema = z.object({
  step: payoutStepKindSchema,
  at: z.iso.datetime(),
  detail: payoutStepDetailSchema,
});
export type PayoutStep = z.infer<typeof payoutStepSchema>;

/** A creator's payout schedule; "manual" is on request, the default (issue 23). */
export const payoutScheduleKinds = ["weekly", "monthly", "threshold"] as const;
export const payoutScheduleBodySchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("manual") }),
  /** ISO weekday: 1 is Monday. */
  z.object({ kind: z.literal("weekly"), weekday: z.number().int().min(1).max(7) }),
  /** Up to the 28th, so that every month has the day. */
  z.object({ kind: z.literal("monthly"), dayOfMonth: z.number().int().min(1).max(28) }),
  /** As soon as a currency's available balance reaches this (minor units; at least the minimum). */
  z.object({ kind: z.literal("threshold"), thresholdMinor: z.number().int().positive() }),
]);
export type PayoutScheduleBody = z.infer<typeof payoutScheduleBodySchema>;

/** What keeps a schedule from paying, told to the creator instead of failing silently. */
export const payoutScheduleBlockers = [
  "onboarding",
  "identity",
  "suspended",
  "bank_account",
  "debt",
] as const;
export const payoutScheduleBlockerSchema = z.object({
  code: z.enum(payoutScheduleBlockers),
  /** bank_account: the currency with a balance and no account that takes it; debt: the currency owed. */
  currency: currencySchema.optional(),
});

/** GET and PUT /profile/payout/schedule */
export const payoutScheduleSchema = z.object({
  schedule: payoutScheduleBodySchema,
  /** When the schedule next looks at the balances (null on request). */
  nextRunAt: z.iso.datetime().nullable(),
  /** What kept its last due run from paying; empty when nothing did. */
  blocked: z.array(payoutScheduleBlockerSchema),
  blockedAt: z.iso.datetime().nullable(),
});
export type PayoutSchedule = z.infer<typeof payoutScheduleSchema>;

/** POST /profile/payout */
export const payoutRequestBodySchema = z.object({
  bankAccountId: z.uuid(),
  currency: currencySchema.default("EUR"),
  /** Minor units; the whole available balance in that currency when left out. */
  amount: z.number().int().positive().optional(),
});
export type PayoutRequestBody = z.input<typeof payoutRequestBodySchema>;

export const payoutSchema = z.object({
  id: z.uuid(),
  status: payoutStatusSchema,
  amount: z.number().int(),
  currency: currencySchema,
  /** The account as it was when the payout was requested (it may have been deleted since). */
  bankAccount: z.object({ id: z.uuid().nullable(), holderName: z.string(), ibanMasked: z.string() }),
  failureReason: z.string().nullable(),
  origin: payoutOriginSchema,
  /** The rules that held it for review; empty when it went straight to the provider. */
  heldRules: z.array(payoutRiskRuleSchema),
  /** What the bank statement shows, once sent. */
  bankReference: z.string().nullable(),
  requestedAt: z.iso.datetime(),
  processingAt: z.iso.datetime().nullable(),
  paidAt: z.iso.datetime().nullable(),
  failedAt: z.iso.datetime().nullable(),
});
export type Payout = z.infer<typeof payoutSchema>;

/** GET /profile/payouts/:id: one payout with its timeline. */
export const payoutDetailSchema = payoutSchema.extend({ steps: z.array(payoutStepSchema) });
export type PayoutDetail = z.infer<typeof payoutDetailSchema>;

/** GET /profile/transfers?cursor=&limit= (newest first; the cursor is the last item's id). */
export const transferListQuerySchema = z.object({
  cursor: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const transferListSchema = z.object({
  items: z.array(payoutSchema),
  nextCursor: z.uuid().nullable(),
});
export type TransferList = z.infer<typeof transferListSchema>;

/** A debt in one currency: how much is owed, since when, and what caused it. */
export const debtSummarySchema = z.object({
  currency: currencySchema,
  /** What is owed, in minor units (positive). */
  amount: z.number().int().positive(),
  since: z.iso.datetime(),
  /** The reversals it is made of: refunds and disputes of sales (their order), a dispute's fee. */
  causes: z.array(z.enum(["refund", "dispute", "dispute_fee"])),
});
export type DebtSummary = z.infer<typeof debtSummarySchema>;

/** What stands between the account and a withdrawal, in the order they are to be done. */
export const payoutBlockers = [
  "onboarding",
  "identity",
  "bank_account",
  /** The account owes money in some currency (issue 32): repaid from its next sales first. */
  "debt",
  "open_payout",
  "below_minimum",
] as const;
export const payoutBlockerSchema = z.enum(payoutBlockers);
export type PayoutBlocker = z.infer<typeof payoutBlockerSchema>;

/** GET /profile/payout: the limits that apply to this account and why a withdrawal is not possible yet. */
export const payoutEligibilitySchema = z.object({
  /** Minor units; the same figure in each currency. */
  minimum: z.number().int(),
  available: z.array(z.object({ currency: currencySchema, amount: z.number().int() })),
  blockers: z.array(payoutBlockerSchema),
  openPayout: payoutSchema.nullable(),
  /**
   * Each currency on its own (issue 23): its balance, its open payout, and what keeps it from a
   * withdrawal (no account that takes it, a payout of it open, below the minimum).
   */
  perCurrency: z.array(
    z.object({
      currency: currencySchema,
      available: z.number().int(),
      blockers: z.array(payoutBlockerSchema),
      openPayout: payoutSchema.nullable(),
    }),
  ),
  provider: payoutProviderKindSchema,
  /**
   * The account's suspension by an admin (issue 23): since when, and the admin's reason as they
   * wrote it; its payouts and its links' sales are paused until it is reinstated. Null when none.
   */
  suspension: z.object({ reason: z.string(), since: z.iso.datetime() }).nullable().default(null),
  /**
   * What the account owes (issue 32, decision 042), per currency: a refund or a chargeback that
   * found the money already paid out. Positive amounts; no payout leaves while any is owed.
   */
  debts: z.array(debtSummarySchema).default([]),
});
export type PayoutEligibility = z.infer<typeof payoutEligibilitySchema>;

/** GET /admin/payouts?status=&cursor=&limit= : the queue, with the checks an operator looks at. */
export const adminPayoutListQuerySchema = transferListQuerySchema.extend({
  status: payoutStatusSchema.optional(),
});
export const adminPayoutSchema = payoutSchema.extend({
  user: z.object({ id: z.uuid(), email: z.string() }),
  identityApproved: z.boolean(),
  onboardingCompleted: z.boolean(),
  /** The bank account still exists and belongs to the payee. */
  bankAccountOnFile: z.boolean(),
  provider: payoutProviderKindSchema,
  providerPayoutId: z.string().nullable(),
});
export type AdminPayout = z.infer<typeof adminPayoutSchema>;
export const adminPayoutListSchema = z.object({
  items: z.array(adminPayoutSchema),
  nextCursor: z.uuid().nullable(),
});

/** POST /admin/payouts/:id/fail */
export const payoutFailBodySchema = z.object({ reason: z.string().trim().min(3).max(500) });

/**
 * GET /admin/payouts/mismatches (issue 32): a Stripe connected account holding money that no payout
 * in flight explains (or a negative balance), or a transfer Stripe would not give back.
 */
export const adminPayoutMismatchSchema = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  email: z.string(),
  accountId: z.string(),
  currency: currencySchema,
  /** At most what the payouts in flight explain. */
  expectedMinor: z.number().int(),
  /** What the connected account holds. */
  actualMinor: z.number().int(),
  reason: z.string().nullable(),
  foundAt: z.iso.datetime(),
  checkedAt: z.iso.datetime(),
});
export type AdminPayoutMismatch = z.infer<typeof adminPayoutMismatchSchema>;
export const adminPayoutMismatchListSchema = z.object({ items: z.array(adminPayoutMismatchSchema) });
