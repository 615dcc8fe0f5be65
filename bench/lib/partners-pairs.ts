/**
 * The partner programmes scenario's pairs: checkouts without `via` (A) and with the partner's code
 * (B), then the payments of each kind's own orders, each pair alternated A, B, B, A so that a machine
 * whose speed drifts weighs on both kinds alike (issue 20: attribution may cost at most 10 %).
 */
import { randomBytes } from "node:crypto";
import {
  jsonHeaders,
  madeUpOrder,
  OrderPool,
  type PendingOrder,
  paymentSucceeded,
  pendingOrderOf,
  ResultCounter,
  sandboxSignatureHeader,
  signPayload,
} from "./checkout.ts";
import { count, demoLinkToken, log, webhookSecret } from "./context.ts";
import {
  isValid,
  type LoadOptions,
  type Measurement,
  measure,
  prepare,
  type RequestParts,
  warmUp,
} from "./load.ts";
import type { Options } from "./options.ts";
import { abortState } from "./pairs.ts";
import { assertRunning, type Server } from "./servers.ts";

/** Attribution may cost checkouts and payments at most 10 % of their rate (issue 20). */
export const partnersRatioGoal = 0.9;

export type Kind = "a" | "b";

/** One kind's measured rounds (A, B, B, A): the rate is their mean. */
export interface Alternated {
  a: Measurement[];
  b: Measurement[];
  rateA: number;
  rateB: number;
  /** B's mean over A's; undefined when a round is invalid (a non-2xx answer or an error). */
  ratio: number | undefined;
}

export interface CheckoutPair extends Alternated {
  /** Pending orders of each kind the checkouts made (warm-ups included). */
  orders: Record<Kind, number>;
}

export interface WebhookPair extends Alternated {
  /** The measured answers' `result` per kind (applied, duplicate, ignored, or an HTTP status). */
  results: Record<Kind, Record<string, number>>;
  /** Events that named an order already paid, because a kind's pool ran dry (measured rounds). */
  reused: Record<Kind, number>;
  /** Pending orders of each kind at hand before the measured rounds, and those the top-up made. */
  orders: Record<Kind, { atHand: number; toppedUp: number }>;
  toppedUpSeconds: number;
}

function checkAborted(): void {
  if (abortState.aborted) throw new Error("aborted");
}

const run = randomBytes(3).toString("hex");
export const line = (m: Measurement) =>
  `${count.format(m.requestsPerSecond)} req/s, p50 ${m.latencyP50} ms, p99 ${m.latencyP99} ms, ${count.format(m.total)} answers, non-2xx ${m.non2xx}, errors ${m.errors}`;
const mean = (ms: Measurement[]) =>
  ms.reduce((sum, m) => sum + m.requestsPerSecond, 0) / Math.max(1, ms.length);

/** Checkout bodies of one kind, each a new buyer; B's carry the partner's code, followed a minute ago. */
function checkoutRequests(kind: Kind, code: string): () => RequestParts {
  let n = 0;
  return () => {
    n += 1;
    const email = `bench-${run}-${kind}-${n}@example.com`;
    const body = { token: demoLinkToken, email, locale: "en" };
    return {
      body: JSON.stringify(kind === "b" ? { ...body, via: [{ code, at: Date.now() - 60_000 }] } : body),
    };
  };
}

/** Signed `payment.succeeded` events with ids of their own (`signedEvents`' would repeat across kinds). */
function paymentEvents(kind: Kind, nextOrder: () => PendingOrder): () => RequestParts {
  let n = 0;
  return () => {
    n += 1;
    const now = Math.floor(Date.now() / 1000);
    const body = paymentSucceeded(nextOrder(), `evt_sbx_bench_${run}_partners_${kind}_${n}`, now);
    return { body, headers: { [sandboxSignatureHeader]: signPayload(body, webhookSecret, now) } };
  };
}

interface AlternateHooks {
  /**
   * Between the warm-ups and the rounds; when it loaded the API with something else (true), both
   * kinds are warmed up again, so that the first round does not inherit that load's aftermath.
   */
  beforeRounds?(warm: Record<Kind, Measurement>): Promise<boolean>;
  /** Right before the first measured round: counters restart. */
  beginMeasure?(): void;
}

