/**
 * The launch scenario's baselines: the bare Fastify route, sent the same bodies and headers as each
 * API load (signed events, checkouts, clicks; plain GETs for the reads) on as many connections, alone.
 */
import { jsonHeaders, type PendingOrder, signPayload } from "./checkout.ts";
import { clickRequests } from "./clicks.ts";
import { log, webhookSecret } from "./context.ts";
import { describeRun, type LaunchLoad, warmThenMeasure } from "./launch-load.ts";
import { checkoutRequests, deliveriesFor } from "./launch-phases.ts";
import type { Options } from "./options.ts";
import type { Server } from "./servers.ts";

/** Bodies like the API's for the bare route: same sizes, same client work. */
function bareLoad(bare: Server, label: string, connections: number, extra: Partial<LaunchLoad>): LaunchLoad {
  return {
    label,
    origins: [bare.origin],
    path: "/bare",
    method: "POST",
    headers: jsonHeaders,
    connections,
    ...extra,
  };
}

export async function baselines(
  options: Options,
  bare: Server,
  connections: { payments: number; clicks: number; reads: number },
) {
  const made: PendingOrder = {
    orderId: "00000000-0000-4000-8000-000000000000",
    paymentId: "sbx_pi_0000000000000000",
    total: 1500,
    currency: "EUR",
  };
  const events = deliveriesFor([made], "bare");
  const event = events[0]?.body ?? "{}";
  const checkoutBody = checkoutRequests(["bare_baseline_token_0000000"]);
  const clickBody = clickRequests("bare_baseline");
  const runs = {
    payment: await warmThenMeasure(
      bareLoad(bare, "POST /bare (same signed event bodies)", connections.payments, {
        request: () => ({
          body: event,
          headers: { "sandbox-signature": signPayload(event, webhookSecret, Math.floor(Date.now() / 1000)) },
        }),
      }),
      options.warmup,
      options.duration,
    ),
    checkout: await warmThenMeasure(
      bareLoad(bare, "POST /bare (same checkout bodies)", connections.payments, {
        request: () => checkoutBody(),
      }),
      options.warmup,
      options.duration,
    ),
    click: await warmThenMeasure(
      bareLoad(bare, "POST /bare (same click bodies)", connections.clicks, { request: () => clickBody() }),
      options.warmup,
      options.duration,
    ),
    read: await warmThenMeasure(
      {
        label: "GET /bare",
        origins: [bare.origin],
        path: "/bare",
        method: "GET",
        headers: {},
        connections: connections.reads,
      },
      options.warmup,
      options.duration,
    ),
  };
  for (const run of Object.values(runs)) log(`  baseline ${describeRun(run)}`);
  return runs;
}
