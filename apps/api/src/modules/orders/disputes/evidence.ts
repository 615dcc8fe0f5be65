import type { DisputeEvidenceView } from "@salelink/contracts/disputes";
import { formatMoney } from "@salelink/contracts/money";
import { invoiceNumber } from "../../invoices/service.ts";
import type { DisputeRow, EvidenceFacts } from "./queries.ts";

/*
 * A dispute's evidence (issue 32), from what the platform holds of the sale: the receipt, the
 * invoice and the VAT evidence, when the buyer was sent and opened what they bought, the refund
 * window they were shown, any report, and the creator's note. Written for the card issuer, in
 * English, in the provider's fields; each text well under the provider's limit.
 */

const MAX = 20_000;
const at = (date: Date) => date.toISOString().replace(".000Z", "Z");
const clip = (text: string) => (text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text);

export function assembleEvidence(
  facts: EvidenceFacts,
  dispute: Pick<DisputeRow, "amountMinor" | "currency" | "reason">,
  note: string | null,
): DisputeEvidenceView {
  const { sale } = facts;
  const paidAt = sale.paidAt ?? sale.createdAt;
  const amount = formatMoney(sale.totalMinor, sale.currency, "en");

  const log = [
    `${at(sale.createdAt)}  Checkout started by ${sale.buyerEmail}.`,
    `${at(paidAt)}  Payment of ${amount} succeeded (order ${sale.id}).`,
    ...(facts.receiptSentAt
      ? [
          `${at(facts.receiptSentAt)}  Receipt e-mailed to ${sale.buyerEmail}, with the private link to the content.`,
        ]
      : []),
    ...facts.access.map(
      (a) =>
        `${at(a.firstAt)}  The buyer opened the order page, the content unlocked` +
        (a.count > 1 ? `; opened ${a.count} times in all, last at ${at(a.lastAt)}.` : "."),
    ),
  ];

  const window =
    sale.refundWindowDays > 0
      ? `Refunds within ${sale.refundWindowDays} days of purchase, shown on the link's page and at checkout before payment.`
      : "No refunds (digital content delivered at once), shown on the link's page and at checkout before payment.";

  const invoiceLines = facts.invoices.map(
    (i) =>
      `${i.kind === "credit-note" ? "Credit note" : "Invoice"} ${invoiceNumber(i.series, i.number)} issued ${at(i.issuedAt)}.`,
  );
  const vat = sale.vatEvidence ?? {};
  const vatLines = [
    `VAT: ${sale.vatScheme ?? "none"}${sale.vatCountry ? ` (${sale.vatCountry})` : ""}, ${formatMoney(sale.vatMinor, sale.currency, "en")} of ${amount}.`,
    ...(typeof vat.billingCountry === "string"
      ? [`Billing country given by the buyer: ${vat.billingCountry}.`]
      : []),
    ...(typeof vat.cardCountry === "string"
      ? [`Card issuing country reported by the card network: ${vat.cardCountry}.`]
      : []),
  ];
  const reportLines = facts.reports.map(
    (r) => `${at(r.createdAt)}  The buyer reported the content (${r.reason}); status: ${r.status}.`,
  );

  const text = [
    `Dispute of ${formatMoney(dispute.amountMinor, dispute.currency, "en")} (${dispute.reason}) on order ${sale.id}.`,
    `Digital content "${sale.title}" sold by the platform as the deemed supplier, paid ${at(paidAt)} by ${sale.buyerEmail}.`,
    ...invoiceLines,
    ...vatLines,
    ...(reportLines.length > 0 ? ["Reports:", ...reportLines] : ["The buyer never reported the content."]),
    ...(note ? ["The creator's note:", note] : []),
  ];

  return {
    productDescription: clip(
      `"${sale.title}": digital content delivered online at once, on a private order page e-mailed to the buyer.` +
        (sale.description ? ` ${sale.description}` : ""),
    ),
    customerEmailAddress: sale.buyerEmail,
    ...(sale.buyerName ? { customerName: sale.buyerName } : {}),
    ...(sale.buyerAddress || sale.billingCountry
      ? { billingAddress: sale.buyerAddress ?? sale.billingCountry ?? "" }
      : {}),
    accessActivityLog: clip(log.join("\n")),
    refundPolicyDisclosure: window,
    serviceDate: paidAt.toISOString().slice(0, 10),
    uncategorizedText: clip(text.join("\n")),
  };
}
