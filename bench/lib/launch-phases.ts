/**
 * The launch scenario's moving parts: checkouts from distinct buyers, payment events delivered with
 * redeliveries while clicks and dashboard reads run, and what each phase measured.
 */
import { jsonHeaders, type PendingOrder, paymentSucceeded, pendingOrderOf, signPayload } from "./checkout.ts";
import { clickRequests } from "./clicks.ts";
import { count, log, webhookSecret } from "./context.ts";
import type { ActivitySampler } from "./database.ts";
import type { EventAnswers } from "./launch-checks.ts";
import { describeRun, type LaunchLoad, type LoadRun, runLoad } from "./launch-load.ts";
import { launchRun } from "./launch-seed.ts";
import type { RequestParts } from "./load.ts";

/** The dashboard's five reads, as the mixed scenario sends them. */
export const dashboardPaths = ["/wallet", "/links", "/campaigns", "/campaigns/stats", "/sales/summary"];

/** Share of the events delivered a second time (same id and body, signed again when sent). */
export const redeliveredShare = 0.05;

export const eventPrefix = `evt_sbx_launch_${launchRun}_`;

/**
 * The longest a fixed-size phase (checkouts, payments) may load before it is stopped: whatever is left
 * unsent then shows in the checks, and the run stays bounded on a machine too busy to finish.
 */
export const phaseLimitSeconds = 300;

/** Settles after `seconds` without keeping the process alive. */
const after = (seconds: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000).unref());

let buyers = 0;
/**
 * Checkout bodies over `tokens` in turn, each from a new buyer: their own e-mail and, through
 * X-Forwarded-For (the bench API trusts loopback), their own address, since checkouts of a limited
 * link are capped per address and per e-mail. Addresses in 2001:db8:8000::/33, apart from the clicks'.
 */
export function checkoutRequests(tokens: string[]): () => RequestParts {
  let n = 0;
  return () => {
    buyers += 1;
    const token = tokens[n % tokens.length] ?? "";
    n += 1;
    return {
      body: JSON.stringify({ token, email: `launch-${launchRun}-${buyers}@example.com`, locale: "en" }),
      headers: {
        "x-forwarded-for": `2001:db8:${(0x8000 | ((buyers >>> 16) & 0x7fff)).toString(16)}:${(buyers & 0xffff).toString(16)}::1`,
      },
    };
  };
}

/** `amount` checkouts of `tokens` (in turn), the orders they created collected. */
export async function checkouts(
  label: string,
  origins: string[],
  connections: number,
  tokens: string[],
  amount: number,
): Promise<{ run: LoadRun; orders: PendingOrder[] }> {
  const orders: PendingOrder[] = [];
  const next = checkoutRequests(tokens);
  const run = await runLoad(
    {
      label,
      origins,
      path: "/stripe/checkout",
      method: "POST",
      headers: jsonHeaders,
      connections,
      request: () => next(),
      onResponse: (status, body) => {
        const order = pendingOrderOf(status, body);
        if (order) orders.push(order);
      },
    },
    { amount, until: after(phaseLimitSeconds) },
  );
  log(`  ${describeRun(run)}`);
  return { run, orders };
}

/** One more checkout of a link: its HTTP status (the one past a limit must be refused). */
export async function oneCheckout(origin: string, token: string): Promise<number> {
  const parts = checkoutRequests([token])();
  const res = await fetch(`${origin}/stripe/checkout`, {
    method: "POST",
    headers: { ...jsonHeaders, ...parts.headers },
    ...(parts.body === undefined ? {} : { body: parts.body }),
    signal: AbortSignal.timeout(10_000),
  });
  await res.arrayBuffer();
  return res.status;
}

interface Delivery {
  eventId: string;
  body: string;
}

let events = 0;
/**
 * One `payment.succeeded` per order and a redelivery of `redeliveredShare` of them, shuffled, so that
 * a redelivery may come before, during or after its first delivery.
 */
export function deliveriesFor(orders: PendingOrder[], tag: string): Delivery[] {
  const created = Math.floor(Date.now() / 1000);
  const first = orders.map((order) => {
    events += 1;
    const eventId = `${eventPrefix}${tag}_${events}`;
    return { eventId, body: paymentSucceeded(order, eventId, created) };
  });
  const again = [...first]
    .sort(() => Math.random() - 0.5)
    .slice(0, Math.round(first.length * redeliveredShare));
  const all = [...first, ...again];
  for (let i = all.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [all[i], all[j]] = [all[j] as Delivery, all[i] as Delivery];
  }
  return all;
}

