import type { z } from "zod";

/** The fields of the "create IBAN section" form. */
export type BankField = "holderName" | "iban" | "bic";

/** Keys under "payouts.errors" in the web messages. */
export const bankErrorKeys = [
  "holderNameShort",
  "holderNameLong",
  "ibanFormat",
  "ibanCountry",
  "ibanLength",
  "ibanChecksum",
  "bic",
] as const;
export type BankErrorKey = (typeof bankErrorKeys)[number];

/*
 * The contract (createBankAccountBodySchema) words its IBAN and BIC refusals in English for the API,
 * which translates them itself; the browser checks with the same schema and shows the page's own
 * translation of each, found by the English text.
 */
const byContractMessage: Record<string, BankErrorKey> = {
  "Enter an IBAN: two letters, two digits, then the account.": "ibanFormat",
  "Payouts go to banks in the 30 European countries we serve.": "ibanCountry",
  "This IBAN does not have the length of its country's.": "ibanLength",
  "This IBAN's check digits do not match: check for a typo.": "ibanChecksum",
  "A BIC has 8 or 11 letters and digits.": "bic",
};

const isField = (key: string): key is BankField => key === "holderName" || key === "iban" || key === "bic";

/** The message key of one refusal of a field (null for a path that is no field of the form). */
export function bankErrorKeyOf(field: string, code: string, contractText: string): BankErrorKey | null {
  if (!isField(field)) return null;
  if (field === "holderName") return code === "too_big" ? "holderNameLong" : "holderNameShort";
  // A refusal the contract words differently one day still lands under its field.
  return byContractMessage[contractText] ?? (field === "iban" ? "ibanFormat" : "bic");
}

/** The first refusal per field of a failed client-side check, as a message key. */
export function bankErrorKeysOf(error: z.ZodError): Partial<Record<BankField, BankErrorKey>> {
  const out: Partial<Record<BankField, BankErrorKey>> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    if (!isField(field) || out[field]) continue;
    out[field] = bankErrorKeyOf(field, issue.code, issue.message) ?? undefined;
  }
  return out;
}
