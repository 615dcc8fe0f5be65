import { describe, expect, it } from "vitest";
import { toBankAccount } from "../../src/modules/payouts/bank-accounts/service.ts";

/* What the owner is shown of a saved bank account: never the whole IBAN. */

describe("toBankAccount", () => {
  const row = {
    id: "0b1d4f7e-8a43-4c55-9c0e-3f7f5d2a1b10",
    holderName: "Ada Lovelace",
    ibanCountry: "DE",
    ibanLast4: "3000",
    bic: null,
    createdAt: new Date("2026-03-01T10:00:00.000Z"),
  };

  it("masks the IBAN down to its country and last four characters", () => {
    expect(toBankAccount(row)).toEqual({
      id: row.id,
      holderName: "Ada Lovelace",
      ibanMasked: "DE•• •••• 3000",
      country: "DE",
      bic: null,
      createdAt: "2026-03-01T10:00:00.000Z",
    });
  });

  it("keeps the BIC when there is one", () => {
    expect(toBankAccount({ ...row, bic: "COBADEFFXXX" }).bic).toBe("COBADEFFXXX");
  });
});
