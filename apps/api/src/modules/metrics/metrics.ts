import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Db } from "../../db/client.ts";
import type { JobRunOutcome } from "../../jobs/index.ts";
import { type DatabaseFigures, readDatabaseFigures } from "./queries.ts";

type RequestLabel = "method" | "route" | "status";

export interface MetricsOptions {
  db: Db;
  /** How long one database read serves scrapes (METRICS_CACHE_MS). */
  cacheMs: number;
  /** Process metrics (CPU, memory, event loop); off in tests that build many apps. */
  defaultMetrics: boolean;
}

/**
 * One registry per app (tests build many apps in one process). Request and job counters move as
 * things happen; the database figures (jobs by state, ledger totals, webhook lag) are read when
 * Prometheus scrapes, at most once per cacheMs whatever the number of scrapers.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpRequests: Counter<RequestLabel>;
  private readonly httpDuration: Histogram<RequestLabel>;
  private readonly jobRuns: Counter<"kind" | "outcome">;
  private readonly jobDuration: Histogram<"kind">;
  private cached: { at: number; figures: Promise<DatabaseFigures> } | null = null;
  /**
   * Each (method, status, route pattern)'s series, looked up once: prom-client hashes the label
   * object on every call otherwise. Bounded, since routes are patterns and statuses few.
   */
  private readonly requestSeries = new Map<
    string,
    {
      count: ReturnType<Counter<RequestLabel>["labels"]>;
      duration: ReturnType<Histogram<RequestLabel>["labels"]>;
    }
  >();

  constructor(private readonly options: MetricsOptions) {
    const registers = [this.registry];
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({
      name: "salelink_http_requests_total",
      help: "HTTP requests answered, by method, route pattern and status code",
      labelNames: ["method", "route", "status"],
      registers,
    });
    this.httpDuration = new Histogram({
      name: "salelink_http_request_duration_seconds",
      help: "Time to answer an HTTP request, by method, route pattern and status code",
      labelNames: ["method", "route", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.jobRuns = new Counter({
      name: "salelink_job_runs_total",
      help: "Job runs ended by this instance, by kind and outcome (done, failed, lost, released)",
      labelNames: ["kind", "outcome"],
      registers,
    });
    this.jobDuration = new Histogram({
      name: "salelink_job_run_duration_seconds",
      help: "Time a job run took on this instance, by kind",
      labelNames: ["kind"],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
      registers,
    });
    const figures = () => this.figures();
    new Gauge({
      name: "salelink_jobs",
      help: "Jobs in the table, by kind and state (queued, leased, done, failed); all instances",
      labelNames: ["kind", "state"],
      registers,
      async collect() {
        this.reset();
        for (const row of (await figures()).jobs) this.set({ kind: row.kind, state: row.state }, row.count);
      },
    });
    new Gauge({
      name: "salelink_jobs_oldest_runnable_age_seconds",
      help: "How long the oldest due job no worker holds has waited, by kind (undelivered mail, webhooks…)",
      labelNames: ["kind"],
      registers,
      async collect() {
        this.reset();
        for (const row of (await figures()).oldestRunnable) this.set({ kind: row.kind }, row.seconds);
      },
    });
    new Gauge({
      name: "salelink_ledger_total_minor",
      help: "Sum of ledger entries per account type and currency, in minor units (zero per currency overall)",
      labelNames: ["account", "currency"],
      registers,
      async collect() {
        this.reset();
        for (const row of (await figures()).ledger) {
          this.set({ account: row.account, currency: row.currency }, row.totalMinor);
        }
      },
    });
    new Gauge({
      name: "salelink_webhook_lag_seconds",
      help: "Largest delay between a provider creating an event and its application here, last 15 minutes",
      labelNames: ["source", "provider"],
      registers,
      async collect() {
        this.reset();
        for (const row of (await figures()).webhookLag) {
          this.set({ source: row.source, provider: row.provider }, row.seconds);
        }
      },
    });
  }

  /** `route` is the matched pattern ("/public/links/:token"), never the URL: tokens travel in URLs. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      const labels = { method, route, status: String(status) };
      series = { count: this.httpRequests.labels(labels), duration: this.httpDuration.labels(labels) };
      this.requestSeries.set(key, series);
    }
    series.count.inc();
    series.duration.observe(seconds);
  }

  observeJob(kind: string, outcome: JobRunOutcome, ms: number): void {
    this.jobRuns.inc({ kind, outcome });
    if (outcome === "done" || outcome === "failed") this.jobDuration.observe({ kind }, ms / 1000);
  }

  /** The text Prometheus reads. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private figures(): Promise<DatabaseFigures> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at >= this.options.cacheMs) {
      const figures = readDatabaseFigures(this.options.db);
      // A failed read is not kept: the next scrape tries again.
      figures.catch(() => {
        if (this.cached?.figures === figures) this.cached = null;
      });
      this.cached = { at: now, figures };
    }
    return this.cached.figures;
  }
}
