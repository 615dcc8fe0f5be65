/**
 * The kinds of the mixed scenario: what each sends, in which order, on how many connections.
 */

import {
  checkoutBodies,
  jsonHeaders,
  madeUpOrder,
  type PendingOrder,
  pendingOrderOf,
  ResultCounter,
  signedEvents,
} from "./checkout.ts";
import { type Campaign, clickRequests } from "./clicks.ts";
import {
  demoCreator,
  demoCreatorHandle,
  demoLinkToken,
  demoLinkTokens,
  webHeaders,
  webhookSecret,
} from "./context.ts";
import type { Kind } from "./mixed-load.ts";
import type { Server } from "./servers.ts";

/**
 * Shares of the connections (users at once): mostly buyers looking at links, a fifth affiliate clicks
 * (each visitor landing), creators on their dashboard, and a few buyers paying.
 */
export const mixShares = {
  "browse-web": 0.3,
  "browse-api": 0.25,
  click: 0.2,
  dashboard: 0.15,
  purchase: 0.1,
} as const;
type KindName = keyof typeof mixShares;

/** Splits `total` connections by the shares (largest remainder), at least one each. */
export function splitConnections(total: number): Record<KindName, number> {
  const names = Object.keys(mixShares) as KindName[];
  const exact = names.map((name) => ({ name, value: Math.max(1, mixShares[name] * total) }));
  const split = Object.fromEntries(exact.map((e) => [e.name, Math.floor(e.value)])) as Record<
    KindName,
    number
  >;
  let left = total - names.reduce((sum, name) => sum + split[name], 0);
  for (const e of [...exact].sort((a, b) => (b.value % 1) - (a.value % 1))) {
    if (left <= 0) break;
    split[e.name] += 1;
    left -= 1;
  }
  return split;
}

export async function signIn(api: Server): Promise<string> {
  const res = await fetch(`${api.origin}/auth/signin`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify(demoCreator),
    signal: AbortSignal.timeout(10_000),
  });
  await res.arrayBuffer();
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .find((c) => c.startsWith("sid="));
  if (!res.ok || !cookie) throw new Error(`Signing in as the demo creator failed: HTTP ${res.status}`);
  return cookie;
}

export const webhooks = new ResultCounter();
let orderToPay: PendingOrder = madeUpOrder;
/** One event id sequence for the whole run: each event is new, for the order its connection just made. */
const paymentEvents = signedEvents(webhookSecret, () => orderToPay);

export function kinds(
  web: Server,
  api: Server,
  split: Record<KindName, number>,
  cookie: string,
  campaign: Campaign,
): Kind[] {
  const checkout = checkoutBodies(demoLinkToken);
  const click = clickRequests(campaign.token);
  return [
    {
      name: "browse-web",
      label: "Link and creator pages (web: /v/{token} ×2, /c/{handle})",
      origin: web.origin,
      connections: split["browse-web"],
      sequence: [
        ...demoLinkTokens.map((token) => ({
          part: "browse-web",
          method: "GET" as const,
          path: `/v/${token}`,
          headers: webHeaders,
        })),
        { part: "browse-web", method: "GET", path: `/c/${demoCreatorHandle}`, headers: webHeaders },
      ],
    },
    {
      name: "browse-api",
      label: "Link reads (API: GET /public/links/{token} ×2)",
      origin: api.origin,
      connections: split["browse-api"],
      sequence: demoLinkTokens.map((token) => ({
        part: "browse-api",
        method: "GET" as const,
        path: `/public/links/${token}`,
      })),
    },
    {
      name: "click",
      label: "Affiliate clicks (API: PATCH /campaigns/clicks/{token}, each a new visitor)",
      origin: api.origin,
      connections: split.click,
      sequence: [
        {
          part: "click",
          method: "PATCH",
          path: `/campaigns/clicks/${campaign.token}`,
          headers: jsonHeaders,
          setup: () => click(),
        },
      ],
    },
    {
      name: "dashboard",
      label: "Creator dashboard (API: /wallet, /links, /campaigns, /campaigns/stats, /sales/summary)",
      origin: api.origin,
      connections: split.dashboard,
      sequence: ["/wallet", "/links", "/campaigns", "/campaigns/stats", "/sales/summary"].map((path) => ({
        part: "dashboard",
        method: "GET" as const,
        path,
        headers: { cookie },
      })),
    },
    {
      name: "purchase",
      label: "Purchases (API: POST /stripe/checkout, then the signed POST /webhooks/sandbox)",
      origin: api.origin,
      connections: split.purchase,
      sequence: [
        {
          part: "checkout",
          method: "POST",
          path: "/stripe/checkout",
          headers: jsonHeaders,
          setup: () => checkout(),
          onResponse: (status, body, context) => {
            const order = pendingOrderOf(status, body);
            if (order) context.order = order;
          },
        },
        {
          part: "webhook",
          method: "POST",
          path: "/webhooks/sandbox",
          headers: jsonHeaders,
          setup: (context) => {
            const order = context.order as PendingOrder | undefined;
            if (!order) return undefined;
            orderToPay = order;
            return paymentEvents();
          },
          onResponse: (status, body) => webhooks.record(status, body),
        },
      ],
    },
  ];
}
