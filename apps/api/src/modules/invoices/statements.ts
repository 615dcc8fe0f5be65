import type { Currency, Locale } from "@salelink/contracts";
import type { Config } from "../../config.ts";
import type { DbOrTx } from "../../db/client.ts";
import { notFound, validation } from "../../lib/errors.ts";
import type { CreatorStatement, StatementSale, StatementTotals } from "./document.ts";
import type { PdfFile } from "./downloads.ts";
import { renderStatementPdf } from "./pdf.ts";
import { type StatementSaleRow, statementCreator, statementSales } from "./read-queries.ts";
import { sellerParty } from "./service.ts";

/*
 * A creator's monthly statement (issue 22): the sales paid in a calendar month (UTC), per currency
 * and one by one, as they stand when it is asked for (a refund made since shows). Every part is
 * what the ledger holds of the sale less what refunds took back of it, so the figures add up:
 * gross − refunds − VAT − fees − commissions = net, the creator's earnings.
 */

/** The month "2026-11" as [start, end) in UTC; a 400 for a month that has not started. */
export function statementPeriod(
  month: string,
  now: Date,
): { year: number; month: number; from: Date; to: Date } {
  const [year, m] = month.split("-").map(Number) as [number, number];
  const from = new Date(Date.UTC(year, m - 1, 1));
  if (Number.isNaN(from.getTime()) || year < 2000) {
    throw validation({ month: ["A month is written YYYY-MM."] });
  }
  if (from > now) throw validation({ month: ["This month has not started yet."] });
  return { year, month: m, from, to: new Date(Date.UTC(year, m, 1)) };
}

/** What is left of one sale's parts after its refunds. */
function standing(row: StatementSaleRow) {
  const fee = (row.feeMinor ?? 0) - row.refundedFeeMinor - row.refundedCommissionMinor;
  return {
    gross: row.totalMinor,
    refunded: row.refundedMinor,
    vat: row.vatMinor - row.refundedVatMinor,
    fee,
    commission: (row.partnerCommissionMinor ?? 0) - row.refundedPartnerMinor,
    net: (row.netMinor ?? 0) - row.refundedNetMinor,
  };
}

export function statementFigures(rows: readonly StatementSaleRow[]): {
  totals: StatementTotals[];
  sales: StatementSale[];
} {
  const byCurrency = new Map<Currency, StatementTotals>();
  const sales: StatementSale[] = [];
  for (const row of rows) {
    const s = standing(row);
    const totals = byCurrency.get(row.currency) ?? {
      currency: row.currency,
      salesCount: 0,
      grossMinor: 0,
      vatMinor: 0,
      feesMinor: 0,
      commissionsMinor: 0,
      refundsMinor: 0,
      netMinor: 0,
    };
    totals.salesCount += 1;
    totals.grossMinor += s.gross;
    totals.vatMinor += s.vat;
    totals.feesMinor += s.fee;
    totals.commissionsMinor += s.commission;
    totals.refundsMinor += s.refunded;
    totals.netMinor += s.net;
    byCurrency.set(row.currency, totals);
    sales.push({
      paidAt: row.paidAt ?? new Date(0),
      link: row.title,
      currency: row.currency,
      grossMinor: s.gross,
      vatMinor: s.vat,
      feeMinor: s.fee,
      netMinor: s.net,
    });
  }
  return { totals: [...byCurrency.values()], sales };
}

/** The signed-in creator's statement of a month, as a PDF in the caller's language. */
export async function creatorStatementPdf(
  db: DbOrTx,
  config: Config,
  input: { creatorId: string; month: string; locale: Locale; now: Date },
): Promise<PdfFile & { statement: CreatorStatement }> {
  const period = statementPeriod(input.month, input.now);
  const creator = await statementCreator(db, input.creatorId);
  if (!creator) throw notFound("Account");
  const rows = await statementSales(db, { creatorId: input.creatorId, from: period.from, to: period.to });
  const seller = sellerParty(config);
  const statement: CreatorStatement = {
    period: { year: period.year, month: period.month },
    issuedAt: input.now,
    issuer: { name: seller.name ?? "", address: seller.address, vatNumber: seller.vatNumber ?? "" },
    creator: { name: creator.name ?? creator.email, email: creator.email },
    ...statementFigures(rows),
  };
  return {
    statement,
    filename: `statement-${input.month}.pdf`,
    body: await renderStatementPdf(statement, input.locale),
  };
}
