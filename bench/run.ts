/**
 * The benchmark suite: starts the servers (loopback only), measures each paired scenario against its
 * baseline one after the other, then affiliate clicks, partner programmes, mixed traffic and
 * Lighthouse, stops the API cleanly to check the stored clicks, prints the results and writes
 * docs/benchmarks.md. Stops everything it started, also on error, on Ctrl-C and when the whole run
 * exceeds its time budget.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Campaign, type ClicksResult, checkClicks, runClicks } from "./lib/clicks.ts";
import { docsFile, log, resultsFile, rootDir } from "./lib/context.ts";
import { customersSeconds, customersSummary, runCustomers } from "./lib/customers.ts";
import { type BenchDatabase, createBenchDatabase } from "./lib/database.ts";
import { type AllResults, writeDocs } from "./lib/docs.ts";
import { invoicesSeconds, invoicesSummary, runInvoices } from "./lib/invoices.ts";
import { runLaunch } from "./lib/launch.ts";
import { stopLaunchLoad } from "./lib/launch-load.ts";
import { phaseLimitSeconds } from "./lib/launch-phases.ts";
import { launchSummary } from "./lib/launch-report.ts";
import { lighthouseAvailable, runLighthouse } from "./lib/lighthouse.ts";
import { stopLoad } from "./lib/load.ts";
import { checkMixedClicks, type MixedResult, runMixed } from "./lib/mixed.ts";
import { stopMixedLoad } from "./lib/mixed-load.ts";
import { type Options, parseOptions, type ScenarioName, usage } from "./lib/options.ts";
import { abortState, runEndpoint, scenarios } from "./lib/pairs.ts";
import {
  checkPartners,
  checksPass,
  type PartnersPending,
  partnersSeconds,
  partnersSummary,
  runPartners,
} from "./lib/partners.ts";
import { killAllNow, stop, stopAll } from "./lib/processes.ts";
import { type RunInfo, type ScenarioResult, scenarioDetails, textTable, verdict } from "./lib/report.ts";
import {
  assertRunning,
  buildBaselineIfNeeded,
  buildIfNeeded,
  buildTimeoutMs,
  readyTimeoutMs,
  type Server,
  type ServerName,
  startServers,
} from "./lib/servers.ts";
import { runUpdates, updatesSeconds, updatesSummary } from "./lib/updates.ts";

// ---------------------------------------------------------------------------------------------------
// Cleanup: one idempotent path for normal ends, errors, signals and the time budget.

let database: BenchDatabase | undefined;
let cleaning: Promise<void> | undefined;
/** The bench API's uploads (the demo catalogue's files), removed with everything else. */
const uploadsDir = mkdtempSync(path.join(os.tmpdir(), "salelink-bench-uploads-"));

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    stopLoad();
    stopMixedLoad();
    stopLaunchLoad();
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

function checkAborted(): void {
  if (abortState.aborted) throw new Error("aborted");
}

function abort(reason: string, exitCode: number): void {
  if (abortState.aborted) return;
  abortState.aborted = true;
  console.error(`\n${reason}: stopping everything this script started ...`);
  void cleanup().finally(() => process.exit(exitCode));
}

process.once("SIGINT", () => abort("Interrupted", 130));
process.once("SIGTERM", () => abort("Terminated", 143));
// A synchronous exit leaves no time for a graceful stop; never leave a server behind.
process.once("exit", killAllNow);

// ---------------------------------------------------------------------------------------------------

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

/** The servers each scenario needs (the web app always with the API it asks). */
function serversFor(name: ScenarioName, options: Options): ServerName[] {
  const pair = scenarios.find((s) => s.name === name);
  if (pair) return [pair.target.server, pair.baseline.server];
  if (name === "api-clicks" || name === "partners" || name === "customers" || name === "updates")
    return ["api", "bare"];
  if (name === "launch") return options.instances > 1 ? ["api", "api2", "bare"] : ["api", "bare"];
  if (name === "mixed") return ["api", "web", "bare"];
  // Invoices: rendered in the bench process, no server.
  if (name === "invoices") return [];
  return ["api", "web"];
}

