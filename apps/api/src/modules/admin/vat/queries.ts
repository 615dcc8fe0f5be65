import type { LedgerAccount } from "@salelink/contracts/ledger";
import type { VatCountry } from "@salelink/contracts/vat-countries";
import { and, asc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.ts";
import { invoices, ledgerEntries } from "../../../db/schema/index.ts";

/**
 * The quarter's taxed invoices and credit notes per country, rate and currency (a credit note's
 * amounts are negative: it takes its part off). No owner: the admin's report of the platform's VAT.
 */
export function ossInvoiceTotals(
  db: DbOrTx,
  params: { from: Date; to: Date; countries: readonly VatCountry[] },
) {
  return db
    .select({
      country: sql<string>`${invoices.vatCountry}`,
      rateBps: invoices.vatRateBps,
      currency: invoices.currency,
      taxableMinor: sql<string>`sum(${invoices.netMinor})`,
      vatMinor: sql<string>`sum(${invoices.vatMinor})`,
      documents: sql<string>`count(*)`,
    })
    .from(invoices)
    .where(
      and(
        eq(invoices.scheme, "standard"),
        inArray(invoices.vatCountry, [...params.countries]),
        gte(invoices.issuedAt, params.from),
        lt(invoices.issuedAt, params.to),
      ),
    )
    .groupBy(invoices.vatCountry, invoices.vatRateBps, invoices.currency)
    .orderBy(asc(invoices.vatCountry), asc(invoices.vatRateBps), asc(invoices.currency));
}

/** The quarter's movements of the VAT liability accounts, per account and currency. */
export function ossLedgerTotals(
  db: DbOrTx,
  params: { from: Date; to: Date; accounts: readonly LedgerAccount[] },
) {
  return db
    .select({
      account: sql<string>`${ledgerEntries.account}`,
      currency: ledgerEntries.currency,
      amountMinor: sql<string>`sum(${ledgerEntries.amountMinor})`,
    })
    .from(ledgerEntries)
    .where(
      and(
        inArray(ledgerEntries.account, [...params.accounts]),
        gte(ledgerEntries.createdAt, params.from),
        lt(ledgerEntries.createdAt, params.to),
      ),
    )
    .groupBy(ledgerEntries.account, ledgerEntries.currency);
}
