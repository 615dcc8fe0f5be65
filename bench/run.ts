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
import { type BenchDatabase, createBenchDatabase } from "./lib/database.ts";
import { type LoadOptions, type Measurement, measure, stopLoad, warmUp } from "./lib/load.ts";
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
import { type Goal, type RunInfo, type ScenarioResult, textTable, verdict, writeDocs } from "./lib/report.ts";

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
            APP_SECRET: randomBytes(32).toString("hex"),
            ALLOW_SANDBOX_PROVIDERS: "true",
            JOBS_ENABLED: "false",
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

async function runEndpoint(options: Options, server: Server, endpoint: Endpoint): Promise<Measurement> {
  const load: LoadOptions = {
    url: `${server.origin}${endpoint.path}`,
    headers: endpoint.headers,
    connections: options.connections,
    duration: options.warmup,
  };
  await warmUp(load);
  const m = await measure(endpoint.label, { ...load, duration: options.duration });
  log(
    `  ${endpoint.label}: ${Math.round(m.requestsPerSecond)} req/s, p50 ${m.latencyP50} ms, p99 ${m.latencyP99} ms, non-2xx ${m.non2xx}, errors ${m.errors}`,
  );
  return m;
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
  const budgetMs =
    3 * buildTimeoutMs +
    4 * readyTimeoutMs +
    selected.length * 2 * (options.warmup + options.duration + 15) * 1000;
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
    results.push({
      name: scenario.name,
      goal: scenario.goal,
      target: targetResult,
      baseline: baselineResult,
    });
  }
  clearTimeout(watchdog);
  checkAborted();
  await cleanup();

  const info = machineInfo(options, dbDescription, startedAt, loadAverage);
  console.log(`\n${textTable(results)}\n`);
  for (const r of results) console.log(`${r.name}: ${verdict(r)}`);
  if (skipped.length > 0) console.log(`Skipped (a server failed to start): ${skipped.join(", ")}`);

  await mkdir(path.dirname(resultsFile), { recursive: true });
  await writeFile(resultsFile, `${JSON.stringify({ info, results, skipped }, null, 2)}\n`);
  if (options.writeDocs && results.length > 0 && skipped.length === 0) {
    await writeDocs(docsFile, info, results);
    log(`Wrote ${path.relative(rootDir, docsFile)} and ${path.relative(rootDir, resultsFile)}.`);
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
