/**
 * The paired scenarios: one endpoint under load, then its baseline, one after the other (public pages
 * against a static Next.js page, API reads and writes against a bare Fastify route).
 */
import {
  checkoutBodies,
  jsonHeaders,
  madeUpOrder,
  OrderPool,
  pendingOrderOf,
  ResultCounter,
  signedEvents,
} from "./checkout.ts";
import {
  apiPoolSize,
  count,
  demoBlogSlug,
  demoLinkToken,
  log,
  webHeaders,
  webhookSecret,
} from "./context.ts";
import type { BenchDatabase } from "./database.ts";
import { type LoadOptions, type Measurement, measure, prepare, type RequestParts, warmUp } from "./load.ts";
import type { Options, ScenarioName } from "./options.ts";
import type { Goal } from "./report.ts";
import { assertRunning, type Server, type ServerName } from "./servers.ts";

/** Set by a signal or the time budget (run.ts): long preparations stop at their next step. */
export const abortState = { aborted: false };

function checkAborted(): void {
  if (abortState.aborted) throw new Error("aborted");
}

export interface Endpoint {
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
export interface Workload {
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

export interface Scenario {
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

export const scenarios: Scenario[] = [
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
      path: `/blog/${demoBlogSlug}`,
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

export async function runEndpoint(
  options: Options,
  server: Server,
  endpoint: Endpoint,
  database: BenchDatabase | undefined,
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