/** Each kind warmed up, then measured A, B, B, A, back to back. */
async function alternate(
  options: Options,
  api: Server,
  loads: Record<Kind, LoadOptions>,
  labels: Record<Kind, string>,
  hooks: AlternateHooks = {},
): Promise<Alternated> {
  // At least a second even with --warmup 0, as api-clicks does: its rate sizes the payments' top-up.
  const warmLoad = (kind: Kind) => ({ ...loads[kind], duration: Math.max(1, loads[kind].duration) });
  const warm = {
    a: await measure("warm-up", warmLoad("a")),
    b: await measure("warm-up", warmLoad("b")),
  };
  log(`  warm-up A: ${line(warm.a)}`);
  log(`  warm-up B: ${line(warm.b)}`);
  checkAborted();
  if (await hooks.beforeRounds?.(warm)) {
    await warmUp(loads.a);
    await warmUp(loads.b);
    checkAborted();
  }
  hooks.beginMeasure?.();
  const rounds: Record<Kind, Measurement[]> = { a: [], b: [] };
  // A, B, B, A: a drift of the machine or of the tables' size over the four rounds weighs on both
  // kinds alike (A, B, A, B would always measure B later).
  for (const kind of ["a", "b", "b", "a"] as const) {
    checkAborted();
    const m = await measure(labels[kind], { ...loads[kind], duration: options.duration });
    assertRunning(api);
    rounds[kind].push(m);
    log(`  ${kind.toUpperCase()}${rounds[kind].length}: ${line(m)}`);
  }
  const rateA = mean(rounds.a);
  const rateB = mean(rounds.b);
  const valid = [...rounds.a, ...rounds.b].every(isValid) && rateA > 0;
  return { a: rounds.a, b: rounds.b, rateA, rateB, ratio: valid ? rateB / rateA : undefined };
}

/** The longest top-up of one kind's pending orders before the payments, in seconds. */
export const topUpLimit = (options: Options) => 3 * (options.warmup + 2 * options.duration);

/**
 * Both pairs on the API, the partner's code in B's checkouts; answers their figures and the ids of
 * the orders each kind's checkouts made (for the checks in SQL).
 */
export async function runPairs(
  options: Options,
  api: Server,
  code: string,
): Promise<{ checkout: CheckoutPair; webhook: WebhookPair; ids: Record<Kind, string[]> }> {
  const pools = { a: new OrderPool(), b: new OrderPool() };
  const ids: Record<Kind, string[]> = { a: [], b: [] };
  const collect = (kind: Kind) => (status: number, body: string) => {
    const order = pendingOrderOf(status, body);
    if (!order) return;
    pools[kind].add(order);
    ids[kind].push(order.orderId);
  };
  const checkoutLoad = (kind: Kind): LoadOptions => ({
    url: `${api.origin}/stripe/checkout`,
    method: "POST",
    headers: jsonHeaders,
    request: checkoutRequests(kind, code),
    onResponse: collect(kind),
    connections: options.connections,
    duration: options.warmup,
  });

  log("  checkouts: A without via, B with via");
  const checkoutRounds = await alternate(
    options,
    api,
    { a: checkoutLoad("a"), b: checkoutLoad("b") },
    {
      a: "POST /stripe/checkout (A: without via)",
      b: "POST /stripe/checkout (B: via the partner's code)",
    },
  );
  const checkout: CheckoutPair = { ...checkoutRounds, orders: { a: ids.a.length, b: ids.b.length } };

  log("  payments: A's orders and B's orders");
  const results = { a: new ResultCounter(), b: new ResultCounter() };
  const webhookLoad = (kind: Kind): LoadOptions => ({
    url: `${api.origin}/webhooks/sandbox`,
    method: "POST",
    headers: jsonHeaders,
    request: paymentEvents(kind, () => pools[kind].take() ?? madeUpOrder),
    onResponse: (status, body) => results[kind].record(status, body),
    connections: options.connections,
    duration: options.warmup,
  });
  const orders = { a: { atHand: 0, toppedUp: 0 }, b: { atHand: 0, toppedUp: 0 } };
  let toppedUpSeconds = 0;
  const webhookRounds = await alternate(
    options,
    api,
    { a: webhookLoad("a"), b: webhookLoad("b") },
    {
      a: "POST /webhooks/sandbox (A: orders without a partner)",
      b: "POST /webhooks/sandbox (B: attributed orders, commission posted)",
    },
    {
      beforeRounds: async (warm) => {
        // Twice what the second warm-up and the two measured rounds would use at the first warm-up's
        // rate (which undershoots), so that every measured event pays a pending order: a reused one
        // would take the cheap path.
        const wanted = Math.ceil(
          2 *
            Math.max(warm.a.requestsPerSecond, warm.b.requestsPerSecond) *
            (options.warmup + 2 * options.duration),
        );
        for (const kind of ["a", "b"] as const) {
          const missing = wanted - pools[kind].available;
          const rate = kind === "a" ? checkout.rateA : checkout.rateB;
          if (missing > 0 && rate > 0) {
            const seconds = Math.min(topUpLimit(options), Math.ceil((1.1 * missing) / rate));
            log(
              `  ${kind.toUpperCase()}: ${pools[kind].available} pending orders; checkouts for ${seconds} s more ...`,
            );
            const before = pools[kind].available;
            const made = await prepare({ ...checkoutLoad(kind), duration: seconds });
            if (made.non2xx > 0 || made.errors > 0) {
              log(`  (while creating orders: ${made.non2xx} non-2xx answers, ${made.errors} errors)`);
            }
            orders[kind].toppedUp = pools[kind].available - before;
            toppedUpSeconds += seconds;
            checkAborted();
            assertRunning(api);
          }
          orders[kind].atHand = pools[kind].available;
        }
        return toppedUpSeconds > 0;
      },
      // The counts of the measured rounds only.
      beginMeasure: () => {
        results.a.reset();
        results.b.reset();
        pools.a.reused = 0;
        pools.b.reused = 0;
      },
    },
  );
  const webhook: WebhookPair = {
    ...webhookRounds,
    results: { a: results.a.counts, b: results.b.counts },
    reused: { a: pools.a.reused, b: pools.b.reused },
    orders,
    toppedUpSeconds,
  };
  for (const text of webhookLines(webhook)) log(`    ${text}`);
  return { checkout, webhook, ids };
}

