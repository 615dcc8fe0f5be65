/**
 * The checkout scenarios' requests: POST /stripe/checkout of the demo link (a unique buyer e-mail each)
 * and signed sandbox `payment.succeeded` events for the pending orders those checkouts created.
 */
import { createHmac, randomBytes } from "node:crypto";
import type { RequestParts } from "./load.ts";

/** A pending order as POST /stripe/checkout answers it: what its payment event has to name. */
export interface PendingOrder {
  orderId: string;
  paymentId: string;
  total: number;
  currency: string;
}

/** Distinguishes this run's e-mails and event ids from any other's. */
const runId = randomBytes(4).toString("hex");

/**
 * The sandbox's webhook key, as the API derives it from APP_SECRET
 * (apps/api/src/providers/payments/index.ts, `sandboxWebhookSecret`).
 */
export function sandboxWebhookSecret(appSecret: string): string {
  return createHmac("sha256", appSecret).update("sandbox-payments-webhook").digest("hex");
}

/**
 * Stripe's scheme, which the sandbox uses (apps/api/src/providers/payments/signature.ts, `signPayload`):
 * `t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
 */
export function signPayload(rawBody: string, secret: string, timestampSeconds: number): string {
  const mac = createHmac("sha256", secret).update(`${timestampSeconds}.`).update(rawBody).digest("hex");
  return `t=${timestampSeconds},v1=${mac}`;
}

export const jsonHeaders = { "content-type": "application/json" };
export const sandboxSignatureHeader = "sandbox-signature";

/** Bodies of POST /stripe/checkout for one link, each with its own buyer e-mail. */
export function checkoutBodies(linkToken: string): () => RequestParts {
  let n = 0;
  return () => {
    n += 1;
    return {
      body: JSON.stringify({ token: linkToken, email: `bench-${runId}-${n}@example.com`, locale: "en" }),
    };
  };
}

/** The answer of a successful checkout, or undefined if it is not one. */
export function pendingOrderOf(status: number, body: string): PendingOrder | undefined {
  if (status !== 201) return undefined;
  try {
    const answer = JSON.parse(body) as Partial<PendingOrder>;
    if (
      typeof answer.orderId === "string" &&
      typeof answer.paymentId === "string" &&
      typeof answer.total === "number" &&
      typeof answer.currency === "string"
    ) {
      return {
        orderId: answer.orderId,
        paymentId: answer.paymentId,
        total: answer.total,
        currency: answer.currency,
      };
    }
  } catch {
    // Not JSON: not an order.
  }
  return undefined;
}

/** Pending orders created by checkouts, each handed out once to a payment event. */
export class OrderPool {
  private readonly fresh: PendingOrder[] = [];
  private readonly used: PendingOrder[] = [];
  private reuseAt = 0;
  /** Events sent for an order already handed out, because the pool ran dry. */
  reused = 0;
  /** Mean req/s of the measured checkouts, when api-checkout ran first: sizes the top-up. */
  checkoutRate: number | undefined;

  add(order: PendingOrder): void {
    this.fresh.push(order);
  }

  get available(): number {
    return this.fresh.length;
  }

  /** A fresh order, or (pool dry) an already used one, so that the load goes on and is counted. */
  take(): PendingOrder | undefined {
    const order = this.fresh.pop();
    if (order) {
      this.used.push(order);
      return order;
    }
    if (this.used.length === 0) return undefined;
    this.reused += 1;
    this.reuseAt = (this.reuseAt + 1) % this.used.length;
    return this.used[this.reuseAt];
  }
}

/** A sandbox event in the shape of `sandboxEvent` (apps/api/src/providers/payments/sandbox/provider.ts). */
export function paymentSucceeded(order: PendingOrder, eventId: string, createdSeconds: number): string {
  return JSON.stringify({
    id: eventId,
    type: "payment.succeeded",
    created: createdSeconds,
    data: {
      paymentId: order.paymentId,
      orderId: order.orderId,
      amountMinor: order.total,
      currency: order.currency,
    },
  });
}

/**
 * Each call: a new event id and a signature made at the time of sending, for the next order the source
 * gives (a pool's, or a made-up one for the baseline, so that both sides do the same client work).
 */
export function signedEvents(secret: string, nextOrder: () => PendingOrder): () => RequestParts {
  let n = 0;
  return () => {
    n += 1;
    const now = Math.floor(Date.now() / 1000);
    const body = paymentSucceeded(nextOrder(), `evt_sbx_bench_${runId}_${n}`, now);
    return { body, headers: { [sandboxSignatureHeader]: signPayload(body, secret, now) } };
  };
}

/** A plausible order for the baseline's events (never sent to the API). */
export const madeUpOrder: PendingOrder = {
  orderId: "00000000-0000-4000-8000-000000000000",
  paymentId: "sbx_pi_0000000000000000",
  total: 1500,
  currency: "EUR",
};

/** Counts the webhook's answers by their `result` ("applied", "duplicate", "ignored"). */
export class ResultCounter {
  counts: Record<string, number> = {};

  reset(): void {
    this.counts = {};
  }

  record(status: number, body: string): void {
    let key = `HTTP ${status}`;
    if (status === 200) {
      try {
        const answer = JSON.parse(body) as { result?: unknown };
        key = typeof answer.result === "string" ? answer.result : "no result";
      } catch {
        key = "not JSON";
      }
    }
    this.counts[key] = (this.counts[key] ?? 0) + 1;
  }
}
