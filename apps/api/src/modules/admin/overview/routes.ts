import { adminOverviewQuerySchema, adminOverviewSchema } from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../../db/client.ts";
import { overview } from "./service.ts";

/** The admin console's first screen: the business's figures over time and what waits. */
export const adminOverviewRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    "/admin/overview",
    {
      config: { auth: "admin", maintenance: "allow" },
      schema: {
        tags: ["admin"],
        summary: "Sales, fees, new accounts, pending payouts, open reports and identity checks over time",
        querystring: adminOverviewQuerySchema,
        response: { 200: adminOverviewSchema },
      },
    },
    async (request) => overview(db, request.query.days),
  );
};
