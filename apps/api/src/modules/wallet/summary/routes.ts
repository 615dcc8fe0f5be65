import { salesSummarySchema } from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Config } from "../../../config.ts";
import type { Db } from "../../../db/client.ts";
import { salesSummaryOf } from "./service.ts";

/** The dashboard's sales summary, from the rollups (decision 031). Registered by the wallet's routes. */
export const salesSummaryRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config }> = async (
  app,
  { db, config },
) => {
  app.get(
    "/sales/summary",
    {
      config: { auth: "user" },
      schema: {
        tags: ["wallet"],
        summary: "Sales count, revenue, the last 30 days and the latest orders, as of the last refresh",
        response: { 200: salesSummarySchema },
      },
    },
    async (request) => salesSummaryOf(db, config, (await request.requireUser()).id),
  );
};
