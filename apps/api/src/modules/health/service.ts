import type { HealthResponse, ReadinessResponse } from "@salelink/contracts";
import type { Redis } from "ioredis";
import type { Db } from "../../db/client.ts";
import journal from "../../db/migrations/meta/_journal.json" with { type: "json" };
import type { Lifecycle } from "./lifecycle.ts";
import { latestAppliedMigration, pingDatabase } from "./queries.ts";

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

/** Liveness: the process answers, and whether its database does. */
export async function health(deps: HealthDeps): Promise<HealthResponse> {
  let database: "ok" | "down" = "ok";
  try {
    await pingDatabase(deps.db);
  } catch {
    database = "down";
  }
  return {
    status: database === "ok" ? "ok" : "degraded",
    database,
    uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
    version: deps.version,
  };
}

/** The readiness checks of one instance; build one per app (it remembers the migrations it saw). */
export function readinessProbe(deps: HealthDeps): () => Promise<ReadinessResponse> {
  const { db, lifecycle, redis } = deps;
  // Applied migrations are never taken back: once seen, the check needs no query.
  let migrationsSeen = false;
  return async () => {
    const [database, migrations, redisCheck] = await Promise.all([
      passes(async () => {
        await pingDatabase(db);
        return true;
      }),
      migrationsSeen
        ? ("ok" as const)
        : passes(async () => {
            // A newer instance may have migrated further: only missing ones make this one unready.
            migrationsSeen = (await latestAppliedMigration(db)) >= latestMigration;
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
    return { status: ready ? "ready" : "not_ready", checks };
  };
}
