import { readFileSync } from "node:fs";
import path from "node:path";
import { createBankAccountBodySchema } from "@salelink/contracts/payouts";
import { describe, expect, it } from "vitest";
import {
  type BankErrorKey,
  bankErrorKeys,
  bankErrorKeysOf,
} from "../features/payouts/bank-account-errors.ts";

const valid = { holderName: "Ada Lovelace", iban: "FR76 3000 6000 0112 3456 7890 189", bic: "BNPAFRPP" };
const keysOf = (input: Record<string, string | undefined>) => {
  const parsed = createBankAccountBodySchema.safeParse({ ...valid, ...input });
  if (parsed.success) throw new Error(`accepted: ${JSON.stringify(input)}`);
  return bankErrorKeysOf(parsed.error);
};

describe("bank account form errors", () => {
  it("accepts a valid French IBAN typed with spaces, BIC optional", () => {
    expect(createBankAccountBodySchema.safeParse(valid).success).toBe(true);
    expect(createBankAccountBodySchema.safeParse({ ...valid, bic: undefined }).success).toBe(true);
  });

  it("turns each of the contract's refusals into its own translated message", () => {
    expect(keysOf({ iban: "12345" })).toEqual({ iban: "ibanFormat" });
    expect(keysOf({ iban: "GB82 WEST 1234 5698 7654 32" })).toEqual({ iban: "ibanCountry" });
    expect(keysOf({ iban: "FR76300060000112345678901" })).toEqual({ iban: "ibanLength" });
    expect(keysOf({ iban: "FR7630006000011234567890188" })).toEqual({ iban: "ibanChecksum" });
    expect(keysOf({ bic: "ABC" })).toEqual({ bic: "bic" });
    expect(keysOf({ holderName: " A " })).toEqual({ holderName: "holderNameShort" });
    expect(keysOf({ holderName: "x".repeat(141) })).toEqual({ holderName: "holderNameLong" });
    expect(keysOf({ holderName: "", iban: "", bic: "?" })).toEqual({
      holderName: "holderNameShort",
      iban: "ibanFormat",
      bic: "bic",
    });
  });

  const gb = { kind: "gb", holderName: "Ada Lovelace", sortCode: "20-00-00", accountNumber: "55779911" };
  const us = {
    kind: "us",
    holderName: "Ada Lovelace",
    routingNumber: "011000015",
    accountNumber: "000123456789",
    accountType: "checking",
  };
  const refused = (body: Record<string, unknown>, kind: "iban" | "gb" | "us") => {
    const parsed = createBankAccountBodySchema.safeParse(body);
    if (parsed.success) throw new Error(`accepted: ${JSON.stringify(body)}`);
    return bankErrorKeysOf(parsed.error, kind);
  };

  it("accepts UK, US and Swiss accounts (issue 23)", () => {
    expect(createBankAccountBodySchema.safeParse(gb).success).toBe(true);
    expect(createBankAccountBodySchema.safeParse(us).success).toBe(true);
    const swiss = { holderName: "Ada", iban: "CH93 0076 2011 6238 5295 7", currency: "CHF" };
    expect(createBankAccountBodySchema.safeParse(swiss).success).toBe(true);
  });

  it("names each field's rule for the UK, US and Swiss kinds", () => {
    expect(refused({ ...gb, sortCode: "20-00" }, "gb")).toEqual({ sortCode: "sortCode" });
    expect(refused({ ...gb, accountNumber: "1234" }, "gb")).toEqual({ accountNumber: "gbAccountNumber" });
    expect(refused({ ...us, routingNumber: "12345" }, "us")).toEqual({ routingNumber: "routingNumber" });
    expect(refused({ ...us, routingNumber: "011000016" }, "us")).toEqual({
      routingNumber: "routingChecksum",
    });
    expect(refused({ ...us, accountNumber: "12" }, "us")).toEqual({ accountNumber: "usAccountNumber" });
    expect(refused({ ...us, accountType: "current" }, "us")).toEqual({ accountType: "accountType" });
    expect(refused({ ...valid, currency: "CHF" }, "iban")).toEqual({ currency: "currencyChf" });
  });

  it.each(["en", "fr", "es"])("has every message in %s", (locale) => {
    const messages = JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, "..", "messages", `${locale}.json`), "utf8"),
    ) as { payouts: { errors: Record<BankErrorKey, string> } };
    for (const key of bankErrorKeys) expect(messages.payouts.errors[key], key).toBeTruthy();
  });
});
