import type { InvoiceParty as StoredParty } from "../../db/schema/index.ts";
import type { InvoiceDocument, InvoiceParty } from "./document.ts";
import type { InvoiceDocumentRow } from "./read-queries.ts";
import { invoiceNumber } from "./service.ts";

/*
 * An `invoices` row as the PDF prints it (issue 22). The row keeps what was issued; the document
 * turns its signed amounts into the renderer's positive ones (a credit note's kind says the
 * direction) and adds what the row refers to: the creator's name, the invoice a credit note corrects.
 */

/** "invoice-2026-000123.pdf", "credit-note-CN-2026-000007.pdf": the download's name. */
export function invoiceFilename(invoice: {
  kind: "invoice" | "credit-note";
  series: string;
  number: number;
}) {
  return `${invoice.kind}-${invoiceNumber(invoice.series, invoice.number)}.pdf`;
}

function supplier(party: StoredParty): InvoiceParty {
  return { name: party.name ?? "", address: party.address, vatNumber: party.vatNumber ?? "" };
}

export function invoiceDocument({ invoice, creator, refersTo }: InvoiceDocumentRow): InvoiceDocument {
  const net = Math.abs(invoice.netMinor);
  const vat = Math.abs(invoice.vatMinor);
  const total = Math.abs(invoice.totalMinor);
  return {
    kind: invoice.kind,
    number: invoiceNumber(invoice.series, invoice.number),
    issuedAt: invoice.issuedAt,
    supplyDate: invoice.supplyDate,
    currency: invoice.currency,
    seller: supplier(invoice.seller),
    buyer: {
      email: invoice.buyer.email ?? "",
      ...(invoice.buyer.name ? { name: invoice.buyer.name } : {}),
      address: invoice.buyer.address,
      // "ZZ", an unknown region: a sale whose buyer gave no country and whose card told none.
      country: invoice.buyer.country || invoice.vatCountry || "ZZ",
      ...(invoice.buyer.vatNumber ? { vatNumber: invoice.buyer.vatNumber } : {}),
    },
    lines: [
      {
        description: invoice.description,
        creator: creator ?? "",
        quantity: 1,
        netMinor: net,
        vatRateBps: invoice.vatRateBps,
        vatMinor: vat,
        grossMinor: total,
      },
    ],
    netMinor: net,
    vatMinor: vat,
    totalMinor: total,
    vatRateBps: invoice.vatRateBps,
    vatCountry: invoice.vatCountry,
    scheme: invoice.scheme,
    ...(refersTo
      ? { refersTo: { number: invoiceNumber(refersTo.series, refersTo.number), issuedAt: refersTo.issuedAt } }
      : {}),
    orderReference: invoice.orderId,
  };
}
