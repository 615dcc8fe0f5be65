import { randomBytes } from "node:crypto";
/**
 * The benchmark suite: starts the servers (loopback only), measures each scenario against its baseline
 * one after the other, prints a table and writes docs/benchmarks.md. Stops everything it started, also
 * on error, on Ctrl-C and when the whole run exceeds its time budget.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import demo from "../apps/api/src/demo-accounts.json" with { type: "json" };
import { prepareBaselineNext } from "./lib/baseline-next.ts";
import {
  checkoutBodies,
  jsonHeaders,
  madeUpOrder,
  OrderPool,
  pendingOrderOf,
  ResultCounter,
  sandboxWebhookSecret,
  signedEvents,
} from "./lib/checkout.ts";
import { type BenchDatabase, createBenchDatabase } from "./lib/database.ts";
import {
  type LoadOptions,
  type Measurement,
  measure,
  prepare,
  type RequestParts,
  stopLoad,
  warmUp,
} from "./lib/load.ts";
import { type Options, parseOptions, type ScenarioName, usage } from "./lib/options.ts";
import {
  freePort,
  host,
  killAllNow,
  loopbackAddress,
  runToEnd,
  type Spawned,
  start,
  stopAll,
  waitUntilReady,
} from "./lib/processes.ts";
import {
  type Goal,
  type RunInfo,
  type ScenarioResult,
  scenarioDetails,
  textTable,
  verdict,
  writeDocs,
} from "./lib/report.ts";

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.resolve(benchDir, "..");
const apiDir = path.join(rootDir, "apps", "api");
const webDir = path.join(rootDir, "apps", "web");
const baselineDir = path.join(benchDir, ".baseline-next");
const nextBin = path.join(rootDir, "node_modules", ".bin", "next");
const docsFile = path.join(rootDir, "docs", "benchmarks.md");
const resultsFile = path.join(benchDir, "results", "latest.json");

const webHeaders = { "accept-language": "en" };
const readyTimeoutMs = 90_000;
const buildTimeoutMs = 10 * 60_000;

type ServerName = "bare" | "api" | "web" | "baseline";

interface Endpoint {
  server: ServerName;
  path: string;
  label: string;
  headers: Record<string, string>;
  /** GET when absent. */
  method?: "GET" | "POST";
  /** Requests that differ from one to the next, and what to do with their answers. */
  workload?: Workload;
}

/** The moving parts of an endpoint whose requests are not all the same (POST scenarios). */
interface Workload {
  /** Before the warm-up: creates what the requests need, bounded in time by `prepareSeconds`. */
  prepare?(server: Server, options: Options): Promise<void>;
  /** Upper bound of `prepare`'s duration, for the run's time budget. */
  prepareSeconds?(options: Options): number;
  /** Each request's body and extra headers, made as it is sent. */
  request(): RequestParts;
  onResponse?(status: number, body: string): void;
  /** Right before the measured phase (after the warm-up): counters restart. */
  beginMeasure?(): void;
  /** After the measured phase: what the answers said, for the log and the report. */
  details?(m: Measurement): string[];
}

interface Scenario {
  name: ScenarioName;
  target: Endpoint;
  baseline: Endpoint;
  goal: Goal;
}

const staticBaseline: Endpoint = {
  server: "baseline",
  path: "/",
  label: "GET / (static Next.js baseline)",
  headers: webHeaders,
};
const pageGoal: Goal = { minRatio: 0.5, text: "≥ 0.5" };
const bareBaseline: Endpoint = {
  server: "bare",
  path: "/bare",
  label: "GET /bare (bare Fastify)",
  headers: {},
};
/** A sales link of the demo catalogue, which the bench API seeds (fixed token, with files). */
const demoLinkToken = demo.catalogue.links[0]?.token ?? "";
/** The bench API's APP_SECRET (throwaway): the webhook scenario signs its events with a key derived from it. */
const appSecret = randomBytes(32).toString("hex");
const webhookSecret = sandboxWebhookSecret(appSecret);

