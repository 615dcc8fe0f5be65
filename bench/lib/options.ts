import path from "node:path";
import { parseArgs } from "node:util";

export const scenarioNames = [
  "api-maintenance",
  "api-public-link",
  "web-home",
  "web-blog",
  "web-link",
  "api-checkout",
  "api-webhook",
  "api-clicks",
  "partners",
  "mixed",
  "launch",
  "customers",
  "updates",
  "invoices",
  "lighthouse",
] as const;
export type ScenarioName = (typeof scenarioNames)[number];

export interface Options {
  /** Seconds of measurement per endpoint (a scenario measures two endpoints). */
  duration: number;
  connections: number;
  /** Seconds of discarded load before each measurement, so JIT and caches are warm. */
  warmup: number;
  only: ScenarioName[];
  /** An existing database on a loopback PostgreSQL; the bench creates and drops its own database beside it. */
  databaseUrl: string;
  /** Rebuild the API and the web app even when a build exists (they may be stale while others work). */
  rebuild: boolean;
  /**
   * Rewrite docs/benchmarks.md; off by default for partial runs. Even when on, a section is rewritten
   * only if every scenario of its table ran, so a subset never replaces a full table.
   */
  writeDocs: boolean;
  /** Lighthouse audits per page; the median one is reported (Lighthouse's own advice for variance). */
  lighthouseRuns: number;
  /** API instances for the launch scenario, sharing PostgreSQL and (from 2) Redis. */
  instances: number;
  /** The launch's stock (and checkouts per link, and sales per payment phase); a multiple of 100. */
  launchStock: number;
  /** The customers scenario's paid orders of its one creator (issue 21: 100,000). */
  customersOrders: number;
  /** The updates scenario's buyers of its one creator (issue 21: 100,000). */
  updatesBuyers: number;
  /** Invoice PDFs the invoices scenario renders (one monthly statement of 200 sales per 20 of them). */
  invoices: number;
  /** Loopback Redis the API instances share when there are several (rate limits, click counters). */
  redisUrl: string;
  /**
   * The API package whose build is measured (`dist/server.js`) and whose source the launch's ledger
   * audit runs; apps/api by default, another checkout's (built) for a before/after on the same machine.
   */
  apiDir: string | undefined;
  /** Where the API instances write a V8 CPU profile each when they stop (`--cpu-prof`); unset: none. */
  apiCpuProf: string | undefined;
  verbose: boolean;
}

export const usage = `Usage: npm run bench -w @salelink/bench -- [options]
   or: BENCH_ONLY=web-home BENCH_DURATION=5 npm run bench

(The root "npm run bench" does not forward flags: the npm it calls takes them as its own.)

  --duration <s>        seconds measured per endpoint (env BENCH_DURATION, default 10)
  --connections <n>     concurrent connections (env BENCH_CONNECTIONS, default 50)
  --warmup <s>          seconds of discarded load before each measurement (env BENCH_WARMUP, default 2)
  --only <names>        comma-separated scenarios: ${scenarioNames.join(", ")}
                        (env BENCH_ONLY); e.g. --only lighthouse for the Lighthouse audits alone
  --database-url <url>  loopback PostgreSQL to create the bench database beside
                        (env BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
  --lighthouse-runs <n> Lighthouse audits per page, the median reported (env BENCH_LIGHTHOUSE_RUNS,
                        default 3)
  --instances <n>       API instances for the launch scenario (env BENCH_INSTANCES, default 1); from
                        2, each gets REDIS_URL and the launch's load is split between them
  --redis-url <url>     loopback Redis the instances share (env BENCH_REDIS_URL,
                        default redis://127.0.0.1:6379)
  --launch-stock <n>    the launch's stock limit, checkouts per link and sales per payment phase, a
                        multiple of 100 (env BENCH_LAUNCH_STOCK, default 10000; the dashboard at scale
                        has ten times as many orders); smaller for a quick try
  --customers-orders <n> paid orders of the customers scenario's creator (env BENCH_CUSTOMERS_ORDERS,
                        default 100000, as issue 21 sets); smaller for a quick try
  --updates-buyers <n>  buyers the updates scenario's update is sent to (env BENCH_UPDATES_BUYERS,
                        default 100000, as issue 21 sets); smaller for a quick try
  --invoices <n>        invoice PDFs the invoices scenario renders in-process, plus one monthly
                        statement of 200 sales per 20 (env BENCH_INVOICES, default 2000)
  --api-dir <dir>       the API package to run, already built (env BENCH_API_DIR, default apps/api):
                        e.g. an earlier commit's apps/api, for a before/after; the launch's ledger
                        audit runs that package's source
  --api-cpu-prof <dir>  each API instance writes a V8 CPU profile there when it stops
                        (env BENCH_API_CPU_PROF; open it in Chrome's DevTools): where its CPU went
  --rebuild             build the API and the web app even if a build exists
  --write-docs          write docs/benchmarks.md even for a partial (--only) run: each section whose
                        scenarios all ran (foundation: api-maintenance, api-public-link, web-*;
                        checkout: api-checkout, api-webhook; clicks: api-clicks; partners; mixed;
                        launch; customers; updates; invoices; lighthouse);
                        the others are kept
  --no-write-docs       never write docs/benchmarks.md
  --verbose             echo the servers' output
  --help                this text`;

