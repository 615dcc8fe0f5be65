import { isValid, type Measurement } from "./load.ts";
import type { ScenarioName } from "./options.ts";

export interface Goal {
  /** Minimum target/baseline ratio of requests per second; undefined when only the ratio is reported. */
  minRatio?: number;
  text: string;
}

export interface ScenarioResult {
  name: ScenarioName;
  goal: Goal;
  target: Measurement;
  baseline: Measurement;
  /** What the answers said beyond their rate (e.g. how many webhook events were applied). */
  details?: string[];
}

export interface RunInfo {
  date: Date;
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  database: string;
  /** 1-minute load average when the run started: other work on the machine skews the numbers. */
  loadAverage: number;
  duration: number;
  connections: number;
  warmup: number;
}

export type Verdict = "PASS" | "FAIL" | "INVALID" | "REPORTED";

export function ratio(result: ScenarioResult): number | undefined {
  if (!isValid(result.target) || !isValid(result.baseline)) return undefined;
  if (result.baseline.requestsPerSecond === 0) return undefined;
  return result.target.requestsPerSecond / result.baseline.requestsPerSecond;
}

export function verdict(result: ScenarioResult): Verdict {
  const r = ratio(result);
  if (r === undefined) return "INVALID";
  if (result.goal.minRatio === undefined) return "REPORTED";
  return r >= result.goal.minRatio ? "PASS" : "FAIL";
}

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

function invalidReason(m: Measurement): string {
  const codes = Object.entries(m.statusCodes)
    .filter(([code]) => !code.startsWith("2"))
    .map(([code, count]) => `${integer.format(count)}×${code}`);
  const parts = [];
  if (m.non2xx > 0)
    parts.push(`${integer.format(m.non2xx)} non-2xx${codes.length ? ` (${codes.join(", ")})` : ""}`);
  if (m.errors > 0) parts.push(`${integer.format(m.errors)} errors (${m.timeouts} timeouts)`);
  if (m.total === 0) parts.push("no responses");
  return `invalid: ${parts.join(", ")}`;
}

interface Row {
  scenario: string;
  endpoint: string;
  rate: string;
  p50: string;
  p99: string;
  size: string;
  non2xx: string;
  errors: string;
  ratio: string;
  goal: string;
  result: string;
}

const headings: Row = {
  scenario: "Scenario",
  endpoint: "Endpoint",
  rate: "req/s (mean)",
  p50: "p50 (ms)",
  p99: "p99 (ms)",
  size: "KB/resp",
  non2xx: "non-2xx",
  errors: "errors",
  ratio: "ratio",
  goal: "goal",
  result: "result",
};

function measurementCells(m: Measurement): Pick<Row, "rate" | "p50" | "p99" | "size" | "non2xx" | "errors"> {
  const valid = isValid(m);
  return {
    rate: valid ? integer.format(m.requestsPerSecond) : invalidReason(m),
    // autocannon records latency in whole milliseconds.
    p50: valid ? integer.format(m.latencyP50) : "—",
    p99: valid ? integer.format(m.latencyP99) : "—",
    size: oneDecimal.format(m.bytesPerResponse / 1024),
    non2xx: integer.format(m.non2xx),
    errors: integer.format(m.errors),
  };
}

function rows(results: ScenarioResult[]): Row[] {
  return results.flatMap((result) => {
    const r = ratio(result);
    return [
      {
        scenario: result.name,
        endpoint: result.target.label,
        ...measurementCells(result.target),
        // Two significant digits below 0.1, so that a write endpoint's small ratio does not read 0.00.
        ratio: r === undefined ? "—" : r < 0.1 ? r.toPrecision(2) : r.toFixed(2),
        goal: result.goal.text,
        result: verdict(result),
      },
      {
        scenario: "",
        endpoint: result.baseline.label,
        ...measurementCells(result.baseline),
        ratio: "",
        goal: "",
        result: "",
      },
    ];
  });
}

const columns = Object.keys(headings) as Array<keyof Row>;
const numeric = new Set<keyof Row>(["rate", "p50", "p99", "size", "non2xx", "errors", "ratio"]);

export function textTable(results: ScenarioResult[]): string {
  const all = [headings, ...rows(results)];
  const widths = columns.map((c) => Math.max(...all.map((row) => row[c].length)));
  const line = (row: Row) =>
    columns
      .map((c, i) => {
        const width = widths[i] ?? 0;
        return numeric.has(c) && row !== headings ? row[c].padStart(width) : row[c].padEnd(width);
      })
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(headings), rule, ...all.slice(1).map(line)].join("\n");
}