// ---------------------------------------------------------------------------------------------------
// Verdicts and lines, for the console summary and the docs section.

export type PartnersVerdict = "PASS" | "FAIL" | "INVALID";

export function ratioVerdict(pair: Alternated): PartnersVerdict {
  if (pair.ratio === undefined) return "INVALID";
  return pair.ratio >= partnersRatioGoal ? "PASS" : "FAIL";
}

/** Payments count only when every measured event paid a pending order (no duplicate, ignored or reused). */
export function webhookVerdict(w: WebhookPair): PartnersVerdict {
  const fresh = (["a", "b"] as const).every(
    (kind) =>
      w.reused[kind] === 0 &&
      (w.results[kind].applied ?? 0) > 0 &&
      Object.keys(w.results[kind]).every((result) => result === "applied"),
  );
  return fresh ? ratioVerdict(w) : "INVALID";
}

export const ratioText = (r: number | undefined) => (r === undefined ? "—" : r.toFixed(2));

export function webhookLines(w: WebhookPair): string[] {
  const counts = (kind: Kind) => {
    const c = w.results[kind];
    const other = Object.entries(c)
      .filter(([key]) => !["applied", "duplicate", "ignored"].includes(key))
      .map(([key, n]) => `, ${count.format(n)} ${key}`)
      .join("");
    return `${count.format(c.applied ?? 0)} applied, ${count.format(c.duplicate ?? 0)} duplicate, ${count.format(c.ignored ?? 0)} ignored${other}`;
  };
  const reused = (["a", "b"] as const)
    .filter((kind) => w.reused[kind] > 0)
    .map(
      (kind) =>
        `${kind.toUpperCase()}'s orders ran out: ${count.format(w.reused[kind])} events named an order already paid`,
    );
  return [
    `Measured payments' \`result\`: A ${counts("a")}; B ${counts("b")}.`,
    `Pending orders at hand before the measured rounds: A ${count.format(w.orders.a.atHand)}, B ${count.format(w.orders.b.atHand)}` +
      (w.toppedUpSeconds > 0
        ? ` (of which ${count.format(w.orders.a.toppedUp)} and ${count.format(w.orders.b.toppedUp)} made in ${w.toppedUpSeconds} s of checkouts after the warm-ups)`
        : "") +
      `${reused.length > 0 ? `; ${reused.join("; ")}` : ""}.`,
  ];
}
