import { describe, expect, it } from "vitest";
import {
  ibanBox,
  payoutDestination,
  toBankAccount,
} from "../../src/modules/payouts/bank-accounts/service.ts";
import { PayoutRefusedError } from "../../src/providers/payouts/types.ts";
import { testConfig } from "../support/app.ts";

/* What the owner is shown of a saved bank account: never the whole IBAN. */

describe("toBankAccount", () => {
  const row = {
    id: "0b1d4f7e-8a43-4c55-9c0e-3f7f5d2a1b10",
    holderName: "Ada Lovelace",
    ibanCountry: "DE",
    ibanLast4: "3000",
    bic: null,
    kind: "iban" as const,
    currency: "EUR" as const,
    bankCode: null,
    accountType: null,
    createdAt: new Date("2026-03-01T10:00:00.000Z"),
  };

  it("masks the IBAN down to its country and last four characters", () => {
    expect(toBankAccount(row)).toEqual({
      id: row.id,
      holderName: "Ada Lovelace",
      ibanMasked: "DE•• •••• 3000",
      country: "DE",
      bic: null,
      kind: "iban",
      currency: "EUR",
      accountType: null,
      createdAt: "2026-03-01T10:00:00.000Z",
    });
  });

  it("shows a UK account by its sort code and a US one by its routing number, never the number", () => {
    const gb = {
      ...row,
      kind: "gb" as const,
      currency: "GBP" as const,
      ibanCountry: "GB",
      ibanLast4: "7788",
      bankCode: "200000",
    };
    expect(toBankAccount(gb)).toMatchObject({
      ibanMasked: "20-00-00 •••• 7788",
      country: "GB",
      currency: "GBP",
    });
    const us = {
      ...row,
      kind: "us" as const,
      currency: "USD" as const,
      ibanCountry: "US",
      ibanLast4: "6789",
      bankCode: "110000000",
      accountType: "checking" as const,
    };
    expect(toBankAccount(us)).toMatchObject({ ibanMasked: "110000000 •••• 6789", accountType: "checking" });
  });

  it("keeps the BIC when there is one", () => {
    expect(toBankAccount({ ...row, bic: "COBADEFFXXX" }).bic).toBe("COBADEFFXXX");
  });
});

/* What a payout provider is given of a saved account: its kind's fields, the number opened. */

describe("payoutDestination", () => {
  const config = testConfig();
  const saved = {
    id: "0b1d4f7e-8a43-4c55-9c0e-3f7f5d2a1b10",
    ownerId: "5c4a0c55-2f0e-4d8b-a8a4-0f4f6b1c2d3e",
    holderName: "Ada Lovelace",
    ibanSealed: ibanBox(config).seal("DE89370400440532013000"),
    ibanCountry: "DE",
    ibanLast4: "3000",
    bic: "COBADEFFXXX",
    kind: "iban" as const,
    currency: "EUR" as const,
    bankCode: null,
    accountType: null,
    stripeExternalAccountId: "ba_1",
    createdAt: new Date(),
  };
  const common = { bankAccountId: saved.id, holderName: "Ada Lovelace", stripeExternalAccountId: "ba_1" };

  it("opens an IBAN, a UK and a US account number, each with its currency", () => {
    expect(payoutDestination(config, saved)).toEqual({
      ...common,
      kind: "iban",
      iban: "DE89370400440532013000",
      bic: "COBADEFFXXX",
      country: "DE",
      currency: "EUR",
    });
    const gb = {
      ...saved,
      kind: "gb" as const,
      currency: "GBP" as const,
      ibanCountry: "GB",
      bic: null,
      bankCode: "200000",
      ibanSealed: ibanBox(config).seal("55667788"),
    };
    expect(payoutDestination(config, gb)).toEqual({
      ...common,
      kind: "gb",
      sortCode: "200000",
      accountNumber: "55667788",
      country: "GB",
      currency: "GBP",
    });
    const us = {
      ...gb,
      kind: "us" as const,
      currency: "USD" as const,
      ibanCountry: "US",
      bankCode: "110000000",
      accountType: "savings" as const,
      ibanSealed: ibanBox(config).seal("000123456789"),
    };
    expect(payoutDestination(config, us)).toEqual({
      ...common,
      kind: "us",
      routingNumber: "110000000",
      accountNumber: "000123456789",
      accountType: "savings",
      country: "US",
      currency: "USD",
    });
    // A row without its bank code or type is refused for good, never sent on a guess.
    expect(() => payoutDestination(config, { ...gb, bankCode: null })).toThrow(PayoutRefusedError);
    expect(() => payoutDestination(config, { ...us, accountType: null })).toThrow(PayoutRefusedError);
  });
});
