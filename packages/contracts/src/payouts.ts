import { z } from "zod";
import { currencySchema } from "./business-rules.ts";
import { type EuropeanCountry, europeanCountries } from "./countries.ts";

/*
 * Bank accounts for payouts (spec: "create IBAN section", "bank delete account"): IBANs of the 30
 * European countries of spec section 9, checked for their country's length and their checksum.
 */

/** ISO 13616 lengths of the 30 countries' IBANs. */
export const ibanLengths: Record<EuropeanCountry, number> = {
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

const isEuropean = (code: string): code is EuropeanCountry =>
  (europeanCountries as readonly string[]).includes(code);

/** Spaces and case do not matter as typed; stored and compared in the electronic form. */
export const ibanSchema = z
  .string()
  .transform((s) => s.replace(/[\s-]/g, "").toUpperCase())
  .superRefine((iban, ctx) => {
    const country = iban.slice(0, 2);
    if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) {
      ctx.addIssue({ code: "custom", message: "Enter an IBAN: two letters, two digits, then the account." });
    } else if (!isEuropean(country)) {
      ctx.addIssue({ code: "custom", message: "Payouts go to banks in the 30 European countries we serve." });
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

/** POST /profile/bank-accounts */
export const createBankAccountBodySchema = z.object({
  holderName: z.string().trim().min(2).max(140),
  iban: ibanSchema,
  bic: bicSchema.optional(),
});
export type CreateBankAccountBody = z.infer<typeof createBankAccountBodySchema>;

/** A bank account as its owner sees it: never the whole IBAN once saved. */
export const bankAccountSchema = z.object({
  id: z.uuid(),
  holderName: z.string(),
  /** "FR76 •••• 1234" */
  ibanMasked: z.string(),
  country: z.string().length(2),
  bic: z.string().nullable(),
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

/** Who moves the money: Stripe Connect, or our team by bank transfer (the default, labelled on screen). */
export const payoutProviderKinds = ["manual", "stripe"] as const;
export const payoutProviderKindSchema = z.enum(payoutProviderKinds);
export type PayoutProviderKind = z.infer<typeof payoutProviderKindSchema>;

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
  requestedAt: z.iso.datetime(),
  processingAt: z.iso.datetime().nullable(),
  paidAt: z.iso.datetime().nullable(),
  failedAt: z.iso.datetime().nullable(),
});
export type Payout = z.infer<typeof payoutSchema>;

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

/** What stands between the account and a withdrawal, in the order they are to be done. */
export const payoutBlockers = [
  "onboarding",
  "identity",
  "bank_account",
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
  provider: payoutProviderKindSchema,
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
