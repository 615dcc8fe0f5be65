import {
  type Customer,
  type CustomerDetail,
  type CustomerExportQuery,
  type CustomerList,
  type CustomerListQuery,
  type CustomerTotal,
  customerCsvColumns,
} from "@salelink/contracts";
import { minorToDecimal } from "@salelink/contracts/money";
import type { Db } from "../../db/client.ts";
import { csvDocument, csvField } from "../../lib/csv.ts";
import { AppError } from "../../lib/errors.ts";
import type { TtlCache } from "../../lib/ttl-cache.ts";
import { audit } from "../audit/queries.ts";
import {
  type CustomerRow,
  customerBatch,
  customerCount,
  customerPage,
  findCustomer,
  ordersOfCustomer,
  paidTotals,
} from "./queries.ts";

/*
 * The creator's customers (issue 21): every buyer of their links, one row per address, read from
 * the `customers` table the payments keep; what each paid is summed from the orders for the rows
 * shown only. A creator reads their own buyers and nobody else's.
 */

/** A customer's orders shown on their page, newest first (their count is on the row). */
export const CUSTOMER_ORDERS_SHOWN = 200;
/** The export's rows per query: its memory stays bounded however many customers there are. */
const EXPORT_BATCH = 1000;

const notFound = () => new AppError("NotFoundException", "This customer was not found.");

/** Each address's totals per currency, for the rows given. */
async function totalsOf(
  db: Db,
  creatorId: string,
  rows: CustomerRow[],
): Promise<Map<string, CustomerTotal[]>> {
  const out = new Map<string, CustomerTotal[]>();
  const sums = await paidTotals(db, { creatorId, emails: rows.map((r) => r.email) });
  for (const s of sums) {
    if (s.amountMinor === 0) continue;
    const list = out.get(s.email) ?? [];
    list.push({ currency: s.currency, amountMinor: s.amountMinor });
    out.set(s.email, list);
  }
  return out;
}

const view = (row: CustomerRow, totals: Map<string, CustomerTotal[]>): Customer => ({
  id: row.id,
  email: row.email,
  firstPaidAt: row.firstPaidAt.toISOString(),
  lastPaidAt: row.lastPaidAt.toISOString(),
  ordersCount: row.ordersCount,
  totals: totals.get(row.email) ?? [],
  unsubscribedAt: row.unsubscribedAt?.toISOString() ?? null,
});

export interface CustomerDeps {
  db: Db;
  /** The lists' totals per creator and filter, for CUSTOMERS_COUNT_CACHE_MS (the rows are always live). */
  counts: TtlCache<number>;
}

export async function listCustomers(
  { db, counts }: CustomerDeps,
  creatorId: string,
  query: CustomerListQuery,
): Promise<CustomerList> {
  const filter = { q: query.q, linkId: query.linkId };
  const countKey = JSON.stringify([creatorId, query.q?.trim().toLowerCase() ?? "", query.linkId ?? ""]);
  const [rows, counted] = await Promise.all([
    // One row more than the page: whether there is a next page, whatever the (cached) total says.
    customerPage(db, { creatorId, filter, sort: query.sort, offset: query.offset, limit: query.limit + 1 }),
    counts.get(countKey, () => customerCount(db, { creatorId, filter })),
  ]);
  const more = rows.length > query.limit;
  if (more) rows.pop();
  // Customers who bought since the count: never fewer than the rows seen.
  const total = Math.max(counted, query.offset + rows.length + (more ? 1 : 0));
  const totals = await totalsOf(db, creatorId, rows);
  const next = query.offset + rows.length;
  return { items: rows.map((r) => view(r, totals)), total, nextOffset: more ? next : null };
}

export async function customerDetail(db: Db, creatorId: string, id: string): Promise<CustomerDetail> {
  const row = await findCustomer(db, { creatorId, id });
  if (!row) throw notFound();
  const [totals, orders] = await Promise.all([
    totalsOf(db, creatorId, [row]),
    ordersOfCustomer(db, { creatorId, email: row.email, limit: CUSTOMER_ORDERS_SHOWN }),
  ]);
  return {
    customer: view(row, totals),
    orders: orders.map((o) => ({ ...o, paidAt: o.paidAt.toISOString() })),
  };
}

/** "12.50 EUR; 3.00 USD": one cell per customer, whatever currencies they paid in. */
const totalsCell = (totals: CustomerTotal[]) =>
  totals.map((t) => `${minorToDecimal(t.amountMinor, t.currency)} ${t.currency}`).join("; ");

/**
 * The export: its download is written to the audit trail first (who exported, how many, which
 * filter: never an address), then the rows are read and written a batch at a time, formula-safe.
 */
export async function exportCustomers(
  db: Db,
  creatorId: string,
  query: CustomerExportQuery,
): Promise<AsyncGenerator<string>> {
  const filter = { q: query.q, linkId: query.linkId };
  const total = await customerCount(db, { creatorId, filter });
  await audit(db, {
    actorId: creatorId,
    action: "customers.export",
    targetType: "account",
    targetId: creatorId,
    reason: "Customers export (CSV)",
    details: { customers: total, linkId: filter.linkId ?? null, searched: Boolean(filter.q?.trim()) },
  });
  return customerCsv(db, creatorId, filter);
}

async function* customerCsv(db: Db, creatorId: string, filter: CustomerExportQuery): AsyncGenerator<string> {
  yield csvDocument(customerCsvColumns, []);
  let after: string | null = null;
  for (;;) {
    const rows = await customerBatch(db, { creatorId, filter, after, limit: EXPORT_BATCH });
    if (rows.length === 0) return;
    const totals = await totalsOf(db, creatorId, rows);
    let chunk = "";
    for (const r of rows) {
      chunk += `${[
        r.email,
        r.firstPaidAt.toISOString(),
        r.lastPaidAt.toISOString(),
        r.ordersCount,
        totalsCell(totals.get(r.email) ?? []),
        r.unsubscribedAt?.toISOString() ?? "",
      ]
        .map(csvField)
        .join(",")}\r\n`;
    }
    yield chunk;
    if (rows.length < EXPORT_BATCH) return;
    after = rows[rows.length - 1]?.id ?? null;
  }
}
