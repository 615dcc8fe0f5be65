import { currencies, locales, type VatScheme } from "@salelink/contracts";
import type { VatCountry } from "@salelink/contracts/vat-countries";
import { sql } from "drizzle-orm";
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { orders } from "./orders.ts";

/**
 * The next number of each series of invoices (issue 22, decision 039): one row per series and year
 * ("INV-2026", "CN-2026"), incremented in the transaction that issues the invoice, so numbers are
 * never shared or skipped (a rolled-back payment gives its number back with it).
 */
export const invoiceCounters = pgTable("invoice_counters", {
  series: text("series").primaryKey(),
  last: integer("last").notNull().default(0),
});

/** The parties as the invoice names them, kept as issued (a later change of address changes nothing). */
export interface InvoiceParty {
  name?: string;
  email?: string;
  address: string[];
  country?: string;
  vatNumber?: string;
}

/**
 * Every invoice of a paid order, and every credit note of a refund, as issued: its number, its
 * figures and its parties. The PDF is rendered from this row on demand.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    kind: text("kind", { enum: ["invoice", "credit-note"] }).notNull(),
    series: text("series").notNull(),
    number: integer("number").notNull(),
    /** A credit note's invoice, and the refund it records (its ledger transaction's reference). */
    refersToId: uuid("refers_to_id"),
    refundReference: text("refund_reference"),
    locale: text("locale", { enum: locales }).notNull(),
    currency: text("currency", { enum: currencies }).notNull(),
    /** Positive on an invoice, negative on a credit note. */
    netMinor: bigint("net_minor", { mode: "number" }).notNull(),
    vatMinor: bigint("vat_minor", { mode: "number" }).notNull(),
    totalMinor: bigint("total_minor", { mode: "number" }).notNull(),
    vatRateBps: integer("vat_rate_bps").notNull(),
    vatCountry: text("vat_country").$type<VatCountry>(),
    scheme: text("scheme").$type<VatScheme>().notNull(),
    description: text("description").notNull(),
    seller: jsonb("seller").$type<InvoiceParty>().notNull(),
    buyer: jsonb("buyer").$type<InvoiceParty>().notNull(),
    supplyDate: timestamp("supply_date", { withTimezone: true }).notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [
    uniqueIndex("invoices_series_number_idx").on(t.series, t.number),
    // One invoice per order; one credit note per refund.
    uniqueIndex("invoices_order_invoice_idx").on(t.orderId).where(sql`${t.kind} = 'invoice'`),
    uniqueIndex("invoices_refund_idx").on(t.refundReference).where(sql`${t.refundReference} is not null`),
    index("invoices_order_idx").on(t.orderId, t.issuedAt),
    // The One-Stop Shop's quarter: VAT per country and rate.
    index("invoices_issued_idx").on(t.issuedAt),
  ],
);
