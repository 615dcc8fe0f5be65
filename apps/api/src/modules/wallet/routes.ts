import { transactionListQuerySchema, transactionListSchema, walletSchema } from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { transactionsCsv, transactionsOf, walletOf } from "./service.ts";
import { salesSummaryRoutes } from "./summary/routes.ts";

/*
 * What a user sees of their money: balances and held sales (`/wallet`), every movement (`/transactions`,
 * with a CSV export), and the dashboard's sales summary. Reads only.
 */

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
      const csv = await transactionsCsv(db, user.id, request.query, 10_000);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="transactions.csv"')
        .header("cache-control", "no-store")
        .send(csv);
    },
  );

  await app.register(salesSummaryRoutes, { db, config });
};
