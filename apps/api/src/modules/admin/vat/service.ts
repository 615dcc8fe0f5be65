import {
  type Currency,
  quarterOf,
  type VatOssCheck,
  type VatOssQuery,
  type VatOssReport,
  type VatQuarter,
} from "@salelink/contracts";
import { vatAccount } from "@salelink/contracts/ledger";
import { euVatCountries } from "@salelink/contracts/vat-countries";
import type { Db, DbOrTx } from "../../../db/client.ts";
import { csvDocument } from "../../../lib/csv.ts";
import { validation } from "../../../lib/errors.ts";
import { audit } from "../../audit/queries.ts";
import { ossInvoiceTotals, ossLedgerTotals } from "./queries.ts";

/*
 * The One-Stop Shop return of a quarter (issue 22): per EU member state, rate and currency, the
 * taxable amount and the VAT of the invoices less the credit notes issued in it, beside what the
 * ledger's `vat_XX` accounts moved in the same quarter. Both are written in the payment's (or the
 * refund's) own transaction, so they must agree; `matches` says whether they do. GB, NO, CH and IS
 * are declared in those countries' own returns, not through the Union scheme: not here.
 */

/** The quarter's [from, to) in UTC; a 400 for one that has not started. */
export function quarterRange(quarter: VatQuarter, now: Date): { from: Date; to: Date } {
  const [year, q] = quarter.split("-Q").map(Number) as [number, number];
  const from = new Date(Date.UTC(year, (q - 1) * 3, 1));
  if (year < 2000 || from > now) throw validation({ quarter: ["This quarter has not started yet."] });
  return { from, to: new Date(Date.UTC(year, q * 3, 1)) };
}

export async function ossReport(db: DbOrTx, query: VatOssQuery, now: Date): Promise<VatOssReport> {
  const quarter = query.quarter ?? quarterOf(now);
  const { from, to } = quarterRange(quarter, now);
  const [invoiced, ledger] = await Promise.all([
    ossInvoiceTotals(db, { from, to, countries: euVatCountries }),
    ossLedgerTotals(db, { from, to, accounts: euVatCountries.map((c) => vatAccount(c)) }),
  ]);
  const rows = invoiced.map((r) => ({
    country: r.country,
    rateBps: r.rateBps,
    currency: r.currency,
    taxableMinor: Number(r.taxableMinor),
    vatMinor: Number(r.vatMinor),
    documents: Number(r.documents),
  }));
  const checks = new Map<string, VatOssCheck>();
  const check = (country: string, currency: Currency) => {
    const key = `${country}:${currency}`;
    const found = checks.get(key) ?? {
      country,
      currency,
      invoicedVatMinor: 0,
      ledgerVatMinor: 0,
      matches: true,
    };
    checks.set(key, found);
    return found;
  };
  for (const r of rows) check(r.country, r.currency).invoicedVatMinor += r.vatMinor;
  for (const l of ledger)
    check(l.account.slice("vat_".length), l.currency).ledgerVatMinor += Number(l.amountMinor);
  const list = [...checks.values()]
    .map((c) => ({ ...c, matches: c.invoicedVatMinor === c.ledgerVatMinor }))
    .sort((a, b) =>
      a.country === b.country ? a.currency.localeCompare(b.currency) : a.country.localeCompare(b.country),
    );
  return {
    quarter,
    from: from.toISOString(),
    to: to.toISOString(),
    rows,
    ledger: list,
    matches: list.every((c) => c.matches),
  };
}

/** Minor units as a decimal a spreadsheet sums ("1234.50"); every currency allowed has two decimals. */
const decimal = (minor: number) => {
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
};

export function ossCsv(report: VatOssReport): string {
  const ledger = new Map(report.ledger.map((c) => [`${c.country}:${c.currency}`, c]));
  return csvDocument(
    [
      "quarter",
      "country",
      "rate_percent",
      "currency",
      "taxable_amount",
      "vat",
      "documents",
      "ledger_vat",
      "matches",
    ],
    [
      ...report.rows.map((r) => {
        const l = ledger.get(`${r.country}:${r.currency}`);
        return [
          report.quarter,
          r.country,
          (r.rateBps / 100).toFixed(2),
          r.currency,
          decimal(r.taxableMinor),
          decimal(r.vatMinor),
          r.documents,
          l ? decimal(l.ledgerVatMinor) : "",
          l?.matches ? "yes" : "no",
        ];
      }),
      // VAT the ledger holds without an invoice: shown, so the difference cannot hide.
      ...report.ledger
        .filter((c) => !report.rows.some((r) => r.country === c.country && r.currency === c.currency))
        .map((c) => [report.quarter, c.country, "", c.currency, "", "", 0, decimal(c.ledgerVatMinor), "no"]),
    ],
  );
}

/** The CSV, its download written to the audit trail in the same transaction (who took which quarter). */
export async function exportOss(db: Db, adminId: string, query: VatOssQuery, now: Date) {
  return db.transaction(async (tx) => {
    const report = await ossReport(tx, query, now);
    await audit(tx, {
      actorId: adminId,
      action: "vat.export",
      targetType: "vat",
      targetId: report.quarter,
      reason: "One-Stop Shop export (CSV)",
      details: { quarter: report.quarter, rows: report.rows.length, matches: report.matches },
    });
    return { report, body: ossCsv(report) };
  });
}
