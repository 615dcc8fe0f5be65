import {
  type Currency,
  type Transaction,
  type TransactionListQuery,
  transactionKindSchema,
  type Wallet,
  walletHeldShown,
} from "@salelink/contracts";
import { orderTransactionKinds } from "@salelink/contracts/ledger";
import { minorToDecimal } from "@salelink/contracts/money";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { csvDocument } from "../../lib/csv.ts";
import { balancesOf } from "./ledger.ts";
import { heldSales, movementsOf } from "./queries.ts";

/*
 * What a user sees of their money: balances and held sales, every movement (also as CSV). Reads
 * only; the owner's id is in every where. The dashboard's sales summary is in summary/.
 */

const isOrderKind = (kind: string) => (orderTransactionKinds as readonly string[]).includes(kind);

/** How many held sales GET /wallet lists, the soonest available first. */
export const HELD_SHOWN = walletHeldShown;

export async function walletOf(db: Db, config: Config, userId: string): Promise<Wallet> {
  const byCurrency = new Map<Currency, Wallet["balances"][number]>();
  for (const b of await balancesOf(db, userId)) {
    const row = byCurrency.get(b.currency) ?? {
      currency: b.currency,
      pending: 0,
      available: 0,
      inTransit: 0,
      affiliatePending: 0,
      affiliateClaimable: 0,
      partnerPending: 0,
      partnerClaimable: 0,
      debt: 0,
    };
    if (b.account === "pending") row.pending = b.balanceMinor;
    else if (b.account === "available") row.available = b.balanceMinor;
    else if (b.account === "in_transit") row.inTransit = b.balanceMinor;
    else if (b.account === "affiliate_pending") row.affiliatePending = b.balanceMinor;
    else if (b.account === "affiliate_claimable") row.affiliateClaimable = b.balanceMinor;
    else if (b.account === "partner_pending") row.partnerPending = b.balanceMinor;
    else if (b.account === "partner_claimable") row.partnerClaimable = b.balanceMinor;
    else if (b.account === "debt") row.debt = b.balanceMinor;
    byCurrency.set(b.currency, row);
  }
  const held = await heldSales(db, userId, HELD_SHOWN);
  return {
    balances: [...byCurrency.values()],
    held: held.map((h) => ({
      orderId: h.orderId,
      title: h.title,
      amount: h.amount ?? 0,
      currency: h.currency,
      availableAt: (h.availableAt ?? new Date()).toISOString(),
    })),
    holdDays: config.rules.holdDays,
  };
}

export async function transactionsOf(
  db: Db,
  userId: string,
  query: TransactionListQuery,
  limit = query.limit,
) {
  const rows = await movementsOf(db, userId, query, limit);
  const items: Transaction[] = rows.slice(0, limit).map((r) => ({
    id: r.id,
    kind: transactionKindSchema.parse(r.kind),
    account: r.account as Transaction["account"],
    amount: r.amount,
    currency: r.currency,
    createdAt: r.createdAt.toISOString(),
    availableAt: r.availableAt ? r.availableAt.toISOString() : null,
    // A partial refund's reference is `{orderId}:{refunded so far}` (decision 037).
    orderId: isOrderKind(r.kind) ? (r.reference.split(":")[0] ?? null) : null,
    title: r.title,
  }));
  return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
}

/** The CSV export: the same filters as the list, up to `limit` rows. */
export async function transactionsCsv(
  db: Db,
  userId: string,
  query: TransactionListQuery,
  limit: number,
): Promise<string> {
  const { items } = await transactionsOf(db, userId, { ...query, cursor: undefined }, limit);
  const header = ["date", "kind", "account", "amount", "currency", "available_at", "order", "title"];
  const rows = items.map((t) => [
    t.createdAt,
    t.kind,
    t.account,
    minorToDecimal(t.amount, t.currency),
    t.currency,
    t.availableAt,
    t.orderId,
    t.title,
  ]);
  return csvDocument(header, rows);
}