/** Seconds the measured part may take, for the watchdog: generous, since a loaded machine is slow. */
function measuredSeconds(options: Options, selected: ScenarioName[]): number {
  const phase = options.warmup + options.duration + 15;
  return selected.reduce((sum, name) => {
    const pair = scenarios.find((s) => s.name === name);
    if (pair) {
      return (
        sum +
        2 * phase +
        (pair.target.workload?.prepareSeconds?.(options) ?? 0) +
        (pair.baseline.workload?.prepareSeconds?.(options) ?? 0)
      );
    }
    // Clicks: bare, two warm-ups, a measured run of about `duration` (up to 3 times longer if slow).
    if (name === "api-clicks") return sum + 2 * phase + 3 * options.duration + options.warmup;
    // Partners: two alternated pairs (checkouts, payments, with a top-up of orders) and clicks.
    if (name === "partners") return sum + partnersSeconds(options);
    // Mixed: a warm-up, five kinds alone, the mix, the bare route.
    if (name === "mixed") return sum + 8 * phase;
    // Launch: four baselines and five reads; seven fixed-size phases, each stopped at its limit; the
    // seeding and the audits.
    if (name === "launch") return sum + 10 * phase + 7 * phaseLimitSeconds + 300;
    // Customers: the seeding, the bare route and four reads.
    if (name === "customers") return sum + customersSeconds(options);
    // Updates: the seeding, an API of its own with the job worker, the whole send.
    if (name === "updates") return sum + updatesSeconds(options);
    if (name === "invoices") return sum + invoicesSeconds(options);
    // Lighthouse: four pages, each audited `lighthouseRuns` times, up to 150 s each.
    return sum + 4 * 150 * options.lighthouseRuns;
  }, 0);
}

interface Pending {
  clicks?: { result: ClicksResult; campaign: Campaign };
  partners?: PartnersPending;
  mixed?: MixedResult;
}