/** Padded like Biome formats Markdown tables, so that \`biome check\` leaves the generated file alone. */
function markdownTable(results: ScenarioResult[]): string {
  const all = [headings, ...rows(results)].map((row) => {
    const escaped = { ...row };
    for (const c of columns) escaped[c] = row[c].replaceAll("|", "\\|");
    return escaped;
  });
  const widths = columns.map((c) => Math.max(3, ...all.map((row) => row[c].length)));
  const cell = (c: keyof Row, value: string, i: number) =>
    numeric.has(c) ? value.padStart(widths[i] ?? 0) : value.padEnd(widths[i] ?? 0);
  const line = (row: Row) => `| ${columns.map((c, i) => cell(c, row[c], i)).join(" | ")} |`;
  const align = `| ${columns
    .map((c, i) => {
      const width = widths[i] ?? 3;
      return numeric.has(c) ? `${"-".repeat(width - 1)}:` : "-".repeat(width);
    })
    .join(" | ")} |`;
  const [head, ...body] = all;
  return [line(head ?? headings), align, ...body.map(line)].join("\n");
}

/** The details of each scenario that has some, one line each, for the console. */
export function scenarioDetails(results: ScenarioResult[]): string[] {
  return results.flatMap((r) => (r.details ?? []).map((line) => `${r.name}: ${line}`));
}

function detailsList(results: ScenarioResult[]): string {
  const lines = results.flatMap((r) => (r.details ?? []).map((line) => `- **${r.name}**: ${line}`));
  return lines.length > 0 ? `In this run:\n\n${lines.join("\n")}\n\n` : "";
}

export const markers = (id: string) => ({
  start: `<!-- bench:${id}:start -->`,
  end: `<!-- bench:${id}:end -->`,
});
export const markerStart = markers("foundation").start;
export const markerEnd = markers("foundation").end;

export function runParagraph(info: RunInfo): string {
  return `Measured ${info.date.toISOString().replace(/\.\d+Z$/, "Z")} on ${info.cpus} CPUs (${info.cpuModel}),
${info.memoryGiB.toFixed(0)} GiB of memory, Node ${info.node}, 1-minute load average ${info.loadAverage.toFixed(2)} at
the start; database: ${info.database}.
Each endpoint: ${info.warmup} s of warm-up, then ${info.duration} s with ${info.connections} connections
(autocannon, one request at a time per connection); a scenario's target and its baseline run one after the
other on the same machine in the same run, never concurrently.`;
}

export function foundationSection(info: RunInfo, results: ScenarioResult[]): string {
  const summary = results
    .filter((r) => r.goal.minRatio !== undefined)
    .map((r) => `\`${r.name}\`: **${verdict(r)}**`)
    .join(", ");
  return `${markerStart}
<!-- Generated by \`npm run bench\` (bench/run.ts); edits between these markers are overwritten. -->

## Maintenance switch, public pages and the buyer's link

${runParagraph(info)}

${markdownTable(results)}

${summary ? `Goals against the static baseline: ${summary}.\n\n` : ""}\
How to read it:

- **ratio** is the target's mean req/s divided by its baseline's, measured in this run.
- **api-maintenance**: \`GET /maintenance\` on the real API (all its plugins, the maintenance answer held
  in memory for \`MAINTENANCE_CACHE_SECONDS\`) against \`GET /bare\`, a Fastify server with one route, no
  logger and no plugins answering a small JSON object. No numeric goal: the ratio is reported.
- **web-home**, **web-blog**: \`GET /\` and \`GET /blog/how-affiliate-attribution-works\` on the real web
  app (its own server, \`node dist/server.js\`: Next.js's handler plus the CSP header; \`accept-language: en\`, so the locale rewrite lands on the prerendered English page)
  against the static baseline page. Goal: public pages served from cache at no less than half the static
  page's rate, **PASS** when ratio ≥ 0.5.
- **api-public-link**: \`GET /public/links/{token}\` of the demo link on the real API over PostgreSQL,
  against \`GET /bare\`. Goal: at no less than a fifth of the bare route, **PASS** when ratio ≥ 0.2. The
  API keeps public reads in memory for \`PUBLIC_READ_CACHE_MS\` (2 s; concurrent misses share one
  query), so under load nearly every request is answered from memory; an edit on the instance drops its
  entry at once (decision 008). Without that cache (\`PUBLIC_READ_CACHE_MS=0\`) one instance answered
  about 800 req/s at 10 connections here (one four-join query per request), a ratio near 0.03.
- **web-link**: \`GET /v/{token}\`, the link purchase view, rendered on first visit and then served from
  the Next.js cache until the API asks for a refresh. Goal: at no less than half the static page's rate.
- The **static baseline** is a separate, minimal Next.js app that the bench generates in
  \`bench/.baseline-next/\` (ignored by git) and builds once (rebuilt only when its sources or the \`next\`
  version change): a root layout and one \`app/page.tsx\` marked \`force-static\`, with about 25 KB of
  HTML like the public pages (see KB/resp), no proxy, no i18n, no CSS, served by the monorepo's own
  \`next\` binary with \`next start\`. It is what Next.js itself costs for a prerendered page here.
- A measurement with any non-2xx answer or connection error is **invalid**: no rate is given for it and
  its scenario has no ratio.
- Responses are not compressed (autocannon sends no \`accept-encoding\`), for targets and baselines alike.
- The Next.js servers listen on \`localhost\` rather than \`127.0.0.1\`: with \`next start -H 127.0.0.1\`,
  Next.js 16.4 treated the web proxy's locale rewrite as an external URL and proxies it to itself in a
  loop, so every page answered 500 after a long wait
  ([vercel/next.js#94745](https://github.com/vercel/next.js/issues/94745)).
- The load generator shares the machine with the servers (loopback only), so absolute numbers are
  lower than on a dedicated machine; the ratios are the point.
${markerEnd}`;
}

