import {
  type AdminOrderList,
  type AdminOrderListQuery,
  fileKindSchema,
  type OrderView,
  orderTokenSchema,
} from "@salelink/contracts";
import type { Config } from "../../config.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { notFound } from "../../lib/errors.ts";
import { hashToken } from "../../lib/tokens.ts";
import type { PaymentProvider } from "../../providers/payments/types.ts";
import type { ObjectStorage } from "../../providers/storage/index.ts";
import { invoicesOfOrders } from "../invoices/downloads.ts";
import { recordOrderAccess } from "./disputes/queries.ts";
import { releaseHold } from "./events.ts";
import { dueHoldOrderIds, type OrderPageRow, orderPageRow, searchOrderRows } from "./queries.ts";
import { askRefund } from "./refunds/service.ts";

export interface OrderDeps {
  db: Db;
  config: Config;
  payments: PaymentProvider;
  storage: ObjectStorage;
  pokeJobs(): void;
}

/** How long the signed URLs of an order's files work: enough to start a download, not to share. */
export const FILE_URL_SECONDS = 15 * 60;

/** The buyer's order, found by the secret token of the receipt, with the unlocked files. */
export async function orderByToken(
  deps: { db: Db; storage: ObjectStorage },
  token: string,
): Promise<OrderView> {
  if (!orderTokenSchema.safeParse(token).success) throw notFound("Order");
  const row = await orderPageRow(deps.db, hashToken(token));
  // Only paid orders have a token; a refunded one keeps its page but not its content.
  if (!row) throw notFound("Order");
  // When the buyer opened what they bought: a dispute's delivery evidence (issue 32).
  if (row.status === "paid") await recordOrderAccess(deps.db, row.id);
  const invoices = await invoicesOfOrders(deps.db, [row.id]);
  return orderView(deps.storage, row, invoices.get(row.id) ?? []);
}

/**
 * What the order page shows of an order: a paid one's file behind short-lived signed URLs, its VAT,
 * its invoice and credit notes (issue 22).
 */
export async function orderView(
  storage: ObjectStorage,
  row: OrderPageRow,
  invoices: OrderView["invoices"],
): Promise<OrderView> {
  const expiresAt = new Date(Date.now() + FILE_URL_SECONDS * 1000);
  const filesOut: OrderView["files"] = [];
  if (
    row.status === "paid" &&
    row.storageKey &&
    row.originalName &&
    row.contentType &&
    row.sizeBytes !== null
  ) {
    const options = { expiresInSeconds: FILE_URL_SECONDS };
    filesOut.push({
      name: row.originalName,
      kind: fileKindSchema.catch("other").parse(row.kind),
      contentType: row.contentType,
      sizeBytes: row.sizeBytes,
      viewUrl: await storage.signedUrl(row.storageKey, { ...options, purpose: "original-view" }),
      downloadUrl: await storage.signedUrl(row.storageKey, {
        ...options,
        purpose: "original-download",
        downloadName: row.originalName,
      }),
      expiresAt: expiresAt.toISOString(),
    });
  }
  return {
    status: row.status,
    title: row.title,
    description: row.description,
    creator:
      row.creatorId && row.creatorName && row.creatorHandle
        ? { id: row.creatorId, displayName: row.creatorName, handle: row.creatorHandle }
        : null,
    total: row.totalMinor,
    currency: row.currency,
    paidAt: row.paidAt ? row.paidAt.toISOString() : null,
    files: filesOut,
    vat: row.vatScheme
      ? {
          scheme: row.vatScheme,
          country: row.vatCountry,
          rateBps: row.vatRateBps ?? 0,
          vatMinor: row.vatMinor,
          netMinor: row.totalMinor - row.vatMinor,
          pricesIncludeVat: row.pricesIncludeVat,
        }
      : null,
    invoices,
  };
}

/** The console's order search, one page at a time (the cursor is the last order's id). */
export async function searchOrders(db: DbOrTx, query: AdminOrderListQuery): Promise<AdminOrderList> {
  const rows = await searchOrderRows(db, query);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(({ creatorId, creatorEmail, ...row }) => ({
      ...row,
      creator: { id: creatorId, email: creatorEmail },
      createdAt: row.createdAt.toISOString(),
      paidAt: row.paidAt ? row.paidAt.toISOString() : null,
      refundedAt: row.refundedAt ? row.refundedAt.toISOString() : null,
    })),
    nextCursor: rows.length > query.limit && last ? last.id : null,
  };
}

/**
 * An admin refunds a paid order in full (what is left of it). The provider is asked; the ledger is
 * reversed only when its refund event arrives (applyPaymentEvent), so a refund is applied once
 * however it started (refunds/service.ts).
 */
export async function refundOrder(
  deps: OrderDeps,
  input: { adminId: string; orderId: string; reason: string },
): Promise<void> {
  await askRefund(deps, input.orderId, { by: "admin", adminId: input.adminId, reason: input.reason });
}

/**
 * Development and tests only: release every hold that would be over at `asOf`, as if the clock had
 * moved there (the browser tests show a sale going from pending to available).
 */
export async function releaseHoldsAsOf(db: Db, asOf: Date, orderIds?: string[]): Promise<number> {
  const due = await dueHoldOrderIds(db, asOf, orderIds);
  let released = 0;
  for (const id of due) {
    if ((await db.transaction((tx) => releaseHold(tx, id, asOf))) === "released") released++;
  }
  return released;
}