/** The webhook's answer as the checks count it: its `result`, or the HTTP status when not 200. */
function answerOf(status: number, body: string): string {
  if (status !== 200) return `HTTP ${status}`;
  try {
    const answer = JSON.parse(body) as { result?: unknown };
    return typeof answer.result === "string" ? answer.result : "no result";
  } catch {
    return "not JSON";
  }
}

export interface PaymentPhase {
  label: string;
  creators: number;
  events: number;
  deliveries: number;
  webhooks: LoadRun;
  /** Orders paid (in the database, whether or not their answer came back in time) a second over the phase. */
  appliedRate: number;
  paid: number;
  results: Record<string, number>;
  clicks: LoadRun;
  dashboard: LoadRun;
  /** What the API's database connections were doing, from pg_stat_activity. */
  activity?: string;
}

export interface Concurrent {
  origins: string[];
  cookie: string;
  clickToken: string;
  connections: { payments: number; clicks: number; reads: number };
  sampler?: () => ActivitySampler;
  /** How many of these orders the database says are paid. */
  paidAmong: (orderIds: string[]) => Promise<number>;
}

/** The deliveries on `payments` connections while clicks and dashboard reads run until they end. */
export async function paymentPhase(
  label: string,
  tag: string,
  creators: number,
  orders: PendingOrder[],
  c: Concurrent,
  answers: EventAnswers,
): Promise<PaymentPhase> {
  const deliveries = deliveriesFor(orders, tag);
  let at = 0;
  const results: Record<string, number> = {};
  const webhookLoad: LaunchLoad = {
    label: "POST /webhooks/sandbox",
    origins: c.origins,
    path: "/webhooks/sandbox",
    method: "POST",
    headers: jsonHeaders,
    connections: c.connections.payments,
    request: (context) => {
      const d = deliveries[at];
      at += 1;
      context.eventId = d?.eventId;
      // Past the list (a request built but never sent at the end): an unsigned body, counted apart.
      if (!d) return { body: "{}" };
      const now = Math.floor(Date.now() / 1000);
      return { body: d.body, headers: { "sandbox-signature": signPayload(d.body, webhookSecret, now) } };
    },
    onResponse: (status, body, context) => {
      const answer = answerOf(status, body);
      results[answer] = (results[answer] ?? 0) + 1;
      if (typeof context.eventId !== "string") return;
      const id = context.eventId;
      const list = answers.get(id) ?? [];
      list.push(answer);
      answers.set(id, list);
    },
  };
  const nextClick = clickRequests(c.clickToken);
  const sampler = c.sampler?.();
  const webhooksDone = runLoad(webhookLoad, { amount: deliveries.length, until: after(phaseLimitSeconds) });
  const [webhooks, clicks, dashboard] = await Promise.all([
    webhooksDone,
    runLoad(
      {
        label: "PATCH /campaigns/clicks/{token}",
        origins: c.origins,
        path: `/campaigns/clicks/${c.clickToken}`,
        method: "PATCH",
        headers: jsonHeaders,
        connections: c.connections.clicks,
        request: () => nextClick(),
      },
      { seconds: phaseLimitSeconds + 10, until: webhooksDone },
    ),
    runLoad(
      {
        label: "dashboard reads",
        origins: c.origins,
        path: "/",
        sequence: dashboardPaths,
        method: "GET",
        headers: { cookie: c.cookie },
        connections: c.connections.reads,
      },
      { seconds: phaseLimitSeconds + 10, until: webhooksDone },
    ),
  ]);
  const activity = await sampler?.stop();
  const paid = await c.paidAmong(orders.map((o) => o.orderId));
  const phase: PaymentPhase = {
    label,
    creators,
    events: orders.length,
    deliveries: deliveries.length,
    webhooks,
    appliedRate: webhooks.seconds > 0 ? paid / webhooks.seconds : 0,
    paid,
    results,
    clicks,
    dashboard,
    ...(activity ? { activity } : {}),
  };
  log(
    `  ${label}: ${count.format(paid)} orders paid in ${webhooks.seconds.toFixed(1)} s = ${count.format(phase.appliedRate)}/s; answers ${JSON.stringify(results)}`,
  );
  for (const run of [webhooks, clicks, dashboard]) log(`    ${describeRun(run)}`);
  if (activity) log(`    PostgreSQL connections (mean): ${activity}`);
  return phase;
}