export function checkoutSection(info: RunInfo, results: ScenarioResult[]): string {
  const { start, end } = markers("checkout");
  return `${start}
<!-- Generated by \`npm run bench\` (bench/run.ts); edits between these markers are overwritten. -->

## Checkout and payment webhooks on PostgreSQL

${runParagraph(info)}

${markdownTable(results)}

${detailsList(results)}How to read it:

- **ratio** is the target's mean req/s divided by its baseline's, measured in this run. Both scenarios
  write to the database on every request, so the absolute **req/s** is the number that matters: it is
  how many checkouts, or payments applied, one API instance sustains on this PostgreSQL.
- The baseline of both is \`POST /bare\` on the bare Fastify server (one route, no plugins, no
  database), sent the same kind of JSON bodies made the same way per request (unique e-mails; events
  signed at sending time), so the load generator does the same work on both sides.
- **api-checkout**: \`POST /stripe/checkout\` for the demo catalogue's link (no stock limit), each
  request with its own buyer e-mail (\`bench-<run>-<n>@example.com\`), answered 201: in one
  transaction the link's row is locked (\`FOR UPDATE\`), the price computed and a pending order
  inserted; then the sandbox payment is recorded and the order updated with its id. All checkouts of
  one link queue on that row lock. No rate limit applies to this route; the maintenance gate is open.
  No numeric goal: the ratio and the absolute rate are reported.
- **api-webhook**: \`POST /webhooks/sandbox\`, each request a distinct \`payment.succeeded\` event
  (\`evt_sbx_bench_<run>_<n>\`) for a different pending order, signed at sending time as the sandbox
  does (\`sandbox-signature: t=…,v1=…\`, HMAC-SHA256 with the key derived from \`APP_SECRET\`). Before its
  warm-up, the bench makes sure there are about twice as many pending orders as the warm-up and the
  measurement need at the checkout rate: the orders \`api-checkout\` created, topped up with
  \`POST /stripe/checkout\`. So the measured requests take the full paid path: the event recorded, the
  order locked and marked paid, the sale posted to the ledger (balances updated), the link's sales
  counter incremented (no promo code here), the receipt e-mail and the hold release queued as jobs (not run:
  \`JOBS_ENABLED=false\`), all in one transaction. The answers' \`result\` counts above show how many
  were applied; \`duplicate\` or \`ignored\` ones would have taken the cheap path and flattered the rate.
  No numeric goal: the ratio and the absolute rate are reported.
- The **PostgreSQL connections** line above comes from \`pg_stat_activity\`, sampled every 250 ms
  during the measurement. Most of the pool waiting for a lock while one connection sits idle in a
  transaction means the requests queue behind one row: the link's row for checkouts (\`FOR UPDATE\`),
  and for payments the rows every sale updates (the creator's and the platform's ledger balances, the
  link's sales counter). The rate is then about one over the time that row stays locked: several round
  trips between the API and PostgreSQL and a commit, longer when the machine is busy. It is per link
  (and per creator) rather than per instance: adding connections or instances does not raise it.
- A measurement with any non-2xx answer or connection error is **invalid**: no rate is given for it and
  its scenario has no ratio.
${end}`;
}
