import {
  chartOfAccounts,
  holderOf,
  ledgerAccounts,
  ledgerTransactionKinds,
  nonNegativeAccounts,
  platformAccounts,
  transactionKinds,
  userAccounts,
} from "@salelink/contracts/ledger";
import { vatCountries } from "@salelink/contracts/vat-countries";
import { ledgerAccountNames, transactionKindSchema } from "@salelink/contracts/wallet";
import { getTableConfig } from "drizzle-orm/pg-core";
import { PgDialect } from "drizzle-orm/pg-core/dialect";
import { describe, expect, it } from "vitest";
import { ledgerBalances, ledgerEntries, ledgerTransactions } from "../../src/db/schema/index.ts";

/* Everything that names an account or a kind derives from the one chart (decision 024). */

describe("the chart of accounts", () => {
  it("names each account once, users' first", () => {
    expect(ledgerAccounts).toEqual([
      "pending",
      "available",
      "in_transit",
      "affiliate_pending",
      "affiliate_claimable",
      "partner_pending",
      "partner_claimable",
      "platform_fees",
      "provider",
      "buyer_refunds",
      // One VAT liability per country the platform may tax (issue 22).
      ...vatCountries.map((c) => `vat_${c}`),
    ]);
    expect(new Set(ledgerAccounts).size).toBe(chartOfAccounts.length);
    expect(ledgerAccounts).toContain("vat_HU");
  });

  it("splits accounts into users' and the platform's, and the wallet shows the users'", () => {
    expect(userAccounts).toEqual([
      "pending",
      "available",
      "in_transit",
      "affiliate_pending",
      "affiliate_claimable",
      "partner_pending",
      "partner_claimable",
    ]);
    expect(platformAccounts).toEqual([
      "platform_fees",
      "provider",
      "buyer_refunds",
      ...vatCountries.map((c) => `vat_${c}`),
    ]);
    expect(holderOf("vat_FR")).toBe("platform");
    expect(ledgerAccountNames).toEqual(userAccounts);
    expect(holderOf("available")).toBe("user");
    expect(holderOf("provider")).toBe("platform");
    expect(() => holderOf("nobody" as never)).toThrow(RangeError);
  });

  it("lets only the platform's fees and the provider go negative", () => {
    expect(nonNegativeAccounts).toEqual([
      ...userAccounts,
      "buyer_refunds",
      ...vatCountries.map((c) => `vat_${c}`),
    ]);
  });

  it("is what the schema enumerates and checks", () => {
    expect(ledgerEntries.account.enumValues).toEqual(ledgerAccounts);
    expect(ledgerBalances.account.enumValues).toEqual(ledgerAccounts);
    const [check] = getTableConfig(ledgerBalances).checks;
    expect(check?.name).toBe("ledger_balances_never_negative");
    // The SQL the first migration wrote by hand: the derived CHECK must not drift from it.
    expect(new PgDialect().sqlToQuery(check?.value ?? ({} as never)).sql).toBe(
      `"ledger_balances"."balance_minor" >= 0 or "ledger_balances"."account" in ('platform_fees', 'provider')`,
    );
  });

  it("types every transaction kind, the wallet's among them", () => {
    expect(ledgerTransactions.kind.enumValues).toEqual(ledgerTransactionKinds);
    expect(transactionKindSchema.options).toEqual(transactionKinds);
    expect(ledgerTransactionKinds).toEqual([
      ...transactionKinds,
      "payment_unfulfilled",
      "unfulfilled_refund",
    ]);
  });
});