const count = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
/** The bench API's DATABASE_POOL_SIZE: the API's default (apps/api/src/config.ts), set so none is inherited. */
const apiPoolSize = 10;

/** The pending orders made by the checkouts (measured or preparatory), paid by the webhook scenario. */
const orders = new OrderPool();
const collectOrder = (status: number, body: string) => {
  const order = pendingOrderOf(status, body);
  if (order) orders.add(order);
};

const bareJsonBaseline = (label: string, request: () => RequestParts): Endpoint => ({
  server: "bare",
  path: "/bare",
  label,
  headers: jsonHeaders,
  method: "POST",
  workload: { request },
});

const checkoutWorkload: Workload = {
  request: checkoutBodies(demoLinkToken),
  onResponse: collectOrder,
  details(m) {
    orders.checkoutRate = m.requestsPerSecond;
    return [
      `${count.format(m.total)} checkouts measured, each a new pending order with its sandbox payment; ` +
        `${count.format(orders.available)} pending orders (warm-up included) are kept for \`api-webhook\`.`,
    ];
  },
};

/**
 * Orders the webhook scenario needs: twice what its warm-up and measurement would use at the checkout
 * rate (payments are applied no faster than checkouts are made: both lock the link's row), so that
 * nearly every event pays a pending order.
 */
function webhookOrdersWanted(options: Options, rate: number): number {
  return Math.min(100_000, Math.ceil(2 * rate * (options.warmup + options.duration)));
}

const webhookResults = new ResultCounter();
let webhookPrepared = { created: 0, seconds: 0, fromCheckout: 0, rate: 0 };
const webhookWorkload: Workload = {
  prepareSeconds: (options) => 2 * (options.warmup + options.duration) + 15,
  async prepare(server, options) {
    const before = orders.available;
    // Without a checkout rate from this run, checkouts for twice the phases' time are surely enough.
    const seconds =
      orders.checkoutRate === undefined
        ? 2 * (options.warmup + options.duration)
        : Math.min(
            2 * (options.warmup + options.duration),
            Math.ceil(
              Math.max(0, webhookOrdersWanted(options, orders.checkoutRate) - before) / orders.checkoutRate,
            ),
          );
    webhookPrepared = { created: 0, seconds, fromCheckout: before, rate: 0 };
    if (seconds <= 0) return;
    log(`  creating pending orders for ${seconds} s (POST /stripe/checkout; ${before} already made) ...`);
    const result = await prepare({
      url: `${server.origin}/stripe/checkout`,
      method: "POST",
      headers: jsonHeaders,
      request: checkoutBodies(demoLinkToken),
      onResponse: collectOrder,
      connections: options.connections,
      duration: seconds,
    });
    webhookPrepared.created = orders.available - before;
    webhookPrepared.rate = result.requests.average;
    if (result.non2xx > 0 || result.errors > 0) {
      log(`  (while creating orders: ${result.non2xx} non-2xx answers, ${result.errors} errors)`);
    }
    log(`  ${orders.available} pending orders ready`);
  },
  request: signedEvents(webhookSecret, () => orders.take() ?? madeUpOrder),
  onResponse: (status, body) => webhookResults.record(status, body),
  beginMeasure() {
    webhookResults.reset();
    orders.reused = 0;
  },
  details(m) {
    const c = webhookResults.counts;
    const other = Object.entries(c)
      .filter(([key]) => !["applied", "duplicate", "ignored"].includes(key))
      .map(([key, n]) => `${count.format(n)} ${key}`);
    const { created, seconds, fromCheckout, rate } = webhookPrepared;
    return [
      `Before the warm-up, ${count.format(fromCheckout + created)} pending orders were at hand ` +
        `(${count.format(fromCheckout)} from \`api-checkout\`, ${count.format(created)} created in ${seconds} s ` +
        `of POST /stripe/checkout${rate > 0 ? `, ${count.format(rate)} req/s` : ""}).`,
      `Of the ${count.format(m.total)} measured webhook answers, \`result\`: ` +
        `${count.format(c.applied ?? 0)} applied (a pending order paid: ledger, counters, receipt and release jobs), ` +
        `${count.format(c.duplicate ?? 0)} duplicate, ${count.format(c.ignored ?? 0)} ignored` +
        `${other.length > 0 ? `, ${other.join(", ")}` : ""}` +
        `${orders.reused > 0 ? `; the orders ran out and ${count.format(orders.reused)} events named an order already paid` : ""}.`,
    ];
  },
};

