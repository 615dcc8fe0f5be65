import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
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
      // What a user owes when a reversal found their money gone (issue 32).
      "debt",
      "platform_fees",
      "provider",
      "buyer_refunds",
      "debts_written_off",
      "disputes_held",
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
      "debt",
    ]);
    expect(platformAccounts).toEqual([
      "platform_fees",
      "provider",
      "buyer_refunds",
      "debts_written_off",
      "disputes_held",
      ...vatCountries.map((c) => `vat_${c}`),
    ]);
    expect(holderOf("vat_FR")).toBe("platform");
    expect(ledgerAccountNames).toEqual(userAccounts);
    expect(holderOf("available")).toBe("user");
    expect(holderOf("provider")).toBe("platform");
    expect(() => holderOf("nobody" as never)).toThrow(RangeError);
  });

  it("lets only debts, the platform's fees, the provider and write-offs go negative", () => {
    expect(nonNegativeAccounts).toEqual([
      ...userAccounts.filter((a) => a !== "debt"),
      "buyer_refunds",
      ...vatCountries.map((c) => `vat_${c}`),
    ]);
  });

  it("is what the schema enumerates and checks", () => {
    expect(ledgerEntries.account.enumValues).toEqual(ledgerAccounts);
    expect(ledgerBalances.account.enumValues).toEqual(ledgerAccounts);
    const checks = getTableConfig(ledgerBalances).checks;
    const sqlOf = (name: string) => {
      const check = checks.find((c) => c.name === name);
      return new PgDialect().sqlToQuery(check?.value ?? ({} as never)).sql;
    };
    // The SQL migration 0030 wrote (0005's, with debts and write-offs): the derived CHECK must not
    // drift from it.
    const migration = readFileSync(
      fileURLToPath(new URL("../../src/db/migrations/0030_debts_and_disputes.sql", import.meta.url)),
      "utf8",
    );
    expect(sqlOf("ledger_balances_never_negative")).toBe(
      `"ledger_balances"."balance_minor" >= 0 or "ledger_balances"."account" in ('debt', 'platform_fees', 'provider', 'debts_written_off', 'disputes_held')`,
    );
    expect(migration).toContain(`CHECK (${sqlOf("ledger_balances_never_negative")})`);
    // A debt is repaid up to zero, never past it.
    expect(migration).toContain(`CHECK (${sqlOf("ledger_balances_debt_not_positive")})`);
  });

  it("types every transaction kind, the wallet's among them", () => {
    expect(ledgerTransactions.kind.enumValues).toEqual(ledgerTransactionKinds);
    expect(transactionKindSchema.options).toEqual(transactionKinds);
    expect(ledgerTransactionKinds).toEqual([
      ...transactionKinds,
      "payment_unfulfilled",
      "unfulfilled_refund",
      "dispute_lost",
    ]);
  });
});
