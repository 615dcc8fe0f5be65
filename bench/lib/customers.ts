/**
 * The creator's customers screen (issue 21, "Performance"): it must answer in under 200 ms p99 for
 * a creator with 100,000 orders on PostgreSQL. One creator's orders and customers are written with
 * SQL (customers-seed.ts); then GET /customers is measured as the screen asks it (first page, a
 * search, a link filter, page 50), each against the bare route measured in the same run.
 */
import { count, log } from "./context.ts";
import { type CustomersSeed, seedCustomers } from "./customers-seed.ts";
import { isValid, type LoadOptions, type Measurement, measure, warmUp } from "./load.ts";
import type { Options } from "./options.ts";
import { markers, type RunInfo } from "./report.ts";
import { machineParagraph, markdownTable } from "./report-more.ts";
import type { Server } from "./servers.ts";

/** The goal for every read of the screen. */
export const customersP99GoalMs = 200;
/** The screen's page size (the contracts' CUSTOMER_LIST_DEFAULT_LIMIT). */
const PAGE = 25;

export interface CustomersResult {
  orders: number;
  customers: number;
  links: number;
  seedSeconds: number;
  baseline: Measurement;
  reads: Measurement[];
}

/** Seconds the scenario may take, for the run's watchdog (the seeding included). */
export function customersSeconds(options: Options): number {
  const phase = options.warmup + options.duration + 15;
  return 5 * phase + Math.ceil(options.customersOrders / 1000) + 60;
}

const line = (m: Measurement) =>
  `${count.format(m.requestsPerSecond)} req/s, p50 ${m.latencyP50} ms, p99 ${m.latencyP99} ms, non-2xx ${m.non2xx}, errors ${m.errors}`;

/** The reads measured: what the screen asks when opened, searched, filtered and paged far. */
function reads(seed: CustomersSeed): Array<{ label: string; path: string }> {
  const link = seed.linkIds[0] ?? "";
  return [
    { label: "first page", path: `/customers?limit=${PAGE}` },
    { label: "search", path: `/customers?q=${encodeURIComponent(seed.search)}&limit=${PAGE}` },
    { label: "link filter", path: `/customers?linkId=${link}&limit=${PAGE}` },
    { label: "page 50", path: `/customers?offset=${49 * PAGE}&limit=${PAGE}` },
  ];
}

export async function runCustomers(
  options: Options,
  api: Server,
  bare: Server,
  databaseUrl: string,
): Promise<CustomersResult> {
  log(`  seeding ${count.format(options.customersOrders)} paid orders of one creator ...`);
  const seed = await seedCustomers(databaseUrl, options.customersOrders);
  log(
    `  ${count.format(seed.orders)} orders, ${count.format(seed.customers)} customers, ` +
      `${seed.linkIds.length} links in ${seed.seconds.toFixed(1)} s`,
  );
  const base = { connections: options.connections, duration: options.warmup };
  const bareLoad: LoadOptions = { ...base, url: `${bare.origin}/bare`, headers: { cookie: seed.cookie } };
  await warmUp(bareLoad);
  const baseline = await measure("GET /bare (bare Fastify, same cookie)", {
    ...bareLoad,
    duration: options.duration,
  });
  log(`  ${baseline.label}: ${line(baseline)}`);
  const measured: Measurement[] = [];
  for (const read of reads(seed)) {
    const load: LoadOptions = { ...base, url: `${api.origin}${read.path}`, headers: { cookie: seed.cookie } };
    await warmUp(load);
    const m = await measure(
      `GET ${read.path.replace(seed.search, "…").replace(/linkId=[^&]+/, "linkId=…")} (${read.label})`,
      {
        ...load,
        duration: options.duration,
      },
    );
    log(`  ${m.label}: ${line(m)}`);
    measured.push(m);
  }
  return {
    orders: seed.orders,
    customers: seed.customers,
    links: seed.linkIds.length,
    seedSeconds: seed.seconds,
    baseline,
    reads: measured,
  };
}

const meets = (m: Measurement) => isValid(m) && m.latencyP99 < customersP99GoalMs;
const ratio = (m: Measurement, baseline: Measurement) =>
  baseline.requestsPerSecond > 0 ? m.requestsPerSecond / baseline.requestsPerSecond : 0;

export function customersPass(r: CustomersResult): boolean {
  return r.reads.every(meets);
}

/** One line per read and a verdict, for the console. */
export function customersSummary(r: CustomersResult): string[] {
  return [
    ...r.reads.map(
      (m) =>
        `customers ${m.label}: p50 ${m.latencyP50} ms, p99 ${m.latencyP99} ms, ${count.format(m.requestsPerSecond)} req/s ` +
        `(${ratio(m, r.baseline).toFixed(3)} of the bare route's)`,
    ),
    `customers: p99 < ${customersP99GoalMs} ms for ${count.format(r.orders)} orders: ${customersPass(r) ? "PASS" : "FAIL"}`,
  ];
}

/** The "Customers screen" section of docs/benchmarks.md. */
export function customersSection(info: RunInfo, r: CustomersResult): string {
  const { start, end } = markers("customers");
  const rate = (m: Measurement) => (isValid(m) ? count.format(m.requestsPerSecond) : "invalid");
  const table = markdownTable(
    ["Read", "req/s", "p50 (ms)", "p99 (ms)", "errors", "rate / bare", `p99 < ${customersP99GoalMs} ms`],
    [r.baseline, ...r.reads].map((m) => [
      m.label,
      rate(m),
      String(m.latencyP50),
      String(m.latencyP99),
      String(m.non2xx + m.errors),
      m === r.baseline ? "1" : ratio(m, r.baseline).toFixed(3),
      m === r.baseline ? "" : meets(m) ? "yes" : "**no**",
    ]),
    new Set([1, 2, 3, 4, 5]),
  );
  return `${start}
<!-- Generated by \`npm run bench\` (bench/run.ts); edits between these markers are overwritten. -->

## Customers screen

Issue 21: the creator's customers screen answers in under ${customersP99GoalMs} ms p99 for a creator with
100,000 orders. One creator's ${count.format(r.orders)} paid orders (${r.links} links, one in fifty refunded) and
their ${count.format(r.customers)} customers are written with SQL (\`bench/lib/customers-seed.ts\`, ${r.seedSeconds.toFixed(0)} s), then each
read of the screen is loaded for ${info.duration} s with ${info.connections} connections after a ${info.warmup} s warm-up, as is the
bare route in the same run.

Each answer reads its page of rows live (one row more than the page, to know whether a next page
exists) and sums the page's totals from the orders. The filter's total ("1–25 of 63,126") is counted
once per \`CUSTOMERS_COUNT_CACHE_MS\` (15 s) per instance and filter: counting 63,000 customers took
13 ms, more than the page itself, on every request. The search uses a trigram index (\`pg_trgm\`,
migration 0026), without which a rare substring read every customer of the creator (12 ms).

${table}

Verdict: ${customersPass(r) ? "**PASS**" : "**FAIL**"}.

${machineParagraph(info)}
${end}`;
}
