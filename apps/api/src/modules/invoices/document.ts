/*
 * What an invoice, a credit note and a creator's monthly statement say, as plain data: the service
 * builds these from the orders and the ledger, `pdf.ts` turns them into PDFs without touching the
 * database. Amounts are integer minor units of the document's currency; a credit note's amounts are
 * positive (what is credited back), its kind says the direction.
 */

import type { VatScheme } from "@salelink/contracts";

/** How the sale was taxed (issue 22): the invoice's VAT mention depends on it. */
export type { VatScheme };

export interface InvoiceParty {
  name: string;
  /** Postal address, one line each, country last. */
  address: string[];
  vatNumber: string;
}

export interface InvoiceBuyer {
  email: string;
  name?: string;
  address?: string[];
  /** ISO 3166-1 alpha-2: the country the VAT evidence established. */
  country: string;
  /** Printed when given; required by law for a reverse charge. */
  vatNumber?: string;
}

export interface InvoiceLine {
  /** The link's title. */
  description: string;
  /** The creator's display name: the platform is the deemed supplier, the creator made the content. */
  creator: string;
  quantity: 1;
  netMinor: number;
  vatRateBps: number;
  vatMinor: number;
  grossMinor: number;
}

export interface InvoiceDocument {
  kind: "invoice" | "credit-note";
  /** The series' sequential number, e.g. "2026-000123" or "CN-2026-000007". */
  number: string;
  issuedAt: Date;
  supplyDate: Date;
  currency: string;
  seller: InvoiceParty;
  buyer: InvoiceBuyer;
  lines: InvoiceLine[];
  netMinor: number;
  vatMinor: number;
  totalMinor: number;
  vatRateBps: number;
  /** ISO 3166-1 alpha-2 of the country whose VAT was charged; null when none was. */
  vatCountry: string | null;
  scheme: VatScheme;
  /** The invoice a credit note corrects. */
  refersTo?: { number: string; issuedAt: Date };
  orderReference: string;
}

/** One currency's month for a creator: every amount in that currency's minor units. */
export interface StatementTotals {
  currency: string;
  salesCount: number;
  grossMinor: number;
  vatMinor: number;
  /** The platform's fees. */
  feesMinor: number;
  /** Partner and affiliate commissions paid out of the creator's sales. */
  commissionsMinor: number;
  refundsMinor: number;
  /** What the creator earned: gross less VAT, fees, commissions and refunds. */
  netMinor: number;
}

export interface StatementSale {
  paidAt: Date;
  /** The link's title. */
  link: string;
  currency: string;
  grossMinor: number;
  vatMinor: number;
  feeMinor: number;
  netMinor: number;
}

export interface CreatorStatement {
  /** The calendar month, in UTC: month 1 to 12. */
  period: { year: number; month: number };
  /** When the statement was produced: the PDF's creation date. */
  issuedAt: Date;
  /** The platform, who issues the statement. */
  issuer: InvoiceParty;
  creator: { name: string; email: string };
  /** One entry per currency sold in, in the order to print. */
  totals: StatementTotals[];
  /** The month's sales, oldest first. */
  sales: StatementSale[];
}