/** The API stops with SIGTERM (its last click flush), then the stored clicks are compared with the answers. */
async function stopApiAndCheckClicks(api: Server, pending: Pending): Promise<void> {
  const url = database?.env.DATABASE_URL;
  if (!url || (!pending.clicks && !pending.mixed && !pending.partners)) return;
  const stoppedAt = Date.now();
  await stop(api.process, 30_000);
  const exit = await api.process.exited;
  log(`API stopped (${exit}) in ${Date.now() - stoppedAt} ms`);
  if (pending.clicks) await checkClicks(pending.clicks.result, url, pending.clicks.campaign, exit);
  if (pending.mixed) await checkMixedClicks(pending.mixed, url);
  if (pending.partners) await checkPartners(pending.partners, url, exit);
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

  const selected = options.only;
  const needed = new Set<ServerName>(selected.flatMap((name) => serversFor(name, options)));
  // The web app asks the API whether maintenance is on: it is measured against a real API.
  if (needed.has("web")) needed.add("api");
  const lighthouseProblem = selected.includes("lighthouse") ? lighthouseAvailable() : undefined;

  // Builds may take minutes; the measured part is bounded by the options. Past this, give up.
  const budgetMs = 3 * buildTimeoutMs + 4 * readyTimeoutMs + measuredSeconds(options, selected) * 1000;
  const watchdog = setTimeout(
    () => abort(`Time budget of ${Math.round(budgetMs / 60_000)} min exceeded`, 124),
    budgetMs,
  );

  log(
    `Scenarios: ${selected.join(", ")}; ${options.duration} s per measurement, ${options.connections} connections, ${options.warmup} s warm-up.`,
  );
  await buildIfNeeded(options, needed.has("api"), needed.has("web"));
  if (needed.has("baseline")) await buildBaselineIfNeeded();
  checkAborted();
  if (needed.has("api")) {
    database = await createBenchDatabase(options.databaseUrl, path.join(rootDir, "apps", "api"));
    log(`Database: ${database.description}`);
  }
  const servers = await startServers(options, needed, database, uploadsDir);
  const dbDescription = database?.description ?? "none (no API scenario)";
  const databaseUrl = database?.env.DATABASE_URL;

  const startedAt = new Date();
  const loadAverage = os.loadavg()[0] ?? 0;
  const pairs: ScenarioResult[] = [];
  const all: AllResults = { pairs };
  const pending: Pending = {};
  const skipped: string[] = [];
  const ran = new Set<ScenarioName>();
  const has = (name: ScenarioName) => serversFor(name, options).every((s) => servers.has(s));

  for (const scenario of scenarios.filter((s) => selected.includes(s.name))) {
    const target = servers.get(scenario.target.server);
    const baseline = servers.get(scenario.baseline.server);
    if (!target || !baseline) {
      skipped.push(scenario.name);
      continue;
    }
    checkAborted();
    log(`Scenario ${scenario.name}:`);
    // Baseline first, then target, each with its own warm-up; never both at once.
    const baselineResult = await runEndpoint(options, baseline, scenario.baseline, database);
    const targetResult = await runEndpoint(options, target, scenario.target, database);
    const details = [...baselineResult.details, ...targetResult.details];
    pairs.push({
      name: scenario.name,
      goal: scenario.goal,
      target: targetResult.measurement,
      baseline: baselineResult.measurement,
      ...(details.length > 0 ? { details } : {}),
    });
    ran.add(scenario.name);
  }

  const api = servers.get("api");
  const bare = servers.get("bare");
  const web = servers.get("web");
  // Customers last: its orders carry no ledger postings, and the launch's ledger audit runs before.
  for (const name of ["api-clicks", "partners", "mixed", "launch", "customers", "updates"] as const) {
    if (!selected.includes(name)) continue;
    checkAborted();
    if (!has(name) || !api || !bare || !databaseUrl || !database) {
      log(`Skipping ${name}: it needs PostgreSQL and its servers.`);
      skipped.push(name);
      continue;
    }
    log(`Scenario ${name}:`);
    if (name === "api-clicks") {
      const { result, measured } = await runClicks(options, bare, api, databaseUrl);
      pending.clicks = { result, campaign: measured };
      all.clicks = result;
    } else if (name === "partners") {
      pending.partners = await runPartners(options, api, bare, databaseUrl);
      all.partners = pending.partners.result;
    } else if (name === "customers") {
      all.customers = await runCustomers(options, api, bare, databaseUrl);
    } else if (name === "updates") {
      all.updates = await runUpdates(options, database, uploadsDir);
    } else if (name === "launch") {
      const api2 = servers.get("api2");
      all.launch = await runLaunch(options, api2 ? [api, api2] : [api], bare, database);
      if (api2) assertRunning(api2);
    } else if (web) {
      all.mixed = await runMixed(options, { web, api, bare }, databaseUrl);
      pending.mixed = all.mixed;
    }
    assertRunning(api);
    ran.add(name);
  }

  // In this process, while the servers idle: the loads before are over, Lighthouse not started.
  if (selected.includes("invoices")) {
    checkAborted();
    log("Scenario invoices:");
    all.invoices = await runInvoices(options);
    ran.add("invoices");
  }

  if (selected.includes("lighthouse")) {
    checkAborted();
    if (lighthouseProblem || !web) {
      log(`Skipping lighthouse: ${lighthouseProblem ?? "the web app is not running"}.`);
      skipped.push("lighthouse");
    } else {
      // The loads before leave work behind (click flushes, cache writes): let the machine settle.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      log("Lighthouse (mobile) on the public pages:");
      all.lighthouse = await runLighthouse(web, options.verbose, options.lighthouseRuns);
      ran.add("lighthouse");
    }
  }

  if (api) await stopApiAndCheckClicks(api, pending);
  clearTimeout(watchdog);
  checkAborted();
  await cleanup();

  const info = machineInfo(options, dbDescription, startedAt, loadAverage);
  if (pairs.length > 0) {
    console.log(`\n${textTable(pairs)}\n`);
    for (const r of pairs) console.log(`${r.name}: ${verdict(r)}`);
    for (const line of scenarioDetails(pairs)) console.log(line);
  }
  if (all.clicks) console.log(`api-clicks: ${all.clicks.pass ? "PASS" : "FAIL"}`);
  if (all.partners) for (const line of partnersSummary(all.partners)) console.log(line);
  if (all.mixed) {
    const errors = all.mixed.total.non2xx + all.mixed.total.errors;
    console.log(`mixed: ${errors === 0 ? "no errors" : `${errors} errors: INVALID`}`);
  }
  if (all.launch) for (const line of launchSummary(all.launch)) console.log(line);
  if (all.customers) for (const line of customersSummary(all.customers)) console.log(line);
  if (all.updates) for (const line of updatesSummary(all.updates)) console.log(line);
  if (all.invoices) for (const line of invoicesSummary(all.invoices)) console.log(line);
  if (all.lighthouse) {
    for (const p of all.lighthouse) {
      console.log(`lighthouse ${p.path}: performance ${p.performance}, accessibility ${p.accessibility}`);
    }
  }
  if (skipped.length > 0) console.log(`Skipped: ${skipped.join(", ")}`);

  await mkdir(path.dirname(resultsFile), { recursive: true });
  await writeFile(resultsFile, `${JSON.stringify({ info, ...all, skipped }, null, 2)}\n`);
  const docs = path.relative(rootDir, docsFile);
  if (options.writeDocs && ran.size > 0) {
    const { written, kept } = await writeDocs(docsFile, info, all, ran);
    if (written.length > 0) log(`Wrote ${docs} (sections ${written.join(", ")}).`);
    for (const k of kept) log(`Kept the ${k.section} section of ${docs}: ${k.reason}.`);
  } else {
    log(`${docs} left unchanged.`);
  }
  log(`Raw numbers: ${path.relative(rootDir, resultsFile)}.`);
  // A launch or partners run whose checks fail (ledger, stock, each event once, attribution, clicks)
  // fails the run; a rate under its goal does not.
  const checksFailed =
    all.launch?.pass === false ||
    all.updates?.pass === false ||
    (all.partners !== undefined && !checksPass(all.partners));
  return skipped.length > 0 || checksFailed ? 1 : 0;
}

main()
  .then(async (code) => {
    await cleanup();
    process.exit(code);
  })
  .catch(async (err: unknown) => {
    // An abort already stops everything and exits with its own code.
    if (abortState.aborted) return;
    console.error(`\n[bench] ${err instanceof Error ? (err.stack ?? err.message) : err}`);
    await cleanup();
    process.exit(1);
  });
