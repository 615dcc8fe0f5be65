import { type AnyColumn, and, asc, eq, gte, inArray, isNotNull, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../db/client.ts";
import { creatorProfiles, invoices, links, orders, users } from "../../db/schema/index.ts";
import type { InvoiceRow } from "./queries.ts";

/*
 * What the invoices' downloads, the receipt's attachment, and the creators' statements read (issue
 * 22). Issuing stays in queries.ts, in the payment's transaction.
 */

/** The invoices and credit notes of some orders, as their pages list them, oldest first. */
const takenBack = (refunded: AnyColumn, disputed: AnyColumn) =>
  sql<number>`${refunded} + ${disputed}`.mapWith(Number);

export function invoiceSummaries(db: DbOrTx, orderIds: readonly string[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      id: invoices.id,
      orderId: invoices.orderId,
      kind: invoices.kind,
      series: invoices.series,
      number: invoices.number,
      issuedAt: invoices.issuedAt,
      totalMinor: invoices.totalMinor,
    })
    .from(invoices)
    .where(inArray(invoices.orderId, [...orderIds]))
    .orderBy(asc(invoices.issuedAt), asc(invoices.number));
}

const corrected = alias(invoices, "corrected");

/** An invoice with what its PDF prints beside the row: the creator's name and the invoice a credit note corrects. */
function invoiceDocumentRows(db: DbOrTx) {
  return db
    .select({
      invoice: invoices,
      creator: creatorProfiles.displayName,
      refersTo: { series: corrected.series, number: corrected.number, issuedAt: corrected.issuedAt },
    })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .innerJoin(links, eq(links.id, orders.linkId))
    .leftJoin(creatorProfiles, eq(creatorProfiles.id, links.profileId))
    .leftJoin(corrected, eq(corrected.id, invoices.refersToId))
    .$dynamic();
}

export interface InvoiceDocumentRow {
  invoice: InvoiceRow;
  creator: string | null;
  refersTo: { series: string; number: number; issuedAt: Date } | null;
}

/** One invoice of the order behind a receipt's token (by its hash): none for another order's. */
export async function invoiceOfOrderToken(
  db: DbOrTx,
  params: { accessTokenHash: string; invoiceId: string },
): Promise<InvoiceDocumentRow | null> {
  const [row] = await invoiceDocumentRows(db).where(
    and(eq(invoices.id, params.invoiceId), eq(orders.accessTokenHash, params.accessTokenHash)),
  );
  return row ?? null;
}

/** An order's invoice (not its credit notes): the receipt's attachment. */
export async function orderInvoiceDocument(db: DbOrTx, orderId: string): Promise<InvoiceDocumentRow | null> {
  const [row] = await invoiceDocumentRows(db).where(
    and(eq(invoices.orderId, orderId), eq(invoices.kind, "invoice")),
  );
  return row ?? null;
}

/** The creator a statement is for: the address, and the first profile's name when there is one. */
export async function statementCreator(db: DbOrTx, creatorId: string) {
  const [row] = await db
    .select({ email: users.email, name: creatorProfiles.displayName })
    .from(users)
    .leftJoin(creatorProfiles, eq(creatorProfiles.ownerId, users.id))
    .where(eq(users.id, creatorId))
    .orderBy(asc(creatorProfiles.createdAt))
    .limit(1);
  return row ?? null;
}

/** The creator's orders paid in [from, to), oldest first, with what refunds took back of each part. */
export function statementSales(db: DbOrTx, params: { creatorId: string; from: Date; to: Date }) {
  return (
    db
      .select({
        paidAt: orders.paidAt,
        title: links.title,
        currency: orders.currency,
        totalMinor: orders.totalMinor,
        vatMinor: orders.vatMinor,
        feeMinor: orders.feeMinor,
        partnerCommissionMinor: orders.partnerCommissionMinor,
        netMinor: orders.netMinor,
        // What refunds and chargebacks (held or lost, issue 32) took back, together.
        refundedMinor: takenBack(orders.refundedMinor, orders.disputedMinor),
        refundedVatMinor: takenBack(orders.refundedVatMinor, orders.disputedVatMinor),
        refundedFeeMinor: takenBack(orders.refundedFeeMinor, orders.disputedFeeMinor),
        refundedCommissionMinor: takenBack(orders.refundedCommissionMinor, orders.disputedCommissionMinor),
        refundedPartnerMinor: takenBack(orders.refundedPartnerMinor, orders.disputedPartnerMinor),
        refundedNetMinor: takenBack(orders.refundedNetMinor, orders.disputedNetMinor),
      })
      .from(orders)
      .innerJoin(links, eq(links.id, orders.linkId))
      .where(
        and(
          eq(orders.creatorId, params.creatorId),
          isNotNull(orders.paidAt),
          gte(orders.paidAt, params.from),
          lt(orders.paidAt, params.to),
          inArray(orders.status, ["paid", "refunded"]),
        ),
      )
      // A payment's time is the provider's, to the second: the checkout's breaks ties.
      .orderBy(asc(orders.paidAt), asc(orders.createdAt), asc(orders.id))
  );
}
export type StatementSaleRow = Awaited<ReturnType<typeof statementSales>>[number];