const scenarios: Scenario[] = [
  {
    name: "api-maintenance",
    target: { server: "api", path: "/maintenance", label: "GET /maintenance (API)", headers: {} },
    baseline: bareBaseline,
    goal: { text: "none (ratio reported)" },
  },
  {
    name: "api-public-link",
    target: {
      server: "api",
      path: `/public/links/${demoLinkToken}`,
      label: "GET /public/links/{token} (API, database read)",
      headers: {},
    },
    baseline: bareBaseline,
    goal: { minRatio: 0.2, text: "≥ 0.2" },
  },
  {
    name: "web-home",
    target: { server: "web", path: "/", label: "GET / (web, en)", headers: webHeaders },
    baseline: staticBaseline,
    goal: pageGoal,
  },
  {
    name: "web-blog",
    target: {
      server: "web",
      path: "/blog/how-affiliate-attribution-works",
      label: "GET /blog/how-affiliate-attribution-works (web, en)",
      headers: webHeaders,
    },
    baseline: staticBaseline,
    goal: pageGoal,
  },
  {
    name: "web-link",
    target: {
      server: "web",
      path: `/v/${demoLinkToken}`,
      label: "GET /v/{token} (web, en, link purchase view)",
      headers: webHeaders,
    },
    baseline: staticBaseline,
    goal: pageGoal,
  },
  {
    name: "api-checkout",
    target: {
      server: "api",
      path: "/stripe/checkout",
      label: "POST /stripe/checkout (API, new pending order and sandbox payment)",
      headers: jsonHeaders,
      method: "POST",
      workload: checkoutWorkload,
    },
    baseline: bareJsonBaseline("POST /bare (bare Fastify, same JSON bodies)", checkoutBodies(demoLinkToken)),
    goal: { text: "none (ratio reported)" },
  },
  {
    name: "api-webhook",
    target: {
      server: "api",
      path: "/webhooks/sandbox",
      label: "POST /webhooks/sandbox (API, signed payment.succeeded, order paid)",
      headers: jsonHeaders,
      method: "POST",
      workload: webhookWorkload,
    },
    baseline: bareJsonBaseline(
      "POST /bare (bare Fastify, same signed JSON bodies)",
      signedEvents(webhookSecret, () => madeUpOrder),
    ),
    goal: { text: "none (ratio reported)" },
  },
];

// ---------------------------------------------------------------------------------------------------
// Cleanup: one idempotent path for normal ends, errors, signals and the time budget.

let database: BenchDatabase | undefined;
let cleaning: Promise<void> | undefined;
/** The bench API's uploads (the demo catalogue's files), removed with everything else. */
const uploadsDir = mkdtempSync(path.join(os.tmpdir(), "salelink-bench-uploads-"));

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    stopLoad();
    await stopAll();
    rmSync(uploadsDir, { recursive: true, force: true });
    if (database) {
      try {
        await database.dispose();
      } catch (err) {
        console.error(`Could not remove the bench database: ${err instanceof Error ? err.message : err}`);
      }
      database = undefined;
    }
  })();
  return cleaning;
}

/** Set by a signal or the time budget: the main flow then stops at its next step instead of going on. */
let aborted = false;

function checkAborted(): void {
  if (aborted) throw new Error("aborted");
}

function abort(reason: string, exitCode: number): void {
  if (aborted) return;
  aborted = true;
  console.error(`\n${reason}: stopping everything this script started ...`);
  void cleanup().finally(() => process.exit(exitCode));
}

process.once("SIGINT", () => abort("Interrupted", 130));
process.once("SIGTERM", () => abort("Terminated", 143));
// A synchronous exit leaves no time for a graceful stop; never leave a server behind.
process.once("exit", killAllNow);

