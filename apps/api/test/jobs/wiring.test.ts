import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loadConfig } from "../../src/config.ts";
import { jobKind } from "../../src/jobs/index.ts";
import { TEST_APP_SECRET, testApp } from "../support/app.ts";

describe("the app's job worker", () => {
  it("starts with the app, runs registered jobs, and stops when the app closes", async () => {
    const ctx = await testApp({ JOBS_ENABLED: "true", JOBS_POLL_MS: "20" });
    try {
      const ping = jobKind("test.ping", z.object({ n: z.number().int() }));
      await ctx.database.db.execute(sql`create table pings (n integer not null)`);
      ctx.app.services.jobs.registry.register(ping, async (tx, payload) => {
        await tx.execute(sql`insert into pings (n) values (${payload.n})`);
      });
      await ping.enqueue(ctx.database.db, { n: 7 });
      ctx.app.services.jobs.worker.poke();
      await expect
        .poll(async () => {
          const res: unknown = await ctx.database.db.execute(sql`select n from pings`);
          return (res as { rows: { n: number }[] }).rows.map((r) => r.n);
        })
        .toEqual([7]);
    } finally {
      await ctx.close();
    }
  });

  it("refuses a job concurrency that would take every database connection", () => {
    expect(() =>
      loadConfig({
        APP_SECRET: TEST_APP_SECRET,
        DATABASE_URL: "postgres://x@127.0.0.1/db",
        DATABASE_POOL_SIZE: "4",
        JOBS_CONCURRENCY: "4",
      }),
    ).toThrow(/JOBS_CONCURRENCY/);
    expect(() =>
      loadConfig({ APP_SECRET: TEST_APP_SECRET, DATABASE_POOL_SIZE: "4", JOBS_CONCURRENCY: "4" }),
    ).not.toThrow();
  });
});
