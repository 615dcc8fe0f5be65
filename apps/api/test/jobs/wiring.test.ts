import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
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

const srcDir = path.resolve(import.meta.dirname, "../../src");
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith(".ts") ? [full] : [];
  });
}

/** Every kind of job the code declares (`jobKind("…", schema)`), wherever it is. */
function declaredKinds(): string[] {
  const kinds = sourceFiles(srcDir).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/\bjobKind\(\s*"([^"]+)"/g)].map((m) => m[1] ?? ""),
  );
  return [...new Set(kinds)].sort();
}

/** The sandboxes' deliveries: their handlers exist only where that sandbox is the provider. */
const sandboxKinds = [
  "identity.sandbox-deliver",
  "payments.sandbox-deliver",
  "payments.sandbox-dispute-later",
  "payouts.sandbox-outcome",
];
/** Stripe Connect's reconciliation (issue 32): only where payouts go through connected accounts. */
const connectKinds = ["payouts.reconcile-account", "payouts.reconcile-tick"];

const sandboxRoutes = [
  { method: "POST", url: "/sandbox/payments/:paymentId/confirm" },
  { method: "POST", url: "/sandbox/payments/:paymentId/authenticate" },
  { method: "GET", url: "/identity/sandbox/sessions/:id" },
  { method: "POST", url: "/identity/sandbox/sessions/:id/decision" },
] as const;

describe("job handlers, registered in one place", () => {
  it("has a handler for every job kind the code declares, with the sandbox providers", async () => {
    const declared = declaredKinds();
    expect(declared.length).toBeGreaterThanOrEqual(9);
    expect(declared).toEqual(expect.arrayContaining(sandboxKinds));
    // The suites' payouts are the operator's (test/support/app.ts); the sandbox's bank is the default.
    const ctx = await testApp({ PAYOUT_PROVIDER: "sandbox" });
    try {
      expect(ctx.app.services.jobs.registry.kinds().sort()).toEqual(
        declared.filter((kind) => !connectKinds.includes(kind)),
      );
      for (const route of sandboxRoutes) expect(ctx.app.hasRoute(route), route.url).toBe(true);
    } finally {
      await ctx.close();
    }
  });

  it("with Stripe, Veriff and manual payouts: every kind but the sandboxes', and no sandbox routes", async () => {
    const ctx = await testApp({
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_wiring",
      STRIPE_PUBLISHABLE_KEY: "pk_test_wiring",
      STRIPE_WEBHOOK_SECRET: "whsec_wiring",
      IDENTITY_PROVIDER: "veriff",
      VERIFF_API_KEY: "veriff-wiring-key",
      VERIFF_SHARED_SECRET: "veriff-wiring-secret",
    });
    try {
      const expected = declaredKinds().filter(
        (kind) => !sandboxKinds.includes(kind) && !connectKinds.includes(kind),
      );
      expect(ctx.app.services.jobs.registry.kinds().sort()).toEqual(expected);
      for (const route of sandboxRoutes) expect(ctx.app.hasRoute(route), route.url).toBe(false);
    } finally {
      await ctx.close();
    }
  });

  it("with Stripe Connect payouts, the reconciliation's kinds too", async () => {
    const ctx = await testApp({
      PAYOUT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_wiring",
      STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_wiring_connect",
    });
    try {
      expect(ctx.app.services.jobs.registry.kinds()).toEqual(expect.arrayContaining(connectKinds));
    } finally {
      await ctx.close();
    }
  });

  it("no HTTP plugin registers a job handler: app.ts calls each module's registration", () => {
    const offenders = sourceFiles(srcDir).filter((file) => {
      const code = readFileSync(file, "utf8");
      const routes = /\bapp\.(get|post|put|patch|delete)\(/.test(code);
      return routes && /registry\.register\(|\bregister\w*Jobs\(|services\.jobs\.registry/.test(code);
    });
    expect(offenders.map((file) => path.relative(srcDir, file))).toEqual([]);
    const app = readFileSync(path.join(srcDir, "app.ts"), "utf8");
    const registrations = [...app.matchAll(/\b(register\w*Jobs)\(registry\b/g)].map((m) => m[1]);
    expect(registrations).toEqual(expect.arrayContaining(["registerMailJobs", "registerUploadJobs"]));
  });
});
