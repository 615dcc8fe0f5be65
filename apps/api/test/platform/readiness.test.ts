import { readinessResponseSchema } from "@salelink/contracts";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildApp } from "../../src/app.ts";
import type { Database } from "../../src/db/client.ts";
import { insertAccount } from "../support/accounts.ts";
import { dbKind, testConfig, testDatabase } from "../support/app.ts";

/* One database for the file (a fresh one costs seconds); each test builds its own app on it. */
let database: Database;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  database = await testDatabase();
}, 180_000);
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});
afterAll(async () => {
  await database?.close().catch(() => undefined);
});

async function appWith(options: { redis?: Redis } = {}): Promise<FastifyInstance> {
  const app = await buildApp({ config: testConfig(), db: database.db, ...options });
  await app.ready();
  closers.push(() => app.close());
  return app;
}

async function ready(app: FastifyInstance) {
  const res = await app.inject("/health/ready");
  return { status: res.statusCode, body: readinessResponseSchema.parse(res.json()), raw: res.body };
}

describe(`GET /health/ready (${dbKind})`, () => {
  it("is ready when every dependency answers, and stays so during maintenance", async () => {
    const app = await appWith();
    expect(await ready(app)).toMatchObject({
      status: 200,
      body: {
        status: "ready",
        checks: { database: "ok", migrations: "ok", redis: "skipped", accepting: "ok" },
      },
    });
    const admin = await insertAccount(database, { onboarded: true, role: "admin" });
    await app.services.maintenance.set({ maintenance: true }, admin.id);
    expect((await app.services.maintenance.status()).maintenance).toBe(true);
    expect((await ready(app)).status).toBe(200);
    await app.services.maintenance.set({ maintenance: false }, admin.id);
  });

  it("turns 503 once the process drains, the other checks still passing", async () => {
    const app = await appWith();
    app.services.lifecycle.startDraining();
    const res = await app.inject("/health/ready");
    expect(res.headers.connection).toBe("close");
    expect({ status: res.statusCode, body: readinessResponseSchema.parse(res.json()) }).toMatchObject({
      status: 503,
      body: { status: "not_ready", checks: { database: "ok", migrations: "ok", accepting: "failed" } },
    });
    // Liveness is another question: the process is alive and must not be restarted.
    expect((await app.inject("/health")).statusCode).toBe(200);
  });

  it("turns 503 when a migration this build knows is not applied", async () => {
    const app = await appWith();
    const latest = sql`(select max(created_at) from drizzle.__drizzle_migrations)`;
    const saved = await database.db.execute(
      sql`select hash, created_at from drizzle.__drizzle_migrations where created_at = ${latest}`,
    );
    await database.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = ${latest}`);
    try {
      expect(await ready(app)).toMatchObject({
        status: 503,
        body: { checks: { migrations: "failed", database: "ok" } },
      });
    } finally {
      const [row] = z
        .object({ rows: z.array(z.object({ hash: z.string(), created_at: z.coerce.string() })) })
        .parse(saved).rows;
      if (row) {
        await database.db.execute(
          sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${row.hash}, ${row.created_at}::bigint)`,
        );
      }
    }
    expect((await ready(app)).status).toBe(200);
  });

  it("checks Redis when configured, and names no address when it is down", async () => {
    if (process.env.REDIS_URL) {
      const redis = new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 1 });
      closers.push(async () => redis.disconnect());
      const app = await appWith({ redis });
      expect(await ready(app)).toMatchObject({ status: 200, body: { checks: { redis: "ok" } } });
    }
    // Nothing listens on port 1.
    const down = new Redis("redis://127.0.0.1:1", {
      maxRetriesPerRequest: 0,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    down.on("error", () => undefined);
    closers.push(async () => down.disconnect());
    const app = await appWith({ redis: down });
    const answer = await ready(app);
    expect(answer).toMatchObject({ status: 503, body: { checks: { redis: "failed", database: "ok" } } });
    expect(answer.raw).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|:1\b/);
  });

  // Last: it closes the file's database.
  it("turns 503 when the database is gone", async () => {
    const app = await appWith();
    await database.close();
    expect(await ready(app)).toMatchObject({ status: 503, body: { checks: { database: "failed" } } });
  });
});