function positiveNumber(
  name: string,
  raw: string | undefined,
  fallback: number,
  { integer = false, zero = false } = {},
): number {
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (
    !Number.isFinite(value) ||
    value < 0 ||
    (value === 0 && !zero) ||
    (integer && !Number.isInteger(value))
  ) {
    throw new Error(`${name} must be a positive ${integer ? "integer" : "number"}, got "${raw}"`);
  }
  return value;
}

function scenarioList(raw: string | undefined): ScenarioName[] {
  if (raw === undefined || raw === "") return [...scenarioNames];
  const names = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(scenarioNames as readonly string[]).includes(name)) {
      throw new Error(`Unknown scenario "${name}"; known: ${scenarioNames.join(", ")}`);
    }
  }
  return scenarioNames.filter((name) => names.includes(name));
}

/** The 100-creator phase sells the same number over 100 links: the stock splits evenly. */
function launchStock(raw: string | undefined): number {
  const stock = positiveNumber("launch-stock", raw, 10_000, { integer: true });
  if (stock % 100 !== 0) throw new Error(`launch-stock must be a multiple of 100, got ${stock}`);
  return stock;
}

/** Relative to where the command was typed (npm runs the bench from bench/, and says where in INIT_CWD). */
function apiDirOf(raw: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  return path.resolve(env.INIT_CWD ?? process.cwd(), raw);
}

/** Command-line flags win over environment variables, which win over the defaults. */
export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): Options | "help" {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: "string" },
      connections: { type: "string" },
      warmup: { type: "string" },
      only: { type: "string" },
      "database-url": { type: "string" },
      rebuild: { type: "boolean" },
      "lighthouse-runs": { type: "string" },
      instances: { type: "string" },
      "redis-url": { type: "string" },
      "launch-stock": { type: "string" },
      "customers-orders": { type: "string" },
      "updates-buyers": { type: "string" },
      invoices: { type: "string" },
      "api-dir": { type: "string" },
      "api-cpu-prof": { type: "string" },
      "write-docs": { type: "boolean" },
      "no-write-docs": { type: "boolean" },
      verbose: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return "help";
  const only = scenarioList(values.only ?? env.BENCH_ONLY);
  const partial = only.length < scenarioNames.length;
  return {
    duration: positiveNumber("duration", values.duration ?? env.BENCH_DURATION, 10),
    connections: positiveNumber("connections", values.connections ?? env.BENCH_CONNECTIONS, 50, {
      integer: true,
    }),
    warmup: positiveNumber("warmup", values.warmup ?? env.BENCH_WARMUP, 2, { zero: true }),
    only,
    databaseUrl:
      values["database-url"] ?? env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    rebuild: values.rebuild ?? false,
    writeDocs: values["no-write-docs"] ? false : (values["write-docs"] ?? !partial),
    lighthouseRuns: positiveNumber(
      "lighthouse-runs",
      values["lighthouse-runs"] ?? env.BENCH_LIGHTHOUSE_RUNS,
      3,
      { integer: true },
    ),
    instances: positiveNumber("instances", values.instances ?? env.BENCH_INSTANCES, 1, { integer: true }),
    launchStock: launchStock(values["launch-stock"] ?? env.BENCH_LAUNCH_STOCK),
    customersOrders: positiveNumber(
      "customers-orders",
      values["customers-orders"] ?? env.BENCH_CUSTOMERS_ORDERS,
      100_000,
      { integer: true },
    ),
    updatesBuyers: positiveNumber(
      "updates-buyers",
      values["updates-buyers"] ?? env.BENCH_UPDATES_BUYERS,
      100_000,
      { integer: true },
    ),
    invoices: positiveNumber("invoices", values.invoices ?? env.BENCH_INVOICES, 2_000, { integer: true }),
    redisUrl: values["redis-url"] ?? env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379",
    apiDir: apiDirOf(values["api-dir"] ?? env.BENCH_API_DIR, env),
    apiCpuProf: apiDirOf(values["api-cpu-prof"] ?? env.BENCH_API_CPU_PROF, env),
    verbose: values.verbose ?? false,
  };
}
