import { auditListSchema, auditQuerySchema } from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/client.ts";
import { auditList } from "./queries.ts";

/*
 * The audit log's screen. The log is read here and nowhere written but through audit() inside an
 * action's transaction: no route edits or deletes it, and the table's triggers refuse it anyway.
 */
export const auditRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ["admin"];
  const config = { auth: "admin", maintenance: "allow" } as const;

  app.get(
    "/admin/audit",
    {
      config,
      schema: {
        tags,
        summary: "What admins did, to whom, when and why, newest first",
        querystring: auditQuerySchema,
        response: { 200: auditListSchema },
      },
    },
    async (request) => auditList(db, request.query),
  );
};
