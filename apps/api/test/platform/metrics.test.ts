import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revalidateJob } from "../../src/modules/catalogue/revalidate.ts";
import { Metrics, startMetricsServer } from "../../src/modules/metrics/index.ts";
import { accountWithSession, insertAccount, insertCampaign } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

let ctx: TestContext;
let uploadsDir: string;
const helpers = checkoutHelpers(() => ctx);

/** One sample's value from the exposition text; undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const match = /^[^{\s]+(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!match) continue;
    const found = Object.fromEntries(
      [...(match[1] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[2]);
  }
  return undefined;
}

const scrape = async () => (await ctx.app.services.metrics.render()).body;

beforeAll(async () => {
  uploadsDir = await mkdtemp(path.join(tmpdir(), "salelink-metrics-"));
  // Figures are read on every scrape here, so each one sees the change just made.
  ctx = await testApp({ METRICS_CACHE_MS: "0", UPLOADS_DIR: uploadsDir });
}, 180_000);

afterAll(async () => {
  await ctx?.close();
  await rm(uploadsDir, { recursive: true, force: true });
});

describe(`Prometheus metrics (${dbKind})`, () => {
  it("counts requests under their route pattern, never the raw URL", async () => {
    const before =
      sample(await scrape(), "salelink_http_requests_total", { route: "/health", status: "200" }) ?? 0;
    for (let i = 0; i < 3; i += 1) expect((await ctx.app.inject("/health")).statusCode).toBe(200);
    const owner = await insertAccount(ctx.database);
    const campaign = await insertCampaign(ctx.database, owner.id);
    const secret = "SECRETtoken0123456789";
    await ctx.app.inject({
      method: "PATCH",
      url: `/campaigns/clicks/${campaign.token}`,
      payload: { token: campaign.token },
    });
    expect((await ctx.app.inject(`/public/links/${secret}`)).statusCode).toBe(404);
    await ctx.app.inject(`/no-such-route/${secret}`);

    const text = await scrape();
    expect(
      sample(text, "salelink_http_requests_total", { method: "GET", route: "/health", status: "200" }),
    ).toBe(before + 3);
    expect(
      sample(text, "salelink_http_requests_total", {
        method: "PATCH",
        route: "/campaigns/clicks/:token",
        status: "204",
      }),
    ).toBe(1);
    expect(
      sample(text, "salelink_http_requests_total", { route: "/public/links/:token", status: "404" }),
    ).toBe(1);
    expect(sample(text, "salelink_http_requests_total", { route: "(unmatched)", status: "404" })).toBe(1);
    expect(
      sample(text, "salelink_http_request_duration_seconds_count", {
        method: "GET",
        route: "/health",
        status: "200",
      }),
    ).toBe(before + 3);
    expect(text).not.toContain(campaign.token);
    expect(text).not.toContain(secret);
  });

  it("reports jobs by state, runs by outcome, and the oldest runnable job's age", async () => {
    await revalidateJob.enqueue(
      ctx.database.db,
      { tags: ["link:waiting"] },
      { runAt: new Date(Date.now() - 90_000) },
    );
    let text = await scrape();
    expect(sample(text, "salelink_jobs", { kind: "web.revalidate", state: "queued" })).toBe(1);
    expect(
      sample(text, "salelink_jobs_oldest_runnable_age_seconds", { kind: "web.revalidate" }),
    ).toBeGreaterThanOrEqual(89);
    expect(
      sample(text, "salelink_job_runs_total", { kind: "web.revalidate", outcome: "done" }),
    ).toBeUndefined();

    await ctx.app.services.jobs.worker.runDue();
    text = await scrape();
    expect(sample(text, "salelink_job_runs_total", { kind: "web.revalidate", outcome: "done" })).toBe(1);
    expect(sample(text, "salelink_jobs", { kind: "web.revalidate", state: "done" })).toBe(1);
    expect(sample(text, "salelink_jobs", { kind: "web.revalidate", state: "queued" })).toBeUndefined();
    expect(
      sample(text, "salelink_jobs_oldest_runnable_age_seconds", { kind: "web.revalidate" }),
    ).toBeUndefined();
  });

  it("moves the ledger totals and the webhook lag after a paid sale", async () => {
    const cookie = (await accountWithSession(ctx.database, { onboarded: true })).cookie;
    let text = await scrape();
    const pendingBefore =
      sample(text, "salelink_ledger_total_minor", { account: "pending", currency: "EUR" }) ?? 0;
    expect(
      sample(text, "salelink_webhook_lag_seconds", { source: "payments", provider: "sandbox" }),
    ).toBeUndefined();

    await helpers.sale(cookie);
    text = await scrape();
    const pending = sample(text, "salelink_ledger_total_minor", { account: "pending", currency: "EUR" }) ?? 0;
    expect(pending).toBeGreaterThan(pendingBefore);
    // Double entry: every currency's accounts sum to zero.
    const eur = text
      .split("\n")
      .filter((l) => l.startsWith("salelink_ledger_total_minor{") && l.includes('currency="EUR"'))
      .map((l) => Number(l.split(" ").at(-1)));
    expect(eur.reduce((a, b) => a + b, 0)).toBe(0);
    const lag = sample(text, "salelink_webhook_lag_seconds", { source: "payments", provider: "sandbox" });
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(600);
  });

  it("serves /metrics on its own listener only, with the process metrics when asked", async () => {
    expect((await ctx.app.inject("/metrics")).statusCode).toBe(404);
    const server = await startMetricsServer(ctx.app.services.metrics, {
      host: "127.0.0.1",
      port: 0,
      onError: () => undefined,
    });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/plain");
      expect(await res.text()).toContain("# TYPE salelink_http_requests_total counter");
      expect((await fetch(`http://127.0.0.1:${server.port}/health`)).status).toBe(404);
    } finally {
      await server.close();
    }
    const withProcess = new Metrics({ db: ctx.database.db, cacheMs: 0, defaultMetrics: true });
    const text = (await withProcess.render()).body;
    expect(text).toContain("process_cpu_user_seconds_total");
    expect(text).toContain("nodejs_heap_size_used_bytes");
  });
});
