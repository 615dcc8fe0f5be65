import { z } from "zod";
import { currencySchema } from "./business-rules.ts";

/*
 * Invoices, credit notes, creators' monthly statements and the One-Stop Shop figures (issue 22):
 * what the order page lists, the statements' months and the admin's quarter. The PDFs themselves
 * are downloads, not JSON.
 */

export const invoiceKinds = ["invoice", "credit-note"] as const;
export const invoiceKindSchema = z.enum(invoiceKinds);
export type InvoiceKind = z.infer<typeof invoiceKindSchema>;

/** One invoice or credit note as the order page and the library list it (the PDF is a download). */
export const orderInvoiceSchema = z.object({
  id: z.uuid(),
  kind: invoiceKindSchema,
  /** As printed: "2026-000123", "CN-2026-000007". */
  number: z.string(),
  issuedAt: z.iso.datetime(),
  /** Negative on a credit note. */
  totalMinor: z.number().int(),
});
export type OrderInvoice = z.infer<typeof orderInvoiceSchema>;

/** GET /orders/{token}/invoices/{invoiceId}.pdf: the order page's token is the capability. */
export const orderInvoiceParamsSchema = z.object({
  token: z.string().max(128),
  invoiceId: z.uuid(),
});

/** Months offered on the creator's "Monthly statements" (this one and the eleven before). */
export const STATEMENT_MONTHS_SHOWN = 12;

/** GET /statements/{year}-{month}.pdf: a calendar month, in UTC ("2026-11"). */
export const statementParamsSchema = z.object({
  year: z.string().regex(/^\d{4}$/, "A month is written YYYY-MM."),
  month: z.string().regex(/^(0[1-9]|1[0-2])$/, "A month is written YYYY-MM."),
});
export type StatementParams = z.infer<typeof statementParamsSchema>;

/** "2026-Q4": a calendar quarter, in UTC. */
export const vatQuarterSchema = z
  .string()
  .regex(/^\d{4}-Q[1-4]$/, "A quarter is written YYYY-Q1 to YYYY-Q4.");
export type VatQuarter = z.infer<typeof vatQuarterSchema>;

/** The quarter a date falls in, in UTC ("2026-Q4"). */
export function quarterOf(date: Date): VatQuarter {
  return `${date.getUTCFullYear()}-Q${Math.floor(date.getUTCMonth() / 3) + 1}`;
}

/** GET /admin/vat/oss and /admin/vat/oss.csv: the current quarter when none is given. */
export const vatOssQuerySchema = z.object({ quarter: vatQuarterSchema.optional() });
export type VatOssQuery = z.infer<typeof vatOssQuerySchema>;

/** One member state, rate and currency of the quarter: invoices less credit notes. */
export const vatOssRowSchema = z.object({
  country: z.string().length(2),
  rateBps: z.number().int(),
  currency: currencySchema,
  /** The amount net of VAT. */
  taxableMinor: z.number().int(),
  vatMinor: z.number().int(),
  /** Invoices and credit notes counted. */
  documents: z.number().int(),
});
export type VatOssRow = z.infer<typeof vatOssRowSchema>;

/** A country's VAT in a currency, from the invoices and from the ledger's `vat_XX` account. */
export const vatOssCheckSchema = z.object({
  country: z.string().length(2),
  currency: currencySchema,
  invoicedVatMinor: z.number().int(),
  ledgerVatMinor: z.number().int(),
  matches: z.boolean(),
});
export type VatOssCheck = z.infer<typeof vatOssCheckSchema>;

export const vatOssReportSchema = z.object({
  quarter: vatQuarterSchema,
  from: z.iso.datetime(),
  /** Exclusive. */
  to: z.iso.datetime(),
  rows: z.array(vatOssRowSchema),
  ledger: z.array(vatOssCheckSchema),
  /** Every country and currency's VAT equals the ledger's. */
  matches: z.boolean(),
});
export type VatOssReport = z.infer<typeof vatOssReportSchema>;
