import type { Config } from "../../config.ts";
import type { Tx } from "../../db/client.ts";
import type { InvoiceParty } from "../../db/schema/index.ts";
import type { OrderRow } from "../orders/queries.ts";
import type { RefundedParts } from "../wallet/postings.ts";
import { insertInvoices, invoiceOfOrder, type NewInvoice, takeNumbers } from "./queries.ts";

/*
 * Invoices and credit notes (issue 22, decision 039). The platform is the deemed supplier of every
 * sale: each paid order gets an invoice, each refund a credit note referring to it, numbered without
 * gaps per series and year in the payment's (or the refund's) own transaction. The rows keep what
 * was issued; the PDF is rendered from them.
 */

/** The series of a year's invoices ("2026") or credit notes ("CN-2026"). */
export const invoiceSeries = (kind: "invoice" | "credit-note", at: Date): string =>
  `${kind === "credit-note" ? "CN-" : ""}${at.getUTCFullYear()}`;

/** "2026-000123": the series and the number, as printed. */
export const invoiceNumber = (series: string, number: number): string =>
  `${series}-${String(number).padStart(6, "0")}`;

/** The supplier as configured; unset (never in production) the invoice says it is a sandbox's. */
export function sellerParty(config: Config): InvoiceParty {
  return {
    name: config.INVOICE_SELLER_NAME ?? "Salelink (sandbox: not a valid invoice)",
    address: (config.INVOICE_SELLER_ADDRESS ?? "")
      .split("|")
      .map((l) => l.trim())
      .filter(Boolean),
    ...(config.INVOICE_SELLER_VAT_NUMBER ? { vatNumber: config.INVOICE_SELLER_VAT_NUMBER } : {}),
  };
}

function buyerParty(order: OrderRow): InvoiceParty {
  const country = order.vatCountry ?? order.billingCountry;
  return {
    email: order.buyerEmail,
    ...(order.buyerName ? { name: order.buyerName } : {}),
    address: (order.buyerAddress ?? "")
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean),
    ...(country ? { country } : {}),
    ...(order.buyerVatNumber ? { vatNumber: order.buyerVatNumber } : {}),
  };
}

export interface PaidForInvoice {
  order: OrderRow;
  /** What was sold: the link's title. */
  title: string;
}

/** The invoices of orders just paid, in the payment's transaction: numbers taken last, held briefly. */
export async function issueInvoices(tx: Tx, config: Config, paid: readonly PaidForInvoice[]): Promise<void> {
  const bySeries = new Map<string, (NewInvoice & { number: number })[]>();
  for (const { order, title } of paid) {
    const at = order.paidAt ?? new Date();
    const series = invoiceSeries("invoice", at);
    const rows = bySeries.get(series) ?? [];
    rows.push({
      orderId: order.id,
      kind: "invoice",
      series,
      number: 0,
      locale: order.locale,
      currency: order.currency,
      netMinor: order.totalMinor - order.vatMinor,
      vatMinor: order.vatMinor,
      totalMinor: order.totalMinor,
      vatRateBps: order.vatMinor > 0 ? (order.vatRateBps ?? 0) : 0,
      vatCountry: order.vatCountry,
      scheme: order.vatScheme ?? "outside",
      description: title,
      seller: sellerParty(config),
      buyer: buyerParty(order),
      supplyDate: at,
    });
    bySeries.set(series, rows);
  }
  // Series in order, so two batches spanning a new year take their counters' locks alike.
  for (const [series, rows] of [...bySeries].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const first = await takeNumbers(tx, series, rows.length);
    rows.forEach((row, i) => {
      row.number = first + i;
    });
    await insertInvoices(tx, rows);
  }
}

/**
 * A refund's credit note, in the refund's transaction: the parts it took back, negative, referring
 * to the order's invoice (an order paid before invoices existed has none: nothing to correct).
 */
export async function issueCreditNote(
  tx: Tx,
  order: OrderRow,
  refund: { parts: RefundedParts; reference: string; title: string },
): Promise<void> {
  const invoice = await invoiceOfOrder(tx, order.id);
  if (!invoice) return;
  const now = new Date();
  const series = invoiceSeries("credit-note", now);
  const number = await takeNumbers(tx, series, 1);
  await insertInvoices(tx, [
    {
      orderId: order.id,
      kind: "credit-note",
      series,
      number,
      refersToId: invoice.id,
      refundReference: refund.reference,
      locale: order.locale,
      currency: order.currency,
      netMinor: -(refund.parts.amountMinor - refund.parts.vatMinor),
      vatMinor: -refund.parts.vatMinor,
      totalMinor: -refund.parts.amountMinor,
      vatRateBps: invoice.vatRateBps,
      vatCountry: invoice.vatCountry,
      scheme: invoice.scheme,
      description: refund.title,
      seller: invoice.seller,
      buyer: invoice.buyer,
      supplyDate: invoice.supplyDate,
    },
  ]);
}
