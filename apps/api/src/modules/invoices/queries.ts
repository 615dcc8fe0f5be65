import { and, asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { invoiceCounters, invoices } from "../../db/schema/index.ts";

export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoice = Omit<typeof invoices.$inferInsert, "number" | "id">;

/**
 * Takes the next `count` numbers of a series, in the caller's transaction: the counter's row stays
 * locked until it ends, so concurrent payments wait their turn and a rolled-back one gives its
 * numbers back. Answers the first number taken.
 */
export async function takeNumbers(tx: DbOrTx, series: string, count: number): Promise<number> {
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ series, last: count })
    .onConflictDoUpdate({
      target: invoiceCounters.series,
      set: { last: sql`${invoiceCounters.last} + ${count}` },
    })
    .returning({ last: invoiceCounters.last });
  if (!row) throw new Error(`no number taken in series ${series}`);
  return row.last - count + 1;
}

export async function insertInvoices(tx: DbOrTx, rows: (NewInvoice & { number: number })[]): Promise<void> {
  if (rows.length > 0) await tx.insert(invoices).values(rows);
}

/** An order's invoice and credit notes, the invoice first. */
export function invoicesOfOrder(db: DbOrTx, orderId: string): Promise<InvoiceRow[]> {
  return db
    .select()
    .from(invoices)
    .where(eq(invoices.orderId, orderId))
    .orderBy(asc(invoices.issuedAt), asc(invoices.number));
}

export async function invoiceOfOrder(db: DbOrTx, orderId: string): Promise<InvoiceRow | null> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, "invoice")));
  return row ?? null;
}

export async function invoiceById(
  db: DbOrTx,
  params: { orderId: string; id: string },
): Promise<InvoiceRow | null> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, params.id), eq(invoices.orderId, params.orderId)));
  return row ?? null;
}
