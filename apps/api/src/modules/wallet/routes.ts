import {
  type Currency,
  type SalesSummary,
  salesSummarySchema,
  type Transaction,
  type TransactionListQuery,
  transactionKindSchema,
  transactionListQuerySchema,
  transactionListSchema,
  type Wallet,
  walletSchema,
} from "@salelink/contracts";
import { and, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { ledgerEntries, ledgerTransactions, links, orders } from "../../db/schema/index.ts";
import { csvField } from "../../lib/csv.ts";
import { balancesOf } from "./ledger.ts";

/*
 * What a user sees of their money: balances and held sales (`/wallet`), every movement (`/transactions`,
 * with a CSV export), and the dashboard's sales summary. Reads only; the owner's id is in every where.
 */

const userAccounts = [
  "pending",
  "available",
  "in_transit",
  "affiliate_pending",
  "affiliate_claimable",
] as const;
const orderKinds = ["order_paid", "hold_release", "refund"];

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
    };
    if (b.account === "pending") row.pending = b.balanceMinor;
    else if (b.account === "available") row.available = b.balanceMinor;
    else if (b.account === "in_transit") row.inTransit = b.balanceMinor;
    else if (b.account === "affiliate_pending") row.affiliatePending = b.balanceMinor;
    else if (b.account === "affiliate_claimable") row.affiliateClaimable = b.balanceMinor;
    byCurrency.set(b.currency, row);
  }
  const held = await db
    .select({
      orderId: orders.id,
      title: links.title,
      amount: orders.netMinor,
      currency: orders.currency,
      availableAt: orders.availableAt,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .where(and(eq(orders.creatorId, userId), eq(orders.status, "paid"), sql`${orders.releasedAt} is null`))
    .orderBy(orders.availableAt);
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
  const rows = await db
    .select({
      id: ledgerEntries.id,
      kind: ledgerTransactions.kind,
      account: ledgerEntries.account,
      amount: ledgerEntries.amountMinor,
      currency: ledgerEntries.currency,
      createdAt: ledgerEntries.createdAt,
      availableAt: ledgerEntries.availableAt,
      reference: ledgerTransactions.reference,
      title: links.title,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .leftJoin(
      orders,
      and(
        inArray(ledgerTransactions.kind, orderKinds),
        sql`${orders.id}::text = ${ledgerTransactions.reference}`,
      ),
    )
    .leftJoin(links, eq(links.id, orders.linkId))
    .where(
      and(
        eq(ledgerEntries.ownerId, userId),
        inArray(ledgerEntries.account, [...userAccounts]),
        query.cursor ? lt(ledgerEntries.id, query.cursor) : undefined,
        query.kind ? eq(ledgerTransactions.kind, query.kind) : undefined,
        query.currency ? eq(ledgerEntries.currency, query.currency) : undefined,
        query.from ? gte(ledgerEntries.createdAt, new Date(`${query.from}T00:00:00Z`)) : undefined,
        query.to
          ? lt(ledgerEntries.createdAt, new Date(new Date(`${query.to}T00:00:00Z`).getTime() + 86_400_000))
          : undefined,
      ),
    )
    .orderBy(desc(ledgerEntries.id))
    .limit(limit + 1);
  const items: Transaction[] = rows.slice(0, limit).map((r) => ({
    id: r.id,
    kind: transactionKindSchema.parse(r.kind),
    account: r.account as Transaction["account"],
    amount: r.amount,
    currency: r.currency,
    createdAt: r.createdAt.toISOString(),
    availableAt: r.availableAt ? r.availableAt.toISOString() : null,
    orderId: orderKinds.includes(r.kind) ? r.reference : null,
    title: r.title,
  }));
  return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
}

const decimal = (minor: number) => {
  const sign = minor < 0 ? "-" : "";
  const text = String(Math.abs(minor)).padStart(3, "0");
  return `${sign}${text.slice(0, -2)}.${text.slice(-2)}`;
};

export async function salesSummaryOf(db: Db, userId: string): Promise<SalesSummary> {
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(eq(orders.creatorId, userId), eq(orders.status, "paid")));
  const revenue = await db
    .select({ currency: orders.currency, amount: sql<number>`coalesce(sum(${orders.netMinor}), 0)::bigint` })
    .from(orders)
    .where(and(eq(orders.creatorId, userId), eq(orders.status, "paid")))
    .groupBy(orders.currency);
  const days = await db
    .select({
      date: sql<string>`to_char(date_trunc('day', ${orders.paidAt} at time zone 'UTC'), 'YYYY-MM-DD')`,
      currency: orders.currency,
      sales: sql<number>`count(*)::int`,
      amount: sql<number>`coalesce(sum(${orders.netMinor}), 0)::bigint`,
    })
    .from(orders)
    .where(
      and(
        eq(orders.creatorId, userId),
        eq(orders.status, "paid"),
        gte(orders.paidAt, sql`now() - interval '30 days'`),
      ),
    )
    .groupBy(sql`1`, orders.currency)
    .orderBy(sql`1`);
  const latest = await db
    .select({
      id: orders.id,
      title: links.title,
      total: orders.totalMinor,
      currency: orders.currency,
      status: orders.status,
      paidAt: orders.paidAt,
      email: orders.buyerEmail,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .where(and(eq(orders.creatorId, userId), inArray(orders.status, ["paid", "refunded"])))
    .orderBy(desc(orders.paidAt))
    .limit(10);
  const mask = (email: string) => {
    const [name = "", domain = ""] = email.split("@");
    return `${name.slice(0, 1)}•••@${domain}`;
  };
  return {
    salesCount: count?.n ?? 0,
    revenue: revenue.map((r) => ({ currency: r.currency, amount: Number(r.amount) })),
    days: days.map((d) => ({ ...d, amount: Number(d.amount) })),
    latestOrders: latest.map((o) => ({
      id: o.id,
      title: o.title,
      total: o.total,
      currency: o.currency,
      status: o.status,
      paidAt: o.paidAt ? o.paidAt.toISOString() : null,
      buyer: mask(o.email),
    })),
  };
}

export const walletRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config }> = async (
  app,
  { db, config },
) => {
  const auth = { auth: "user" } as const;
  const tags = ["wallet"];

  app.get(
    "/wallet",
    {
      config: auth,
      schema: { tags, summary: "My balances and the sales still held", response: { 200: walletSchema } },
    },
    async (request) => walletOf(db, config, (await request.requireUser()).id),
  );

  app.get(
    "/transactions",
    {
      config: auth,
      schema: {
        tags,
        summary: "My money movements, newest first, page by page",
        querystring: transactionListQuerySchema,
        response: { 200: transactionListSchema },
      },
    },
    async (request) => transactionsOf(db, (await request.requireUser()).id, request.query),
  );

  app.get(
    "/transactions.csv",
    {
      config: auth,
      schema: {
        tags,
        summary: "My money movements as CSV (same filters, up to 10,000 rows)",
        querystring: transactionListQuerySchema,
      },
    },
    async (request, reply) => {
      const user = await request.requireUser();
      const { items } = await transactionsOf(db, user.id, { ...request.query, cursor: undefined }, 10_000);
      const header = ["date", "kind", "account", "amount", "currency", "available_at", "order", "title"];
      const lines = items.map((t) =>
        [t.createdAt, t.kind, t.account, decimal(t.amount), t.currency, t.availableAt, t.orderId, t.title]
          .map(csvField)
          .join(","),
      );
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="transactions.csv"')
        .header("cache-control", "no-store")
        .send(`${header.join(",")}\r\n${lines.map((l) => `${l}\r\n`).join("")}`);
    },
  );

  app.get(
    "/sales/summary",
    {
      config: auth,
      schema: {
        tags,
        summary: "Sales count, revenue, the last 30 days and the latest orders",
        response: { 200: salesSummarySchema },
      },
    },
    async (request) => salesSummaryOf(db, (await request.requireUser()).id),
  );
};