// ---------------------------------------------------------------------------------------------------

function log(message: string): void {
  console.log(`[bench] ${message}`);
}

async function buildIfNeeded(options: Options, needApi: boolean, needWeb: boolean): Promise<void> {
  const echo = true;
  if (needApi && (options.rebuild || !existsSync(path.join(apiDir, "dist", "server.js")))) {
    log("Building the API (npm run build -w @salelink/api) ...");
    await runToEnd("api build", "npm", ["run", "build", "-w", "@salelink/api"], {
      cwd: rootDir,
      echo,
      timeoutMs: buildTimeoutMs,
    });
  }
  if (needWeb && (options.rebuild || !existsSync(path.join(webDir, ".next", "BUILD_ID")))) {
    log("Building the web app (npm run build -w @salelink/web) ...");
    await runToEnd("web build", "npm", ["run", "build", "-w", "@salelink/web"], {
      cwd: rootDir,
      env: { NEXT_TELEMETRY_DISABLED: "1" },
      echo,
      timeoutMs: buildTimeoutMs,
    });
  }
  if (needWeb) {
    const nextVersion = (
      JSON.parse(readFileSync(path.join(rootDir, "node_modules", "next", "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
    await prepareBaselineNext({ dir: baselineDir, nextBin, nextVersion, echo });
  }
}

interface Server {
  name: ServerName;
  origin: string;
  process: Spawned;
}

async function startServer(
  name: ServerName,
  readyPath: string,
  readyHeaders: Record<string, string>,
  launch: (port: number) => Spawned,
  address = host,
): Promise<Server> {
  const port = await freePort();
  const spawned = launch(port);
  const origin = `http://${address.includes(":") ? `[${address}]` : address}:${port}`;
  await waitUntilReady(spawned, `${origin}${readyPath}`, readyHeaders, readyTimeoutMs);
  log(`${spawned.name} ready on ${origin}`);
  return { name, origin, process: spawned };
}

async function startServers(options: Options, needed: Set<ServerName>): Promise<Map<ServerName, Server>> {
  const servers = new Map<ServerName, Server>();
  const echo = options.verbose;
  const failed: string[] = [];
  const attempt = async (name: ServerName, run: () => Promise<Server>) => {
    if (!needed.has(name)) return;
    try {
      servers.set(name, await run());
    } catch (err) {
      failed.push(name);
      console.error(`\n[bench] ${name} failed to start:\n${err instanceof Error ? err.message : err}\n`);
    }
  };

  await attempt("bare", () =>
    startServer("bare", "/bare", {}, (port) =>
      start("bare Fastify", process.execPath, ["--import", "tsx", "servers/bare.ts"], {
        cwd: benchDir,
        env: { BARE_PORT: String(port), NODE_ENV: "production" },
        echo,
      }),
    ),
  );

  if (needed.has("api")) {
    database = await createBenchDatabase(options.databaseUrl, apiDir);
    log(`Database: ${database.description}`);
    const dbEnv = database.env;
    await attempt("api", () =>
      startServer("api", "/maintenance", {}, (port) =>
        start("api", process.execPath, ["dist/server.js"], {
          cwd: apiDir,
          env: {
            NODE_ENV: "production",
            API_HOST: host,
            API_PORT: String(port),
            API_PUBLIC_URL: `http://${host}:${port}`,
            LOG_LEVEL: "warn",
            // The demo catalogue gives the link scenarios a real link with its files.
            SEED_DEMO: "true",
            // Production mode, as measured; its secret is throwaway and its providers the sandboxes.
            APP_SECRET: appSecret,
            ALLOW_SANDBOX_PROVIDERS: "true",
            JOBS_ENABLED: "false",
            DATABASE_POOL_SIZE: String(apiPoolSize),
            // Only the bench database: never one inherited from the caller's environment.
            DATABASE_URL: undefined,
            DATA_DIR: undefined,
            REDIS_URL: undefined,
            UPLOADS_DIR: uploadsDir,
            ...dbEnv,
          },
          echo,
        }),
      ),
    );
  }

  /*
   * Next.js servers listen on "localhost", not 127.0.0.1: with `-H 127.0.0.1` Next 16 treats the web
   * proxy's locale rewrite as an external URL (NextURL spells loopback as "localhost") and proxies it
   * to itself in a loop, so every page fails (vercel/next.js#94745). Load goes to the address
   * "localhost" resolves to, which is the one the server binds.
   */
  const nextAddress = await loopbackAddress("localhost");
  const api = servers.get("api");
  if (needed.has("web") && !api) {
    failed.push("web");
    console.error("[bench] web not started: it needs the API, which is not running.");
  } else if (api) {
    await attempt("web", () =>
      startServer(
        "web",
        "/",
        webHeaders,
        (port) =>
          start("web", nextBin, ["start", "-p", String(port), "-H", "localhost"], {
            cwd: webDir,
            env: { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", API_PUBLIC_URL: api.origin },
            echo,
          }),
        nextAddress,
      ),
    );
  }

  await attempt("baseline", () =>
    startServer(
      "baseline",
      "/",
      webHeaders,
      (port) =>
        start("static baseline", nextBin, ["start", "-p", String(port), "-H", "localhost"], {
          cwd: baselineDir,
          env: { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
          echo,
        }),
      nextAddress,
    ),
  );

  if (failed.length > 0) log(`Not running: ${failed.join(", ")}; scenarios needing them are skipped.`);
  return servers;
}

/** A server that stopped during the run makes its numbers meaningless: stop here, with its last words. */
function assertRunning(server: Server): void {
  const how = server.process.exitedWith();
  if (how === undefined) return;
  throw new Error(
    `${server.process.name} exited (${how}) during the run; its last output:\n${server.process.tail() || "(none)"}`,
  );
}

async function runEndpoint(
  options: Options,
  server: Server,
  endpoint: Endpoint,
): Promise<{ measurement: Measurement; details: string[] }> {
  const workload = endpoint.workload;
  const load: LoadOptions = {
    url: `${server.origin}${endpoint.path}`,
    ...(endpoint.method ? { method: endpoint.method } : {}),
    headers: endpoint.headers,
    ...(workload ? { request: () => workload.request() } : {}),
    ...(workload?.onResponse ? { onResponse: workload.onResponse } : {}),
    connections: options.connections,
    duration: options.warmup,
  };
  if (workload?.prepare) {
    await workload.prepare(server, options);
    checkAborted();
    assertRunning(server);
  }
  await warmUp(load);
  workload?.beginMeasure?.();
  // For the API's writes: what its database connections were doing, to tell what bounds the rate.
  const sampler = endpoint.server === "api" && workload ? database?.sampleActivity?.() : undefined;
  const m = await measure(endpoint.label, { ...load, duration: options.duration });
  const activity = await sampler?.stop();
  assertRunning(server);
  const codes = Object.entries(m.statusCodes)
    .map(([code, n]) => `${n}×${code}`)
    .join(", ");
  log(
    `  ${endpoint.label}: ${Math.round(m.requestsPerSecond)} req/s, p50 ${m.latencyP50} ms, p99 ${m.latencyP99} ms, non-2xx ${m.non2xx}, errors ${m.errors} (${codes || "no answers"})`,
  );
  const details = workload?.details?.(m) ?? [];
  if (activity) {
    details.push(
      `PostgreSQL connections of the API (pool of ${apiPoolSize}), mean over the measurement: ${activity}.`,
    );
  }
  for (const line of details) log(`    ${line}`);
  return { measurement: m, details };
}

function machineInfo(options: Options, db: string, startedAt: Date, loadAverage: number): RunInfo {
  return {
    date: startedAt,
    loadAverage,
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? "unknown CPU",
    memoryGiB: os.totalmem() / 1024 ** 3,
    node: process.version,
    database: db,
    duration: options.duration,
    connections: options.connections,
    warmup: options.warmup,
  };
}

async function main(): Promise<number> {
  let options: Options;
  try {
    const parsed = parseOptions(process.argv.slice(2), process.env);
    if (parsed === "help") {
      console.log(usage);
      return 0;
    }
    options = parsed;
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : err}\n\n${usage}`);
    return 2;
  }

  const selected = scenarios.filter((s) => options.only.includes(s.name));
  const needed = new Set<ServerName>(selected.flatMap((s) => [s.target.server, s.baseline.server]));
  // The web app asks the API whether maintenance is on: it is measured against a real API.
  if (needed.has("web")) needed.add("api");

  // Builds may take minutes; the measured part is bounded by the options. Past this, give up.
  const prepareSeconds = selected.reduce(
    (sum, s) =>
      sum +
      (s.target.workload?.prepareSeconds?.(options) ?? 0) +
      (s.baseline.workload?.prepareSeconds?.(options) ?? 0),
    0,
  );
  const budgetMs =
    3 * buildTimeoutMs +
    4 * readyTimeoutMs +
    (selected.length * 2 * (options.warmup + options.duration + 15) + prepareSeconds) * 1000;
  const watchdog = setTimeout(
    () => abort(`Time budget of ${Math.round(budgetMs / 60_000)} min exceeded`, 124),
    budgetMs,
  );

  log(
    `Scenarios: ${selected.map((s) => s.name).join(", ")}; ${options.duration} s per endpoint, ${options.connections} connections, ${options.warmup} s warm-up.`,
  );
  await buildIfNeeded(options, needed.has("api"), needed.has("web"));
  checkAborted();
  const servers = await startServers(options, needed);
  const dbDescription = database?.description ?? "none (no API scenario)";

  const startedAt = new Date();
  const loadAverage = os.loadavg()[0] ?? 0;
  const results: ScenarioResult[] = [];
  const skipped: string[] = [];
  for (const scenario of selected) {
    const target = servers.get(scenario.target.server);
    const baseline = servers.get(scenario.baseline.server);
    if (!target || !baseline) {
      skipped.push(scenario.name);
      continue;
    }
    checkAborted();
    log(`Scenario ${scenario.name}:`);
    // Baseline first, then target, each with its own warm-up; never both at once.
    const baselineResult = await runEndpoint(options, baseline, scenario.baseline);
    const targetResult = await runEndpoint(options, target, scenario.target);
    const details = [...baselineResult.details, ...targetResult.details];
    results.push({
      name: scenario.name,
      goal: scenario.goal,
      target: targetResult.measurement,
      baseline: baselineResult.measurement,
      ...(details.length > 0 ? { details } : {}),
    });
  }
  clearTimeout(watchdog);
  checkAborted();
  await cleanup();

  const info = machineInfo(options, dbDescription, startedAt, loadAverage);
  console.log(`\n${textTable(results)}\n`);
  for (const r of results) console.log(`${r.name}: ${verdict(r)}`);
  for (const line of scenarioDetails(results)) console.log(line);
  if (skipped.length > 0) console.log(`Skipped (a server failed to start): ${skipped.join(", ")}`);

  await mkdir(path.dirname(resultsFile), { recursive: true });
  await writeFile(resultsFile, `${JSON.stringify({ info, results, skipped }, null, 2)}\n`);
  if (options.writeDocs && results.length > 0 && skipped.length === 0) {
    const { written, kept } = await writeDocs(docsFile, info, results);
    const docs = path.relative(rootDir, docsFile);
    if (written.length > 0)
      log(`Wrote ${docs} (section ${written.join(", ")}) and ${path.relative(rootDir, resultsFile)}.`);
    for (const k of kept) log(`Kept the ${k.section} section of ${docs}: ${k.reason}.`);
  } else {
    log(`Wrote ${path.relative(rootDir, resultsFile)}; docs/benchmarks.md left unchanged (partial run).`);
  }
  return skipped.length > 0 ? 1 : 0;
}

main()
  .then(async (code) => {
    await cleanup();
    process.exit(code);
  })
  .catch(async (err: unknown) => {
    // An abort already stops everything and exits with its own code.
    if (aborted) return;
    console.error(`\n[bench] ${err instanceof Error ? (err.stack ?? err.message) : err}`);
    await cleanup();
    process.exit(1);
  });
