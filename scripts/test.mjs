// `npm test`: every check of the project, in order, ending with one summary line.
// Steps: lint and format, architecture, typecheck, API tests on PGlite, the same on PostgreSQL when
// reachable, web unit tests, builds, Debian's Chromium (installed when missing), Playwright end to end.
// `npm run test:quick` stops after the API tests on PGlite.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { bin, ensureDependencies, root, run, tcpReachable } from "./lib.mjs";

const CHROMIUM = "/usr/bin/chromium";
const quick = process.argv.includes("--quick");
const reportDir = mkdtempSync(path.join(os.tmpdir(), "salelink-test-"));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
const notes = [];

function countVitest(file) {
  if (!existsSync(file)) return;
  const r = JSON.parse(readFileSync(file, "utf8"));
  totals.passed += r.numPassedTests ?? 0;
  totals.failed += r.numFailedTests ?? 0;
  totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const r = JSON.parse(readFileSync(file, "utf8"));
  totals.passed += (r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0);
  totals.failed += r.stats?.unexpected ?? 0;
  totals.skipped += r.stats?.skipped ?? 0;
}

async function step(name, command, args, options) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const code = await run(command, args, options);
  console.log(`${code === 0 ? "✔" : "✘"} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (code !== 0) failures.push(name);
  return code === 0;
}

/** Runs commands at the same time as one step; it fails when any of them does. */
async function stepAll(name, commands) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const codes = await Promise.all(commands.map(([command, args]) => run(command, args)));
  const ok = codes.every((code) => code === 0);
  console.log(`${ok ? "✔" : "✘"} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (!ok) failures.push(name);
  return ok;
}

async function postgresUrl() {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  if (await tcpReachable("127.0.0.1", 5432)) return "postgres://postgres@127.0.0.1:5432/test";
  return null;
}

async function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  console.log(`\n▶ ${CHROMIUM} is missing: installing Debian's chromium with apt-get`);
  const sudo = process.getuid?.() === 0 ? [] : ["sudo", "-n"];
  const [cmd, ...pre] = sudo.length ? sudo : ["apt-get"];
  const aptArgs = (args) => (sudo.length ? [...pre, "apt-get", ...args] : args);
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  await run(cmd, aptArgs(["update", "-qq"]), { env });
  await run(cmd, aptArgs(["install", "-y", "-qq", "chromium"]), { env });
  if (existsSync(CHROMIUM)) return true;
  notes.push(`could not install Debian's chromium (${CHROMIUM}); the browser tests did not run`);
  return false;
}

try {
  await ensureDependencies();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

await step("Lint and format (Biome)", bin("biome"), ["ci", "."]);
// The module layout (decision 025): layers, route files, import cycles; and the check's own tests.
await stepAll("Architecture check", [
  [process.execPath, ["--test", "--test-reporter=dot", "scripts/check-architecture.test.mjs"]],
  [process.execPath, ["scripts/check-architecture.mjs"]],
]);
// The same projects as `npm run typecheck`, side by side: tsc is single-threaded.
await stepAll(
  "Typecheck",
  ["packages/contracts", "apps/api", "e2e", "bench", "apps/web"].map((project) => [
    bin("tsc"),
    ["-p", project, "--noEmit"],
  ]),
);

// Two files at a time, on both databases (Vitest's default is one on 2 cores): on PostgreSQL a file
// spends much of its time waiting on the server (217 s → 133 s), and on PGlite one file leaves a
// core idle while its database starts (414 s → 290 s).
const apiVitest = (label, extraEnv, extraArgs = []) =>
  step(
    `API tests on ${label}`,
    bin("vitest"),
    [
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${reportDir}/api-${label}.json`,
      ...extraArgs,
    ],
    {
      cwd: path.join(root, "apps/api"),
      env: extraEnv,
    },
  );
await apiVitest("PGlite", { DATABASE_URL: "", REDIS_URL: "" }, ["--maxWorkers=2"]);
countVitest(`${reportDir}/api-PGlite.json`);

// One after the other: run beside the browser lane, the PostgreSQL run took 626 s instead of 146 s
// and Playwright 556 s instead of 393 s (both are CPU-bound on 2 cores), longer than in sequence.
async function postgresLane() {
  const pgUrl = await postgresUrl();
  if (!pgUrl) {
    notes.push(
      "PostgreSQL was not reachable (DATABASE_URL unset, nothing on 127.0.0.1:5432): the API tests ran on PGlite only",
    );
    return;
  }
  const redisUp =
    process.env.REDIS_URL || (await tcpReachable("127.0.0.1", 6379))
      ? (process.env.REDIS_URL ?? "redis://127.0.0.1:6379")
      : "";
  await apiVitest("PostgreSQL", { DATABASE_URL: pgUrl, REDIS_URL: redisUp }, ["--maxWorkers=2"]);
  countVitest(`${reportDir}/api-PostgreSQL.json`);
}

async function browserLane() {
  await step(
    "Web unit tests",
    bin("vitest"),
    ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${reportDir}/web.json`],
    {
      cwd: path.join(root, "apps/web"),
    },
  );
  countVitest(`${reportDir}/web.json`);

  const built = await step("Build (API and web)", "npm", ["run", "build", "--silent"]);

  if (built && (await ensureChromium())) {
    await step("End-to-end tests (Playwright, Chromium)", bin("playwright"), ["test"], {
      cwd: path.join(root, "e2e"),
      env: { PLAYWRIGHT_JSON_OUTPUT_NAME: `${reportDir}/e2e.json` },
    });
    countPlaywright(`${reportDir}/e2e.json`);
  } else if (!built) {
    notes.push("the build failed: the browser tests did not run");
  }
}

// `npm run test:quick` (`--quick`): the fast lane before a commit, lint, architecture, types and the
// API on PGlite; CI and `npm test` run everything.
if (!quick) {
  await postgresLane();
  await browserLane();
}

rmSync(reportDir, { recursive: true, force: true });
console.log("\n────────────────────────────────────────");
for (const note of notes) console.log(`note: ${note}`);
if (failures.length) console.log(`failed steps: ${failures.join(", ")}`);
const ok = failures.length === 0 && notes.every((n) => !n.includes("did not run"));
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
