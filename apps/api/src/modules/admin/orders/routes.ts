import {
  type AdminOrderList,
  type AdminOrderListQuery,
  adminOrderListQuerySchema,
  adminOrderListSchema,
} from "@salelink/contracts";
import { and, desc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db, DbOrTx } from "../../../db/client.ts";
import { links, orders, users } from "../../../db/schema/index.ts";

/*
 * The console's order search. Refunds go through POST /admin/orders/:id/refund (checkout module):
 * the provider refunds, its event reverses the ledger once.
 */

const creators = alias(users, "creators");

/** A LIKE pattern matching `text` anywhere, its own % and _ taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function searchOrders(db: DbOrTx, query: AdminOrderListQuery): Promise<AdminOrderList> {
  const conditions: (SQL | undefined)[] = [query.status ? eq(orders.status, query.status) : undefined];
  const text = query.q?.trim();
  if (text) {
    const pattern = containing(text);
    conditions.push(
      z.uuid().safeParse(text).success
        ? eq(orders.id, text)
        : or(ilike(orders.buyerEmail, pattern), ilike(links.title, pattern), ilike(creators.email, pattern)),
    );
  }
  if (query.cursor) {
    // Compared in SQL: a round trip through a JS Date would drop the microseconds PostgreSQL keeps.
    conditions.push(
      sql`(${orders.createdAt}, ${orders.id}) < (select ${orders.createdAt}, ${orders.id} from ${orders} where ${orders.id} = ${query.cursor})`,
    );
  }
  const rows = await db
    .select({
      id: orders.id,
      status: orders.status,
      total: orders.totalMinor,
      currency: orders.currency,
      buyerEmail: orders.buyerEmail,
      linkId: links.id,
      linkTitle: links.title,
      creatorId: creators.id,
      creatorEmail: creators.email,
      provider: orders.provider,
      createdAt: orders.createdAt,
      paidAt: orders.paidAt,
      refundedAt: orders.refundedAt,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .innerJoin(creators, eq(creators.id, orders.creatorId))
    .where(and(...conditions))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(query.limit + 1);
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

export const adminOrderRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    "/admin/orders",
    {
      config: { auth: "admin", maintenance: "allow" },
      schema: {
        tags: ["admin"],
        summary: "Orders, newest first: search by order id, buyer e-mail, link title or creator e-mail",
        querystring: adminOrderListQuerySchema,
        response: { 200: adminOrderListSchema },
      },
    },
    async (request) => searchOrders(db, request.query),
  );
};
