/**
 * Lighthouse (mobile: its default emulation and simulated throttling) on the production build's
 * public pages, categories performance and accessibility, through its CLI, connected to a headless
 * Chromium the bench starts itself (loopback only) in a process group of its own: cleanup then stops
 * it, which it would not if Lighthouse had launched it (Chromium is detached from the CLI).
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { benchDir, demoBlogSlug, demoCreatorHandle, demoLinkToken, log, rootDir } from "./context.ts";
import { freePort, host, runToEnd, type Spawned, start, stop, waitUntilReady } from "./processes.ts";
import type { Server } from "./servers.ts";

export const lighthouseGoal = 95;
export const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const chromeFlags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const cli = path.join(rootDir, "node_modules", "lighthouse", "cli", "index.js");
/** Each page's full report, to open in the Lighthouse viewer (ignored by git, like all results). */
export const lighthouseReportsDir = path.join(benchDir, "results", "lighthouse");
/** One audit of one page: Lighthouse's own limit for a load is 45 s; the whole run gets some more. */
const pageTimeoutMs = 150_000;

export const lighthousePages = [
  { name: "home", path: "/" },
  { name: "link", path: `/v/${demoLinkToken}` },
  { name: "creator", path: `/c/${demoCreatorHandle}` },
  { name: "blog", path: `/blog/${demoBlogSlug}` },
];

export interface LighthousePage {
  name: string;
  path: string;
  performance: number;
  accessibility: number;
  /** Milliseconds, except CLS (unitless). */
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** Lighthouse's measure of the CPU's speed during the audit (higher is faster). */
  benchmarkIndex: number;
  /** What Lighthouse warned about (e.g. a CPU too slow or too busy for reliable timings). */
  warnings: string[];
  /** Audits that cost points (score below 1, weighted), worst first: what to fix next. */
  losing: string[];
  /** The performance score of every audit of the page, in order; the fields above are the median one's. */
  runs: number[];
}

interface LighthouseReport {
  environment?: { benchmarkIndex?: number };
  runWarnings?: string[];
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
  audits: Record<
    string,
    { score: number | null; numericValue?: number; title: string; displayValue?: string }
  >;
}

export function lighthouseAvailable(): string | undefined {
  if (!existsSync(cli)) return `Lighthouse is not installed (${cli})`;
  if (!existsSync(chromePath)) return `Chromium is not at ${chromePath} (set CHROME_PATH)`;
  return undefined;
}

function losingAudits(report: LighthouseReport): string[] {
  const losing: Array<{ text: string; weight: number }> = [];
  for (const [category, { auditRefs }] of Object.entries(report.categories)) {
    for (const ref of auditRefs) {
      const audit = report.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 1) continue;
      // Unweighted audits (opportunities, diagnostics) cost nothing themselves but explain the metrics.
      if (ref.weight === 0 && audit.score >= 0.9) continue;
      const value = audit.displayValue ? ` (${audit.displayValue})` : "";
      losing.push({
        text: `${category}: ${audit.title}${value}, score ${audit.score.toFixed(2)}`,
        weight: ref.weight > 0 ? ref.weight * (1 - audit.score) : 0.01 * (1 - audit.score),
      });
    }
  }
  return losing.sort((a, b) => b.weight - a.weight).map((l) => l.text);
}

interface Chrome {
  port: number;
  process: Spawned;
  profile: string;
}

async function startChrome(): Promise<Chrome> {
  const port = await freePort();
  const profile = await mkdtemp(path.join(os.tmpdir(), "salelink-bench-chromium-"));
  const chrome = start(
    "chromium",
    chromePath,
    [
      ...chromeFlags,
      `--remote-debugging-port=${port}`,
      `--remote-debugging-address=${host}`,
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    { cwd: profile, echo: false },
  );
  await waitUntilReady(chrome, `http://${host}:${port}/json/version`, {}, 30_000);
  return { port, process: chrome, profile };
}

async function audit(
  web: Server,
  chrome: Chrome,
  page: { name: string; path: string },
  dir: string,
  echo: boolean,
  run: number,
): Promise<Omit<LighthousePage, "runs">> {
  const output = path.join(dir, `${page.name}-${run}.json`);
  await runToEnd(
    `lighthouse ${page.path}`,
    process.execPath,
    [
      cli,
      `${web.origin}${page.path}`,
      "--output=json",
      `--output-path=${output}`,
      "--only-categories=performance,accessibility",
      `--port=${chrome.port}`,
      `--hostname=${host}`,
      "--quiet",
    ],
    { cwd: dir, env: { CHROME_PATH: chromePath }, echo, timeoutMs: pageTimeoutMs },
  );
  const report = JSON.parse(await readFile(output, "utf8")) as LighthouseReport;
  const score = (id: string) => Math.round((report.categories[id]?.score ?? 0) * 100);
  const metric = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
  return {
    name: page.name,
    path: page.path,
    performance: score("performance"),
    accessibility: score("accessibility"),
    fcp: metric("first-contentful-paint"),
    lcp: metric("largest-contentful-paint"),
    tbt: metric("total-blocking-time"),
    cls: metric("cumulative-layout-shift"),
    benchmarkIndex: Math.round(report.environment?.benchmarkIndex ?? 0),
    warnings: report.runWarnings ?? [],
    losing: losingAudits(report),
  } satisfies Omit<LighthousePage, "runs">;
}

/**
 * One page after the other (never concurrently: they would slow each other down), `runs` audits each.
 * A single audit's TBT swings with whatever else the CPU does (93 and 99 for the same build, minutes
 * apart): the page's result is its median audit by performance score, and every score is kept.
 */
export async function runLighthouse(web: Server, echo: boolean, runs: number): Promise<LighthousePage[]> {
  const dir = lighthouseReportsDir;
  await mkdir(dir, { recursive: true });
  const pages: LighthousePage[] = [];
  const chrome = await startChrome();
  try {
    for (const page of lighthousePages) {
      // The first visit renders an ISR page; Lighthouse should measure what buyers get: the cached one.
      await fetch(`${web.origin}${page.path}`, { signal: AbortSignal.timeout(30_000) }).then((r) =>
        r.arrayBuffer(),
      );
      const audits: Omit<LighthousePage, "runs">[] = [];
      for (let run = 1; run <= runs; run++) audits.push(await audit(web, chrome, page, dir, echo, run));
      const sorted = [...audits].sort((a, b) => a.performance - b.performance);
      const median = sorted[Math.floor((sorted.length - 1) / 2)];
      if (!median) throw new Error(`no Lighthouse audit of ${page.path}`);
      const result = { ...median, runs: audits.map((a) => a.performance) };
      pages.push(result);
      log(
        `  ${page.path}: performance ${result.performance} (runs ${result.runs.join(", ")}), accessibility ${result.accessibility}; ` +
          `FCP ${Math.round(result.fcp)} ms, LCP ${Math.round(result.lcp)} ms, TBT ${Math.round(result.tbt)} ms, CLS ${result.cls.toFixed(3)}; CPU index ${result.benchmarkIndex}`,
      );
      for (const line of result.losing.slice(0, 10)) log(`    loses points: ${line}`);
    }
  } finally {
    await stop(chrome.process);
    await rm(chrome.profile, { recursive: true, force: true });
  }
  return pages;
}
