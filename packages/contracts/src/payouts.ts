import { z } from "zod";
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
