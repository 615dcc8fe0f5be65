import { healthResponseSchema, type ReadinessResponse, readinessResponseSchema } from "@salelink/contracts";
import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Redis } from "ioredis";
import type { Db } from "../../db/client.ts";
import journal from "../../db/migrations/meta/_journal.json" with { type: "json" };
import type { Lifecycle } from "./lifecycle.ts";

const startedAt = Date.now();
/** A probe must answer quickly: a dependency slower than this counts as failed. */
const CHECK_TIMEOUT_MS = 2000;
/** The newest migration this build knows (drizzle stores each one's `when` as created_at). */
const latestMigration = Math.max(...journal.entries.map((e) => e.when));

export interface HealthDeps {
  db: Db;
  version: string;
  lifecycle: Lifecycle;
  redis?: Redis;
}

async function within<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("check timed out")), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function passes(check: () => Promise<boolean>): Promise<"ok" | "failed"> {
  try {
    return (await within(check())) ? "ok" : "failed";
  } catch {
    return "failed";
  }
}

export const healthRoutes: FastifyPluginAsyncZod<HealthDeps> = async (app, deps) => {
  const { db, version, lifecycle, redis } = deps;
  // Applied migrations are never taken back: once seen, the check needs no query.
  let migrationsSeen = false;

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

  app.get(
    "/health/ready",
    {
      // Probes keep coming during maintenance and during a drain; they must get a real answer.
      config: { maintenance: "allow" },
      logLevel: "warn",
      schema: {
        tags: ["health"],
        summary: "Readiness: whether a load balancer should send this instance traffic",
        response: { 200: readinessResponseSchema, 503: readinessResponseSchema },
      },
    },
    async (_request, reply) => {
      const [database, migrations, redisCheck] = await Promise.all([
        passes(async () => {
          await db.execute(sql`select 1`);
          return true;
        }),
        migrationsSeen
          ? ("ok" as const)
          : passes(async () => {
              const [row] = await db
                .select({ latest: sql<number | null>`max(created_at)::double precision` })
                .from(sql`drizzle.__drizzle_migrations`);
              // A newer instance may have migrated further: only missing ones make this one unready.
              migrationsSeen = (row?.latest ?? 0) >= latestMigration;
              return migrationsSeen;
            }),
        redis ? passes(async () => (await redis.ping()) === "PONG") : ("skipped" as const),
      ]);
      const checks: ReadinessResponse["checks"] = {
        database,
        migrations,
        redis: redisCheck,
        accepting: lifecycle.draining ? "failed" : "ok",
      };
      const ready = Object.values(checks).every((c) => c !== "failed");
      return reply.code(ready ? 200 : 503).send({ status: ready ? "ready" : "not_ready", checks });
    },
  );
};
