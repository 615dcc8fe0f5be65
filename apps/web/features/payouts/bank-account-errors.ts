import type { BankAccountKind } from "@salelink/contracts/payouts";
import type { z } from "zod";

/** The fields of the "add a bank account" form, for its three kinds (issue 23). */
export const bankFields = [
  "kind",
  "holderName",
  "iban",
  "bic",
  "currency",
  "sortCode",
  "routingNumber",
  "accountNumber",
  "accountType",
] as const;
export type BankField = (typeof bankFields)[number];

/** Keys under "payouts.errors" in the web messages. */
export const bankErrorKeys = [
  "holderNameShort",
  "holderNameLong",
  "ibanFormat",
  "ibanCountry",
  "ibanLength",
  "ibanChecksum",
  "bic",
  "currencyChf",
  "sortCode",
  "gbAccountNumber",
  "routingNumber",
  "routingChecksum",
  "usAccountNumber",
  "accountType",
  "kind",
] as const;
export type BankErrorKey = (typeof bankErrorKeys)[number];

/*
 * The contract (createBankAccountBodySchema) words its refusals in English for the API, which
 * translates them itself; the browser checks with the same schema and shows the page's own
 * translation of each, found by the English text.
 */
const byContractMessage: Record<string, BankErrorKey> = {
  "Enter an IBAN: two letters, two digits, then the account.": "ibanFormat",
  "Payouts go to IBANs in the 30 European countries we serve and Switzerland.": "ibanCountry",
  "This IBAN does not have the length of its country's.": "ibanLength",
  "This IBAN's check digits do not match: check for a typo.": "ibanChecksum",
  "A BIC has 8 or 11 letters and digits.": "bic",
  "Only a Swiss account is paid in francs.": "currencyChf",
  "A sort code has 6 digits.": "sortCode",
  "A UK account number has 8 digits.": "gbAccountNumber",
  "A routing number has 9 digits.": "routingNumber",
  "This routing number's check digit does not match: check for a typo.": "routingChecksum",
  "A US account number has 4 to 17 digits.": "usAccountNumber",
};

/** What a field says when the contract words a refusal differently one day: still under its field. */
const fallback: Record<Exclude<BankField, "holderName" | "accountNumber">, BankErrorKey> = {
  kind: "kind",
  iban: "ibanFormat",
  bic: "bic",
  currency: "currencyChf",
  sortCode: "sortCode",
  routingNumber: "routingNumber",
  accountType: "accountType",
};

const isField = (key: string): key is BankField => (bankFields as readonly string[]).includes(key);

/**
 * The message key of one refusal of a field (null for a path that is no field of the form); the
 * account number's rule depends on the kind of account.
 */
export function bankErrorKeyOf(
  field: string,
  code: string,
  contractText: string,
  kind: BankAccountKind = "iban",
): BankErrorKey | null {
  if (!isField(field)) return null;
  if (field === "holderName") return code === "too_big" ? "holderNameLong" : "holderNameShort";
  const known = byContractMessage[contractText];
  if (known) return known;
  if (field === "accountNumber") return kind === "us" ? "usAccountNumber" : "gbAccountNumber";
  return fallback[field];
}

/** The first refusal per field of a failed client-side check, as a message key. */
export function bankErrorKeysOf(
  error: z.ZodError,
  kind: BankAccountKind = "iban",
): Partial<Record<BankField, BankErrorKey>> {
  const out: Partial<Record<BankField, BankErrorKey>> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    if (!isField(field) || out[field]) continue;
    out[field] = bankErrorKeyOf(field, issue.code, issue.message, kind) ?? undefined;
  }
  return out;
}
