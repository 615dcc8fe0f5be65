import { healthResponseSchema } from "@salelink/contracts";
import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/client.ts";

const startedAt = Date.now();

export const healthRoutes: FastifyPluginAsyncZod<{ db: Db; version: string }> = async (
  app,
  { db, version },
) => {
  app.get(
    "/health",
    {
      config: { maintenance: "allow" },
      logLevel: "warn",
      schema: {
        tags: ["health"],
        summary: "Liveness and database reachability",
        response: { 200: healthResponseSchema, 503: healthResponseSchema },
      },
    },
    async (_request, reply) => {
      let database: "ok" | "down" = "ok";
      try {
        await db.execute(sql`select 1`);
      } catch {
        database = "down";
      }
      const body = {
        status: database === "ok" ? ("ok" as const) : ("degraded" as const),
        database,
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
        version,
      };
      return reply.code(database === "ok" ? 200 : 503).send(body);
    },
  );
};
