import { type OrderInvoice, orderTokenSchema } from "@salelink/contracts";
import type { DbOrTx } from "../../db/client.ts";
import { notFound } from "../../lib/errors.ts";
import { hashToken } from "../../lib/tokens.ts";
import type { MailAttachment } from "../../providers/mail/types.ts";
import type { MailJobPayload } from "../mail/templates.ts";
import { invoiceDocument, invoiceFilename } from "./documents.ts";
import { renderInvoicePdf } from "./pdf.ts";
import { invoiceOfOrderToken, invoiceSummaries, orderInvoiceDocument } from "./read-queries.ts";
import { invoiceNumber } from "./service.ts";

/*
 * Invoices out of the database (issue 22): listed on the order page and in the library, downloaded
 * as PDFs rendered from their rows on demand (never stored: the row is the invoice), and attached
 * to the receipt when its e-mail is sent.
 */

export interface PdfFile {
  filename: string;
  body: Buffer;
}

/** Each order's invoice and credit notes, oldest first, as the order page lists them. */
export async function invoicesOfOrders(
  db: DbOrTx,
  orderIds: readonly string[],
): Promise<Map<string, OrderInvoice[]>> {
  const byOrder = new Map<string, OrderInvoice[]>();
  for (const row of await invoiceSummaries(db, orderIds)) {
    const list = byOrder.get(row.orderId) ?? [];
    list.push({
      id: row.id,
      kind: row.kind,
      number: invoiceNumber(row.series, row.number),
      issuedAt: row.issuedAt.toISOString(),
      totalMinor: row.totalMinor,
    });
    byOrder.set(row.orderId, list);
  }
  return byOrder;
}

/**
 * One of an order's invoices as a PDF, for whoever holds the order's token (the receipt's link, or
 * the library, which lists its orders by their tokens). Another order's invoice is the same 404 as
 * none, in the language the invoice was issued in.
 */
export async function orderInvoicePdf(db: DbOrTx, token: string, invoiceId: string): Promise<PdfFile> {
  if (!orderTokenSchema.safeParse(token).success) throw notFound("Invoice");
  const row = await invoiceOfOrderToken(db, { accessTokenHash: hashToken(token), invoiceId });
  if (!row) throw notFound("Invoice");
  return {
    filename: invoiceFilename(row.invoice),
    body: await renderInvoicePdf(invoiceDocument(row), row.invoice.locale),
  };
}

/**
 * The receipt's attachment, rendered when its e-mail is sent: the job's payload names the order, the
 * invoice issued in the same transaction as the receipt was queued. An order paid before invoices
 * existed has none, and its receipt goes without.
 */
export async function mailAttachments(tx: DbOrTx, mail: MailJobPayload): Promise<MailAttachment[]> {
  if (mail.template !== "order-receipt" || !mail.params.invoiceOf) return [];
  const row = await orderInvoiceDocument(tx, mail.params.invoiceOf);
  if (!row) return [];
  return [
    {
      filename: invoiceFilename(row.invoice),
      contentType: "application/pdf",
      content: await renderInvoicePdf(invoiceDocument(row), row.invoice.locale),
    },
  ];
}
