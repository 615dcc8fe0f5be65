import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { text } from "node:stream/consumers";
import { signPayload } from "../../src/providers/payments/signature.ts";
import { confirmationRoutes, PUBLISHABLE_KEY } from "./fake-stripe-confirm.ts";
import { connectRoutes } from "./fake-stripe-connect.ts";
import { disputeRoutes } from "./fake-stripe-disputes.ts";

export { fakeStripeCards, PUBLISHABLE_KEY } from "./fake-stripe-confirm.ts";

export const SECRET_KEY = "sk_test_fake_secret_4242";

interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** The connected account the request acts on (Stripe-Account header), for Connect calls. */
  stripeAccount: string | undefined;
  params: Record<string, string>;
}

interface StripeErrorBody {
  type: string;
  message: string;
  code?: string;
  decline_code?: string;
}

/**
 * Just enough of Stripe's v1 API for the SDK, on a free local port: form-encoded POSTs to create
 * PaymentIntents and Refunds; Bearer authentication, and idempotency keys as Stripe honours them (the
 * same key replays the first answer; the same key with other parameters is refused; keys are scoped
 * to the account acted on). Server-side confirmation with ConfirmationTokens is in
 * fake-stripe-confirm.ts, disputes in fake-stripe-disputes.ts, Connect (accounts, bank accounts,
 * transfers and their reversals, balances, payouts) in fake-stripe-connect.ts. Every event it would
 * send is kept in `events`; with `webhook`, it is also delivered there, signed like Stripe's.
 */
export async function startFakeStripe(
  options: { port?: number; webhook?: { url: string; secret: string } } = {},
) {
  const intents = new Map<string, Record<string, unknown>>();
  const refunds = new Map<string, Record<string, unknown>>();
  const requests: SeenRequest[] = [];
  const idempotent = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  /**
   * Answers served to the next requests, before anything else, as an outage or a decline would; one
   * with a `route` ("POST /v1/payouts", or a pattern of such) waits for the next request to that route.
   */
  const failures: { status: number; error: StripeErrorBody; route?: string | RegExp }[] = [];
  let sequence = 0;
  const nextId = (prefix: string) => `${prefix}_fake${String(++sequence).padStart(6, "0")}`;
  const events: Record<string, unknown>[] = [];
  const deliveries: Promise<void>[] = [];
  /** `account`: the connected account a Connect event happened on, at the event's top level. */
  const deliver = (type: string, object: Record<string, unknown>, account?: string) => {
    const event = {
      id: nextId("evt"),
      object: "event",
      ...(account ? { account } : {}),
      type,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object: structuredClone(object) },
    };
    events.push(event);
    const webhook = options.webhook;
    if (!webhook) return;
    const body = JSON.stringify(event);
    deliveries.push(
      fetch(webhook.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "stripe-signature": signPayload(body, webhook.secret, Math.floor(Date.now() / 1000)),
        },
        body,
      }).then(
        () => undefined,
        () => undefined,
      ),
    );
  };

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json", "request-id": nextId("req") });
    res.end(JSON.stringify(body));
  };
  const stripeError = (status: number, error: StripeErrorBody) => ({ status, body: { error } });

  const createIntent = (params: Record<string, string>) => {
    const amount = Number(params.amount);
    if (!Number.isInteger(amount) || amount < 1)
      return stripeError(400, {
        type: "invalid_request_error",
        code: "parameter_invalid_integer",
        message: "Invalid integer: amount",
      });
    if (!["eur", "usd", "gbp"].includes(params.currency ?? ""))
      return stripeError(400, {
        type: "invalid_request_error",
        code: "parameter_invalid_empty",
        message: "Invalid currency",
      });
    const id = nextId("pi");
    const metadata = Object.fromEntries(
      Object.entries(params)
        .filter(([k]) => k.startsWith("metadata["))
        .map(([k, v]) => [k.slice("metadata[".length, -1), v]),
    );
    const intent = {
      id,
      object: "payment_intent",
      amount,
      amount_received: 0,
      currency: params.currency,
      status: "requires_payment_method",
      client_secret: `${id}_secret_${randomBytes(8).toString("hex")}`,
      receipt_email: params.receipt_email ?? null,
      description: params.description ?? null,
      metadata,
      automatic_payment_methods: { enabled: params["automatic_payment_methods[enabled]"] === "true" },
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    intents.set(id, intent);
    return { status: 200, body: intent };
  };

  const createRefund = (params: Record<string, string>) => {
    const intent = intents.get(params.payment_intent ?? "");
    if (!intent)
      return stripeError(404, {
        type: "invalid_request_error",
        code: "resource_missing",
        message: `No such payment_intent: '${params.payment_intent}'`,
      });
    if (disputes.chargedBack(String(intent.id)))
      return stripeError(400, {
        type: "invalid_request_error",
        code: "charge_disputed",
        message: `Charge ${String(intent.latest_charge)} has been charged back; cannot issue a refund.`,
      });
    const amount = params.amount === undefined ? Number(intent.amount) : Number(params.amount);
    if (amount > Number(intent.amount))
      return stripeError(400, {
        type: "invalid_request_error",
        code: "amount_too_large",
        message: "Refund amount is greater than the charge amount",
      });
    const refund = {
      id: nextId("re"),
      object: "refund",
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      status: "succeeded",
      created: Math.floor(Date.now() / 1000),
    };
    refunds.set(refund.id, refund);
    return { status: 200, body: refund };
  };

  const metadataOf = (params: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(params)
        .filter(([k]) => k.startsWith("metadata["))
        .map(([k, v]) => [k.slice("metadata[".length, -1), v]),
    );
  const missing = (what: string, id: string | undefined) =>
    stripeError(404, {
      type: "invalid_request_error",
      code: "resource_missing",
      message: `No such ${what}: '${id ?? ""}'`,
    });

  const confirmations = confirmationRoutes({ intents, nextId, stripeError, missing, deliver });
  const connect = connectRoutes({ nextId, stripeError, missing, metadataOf, deliver });
  const disputes = disputeRoutes({ intents, nextId, stripeError, missing, metadataOf, deliver });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake-stripe");
    const raw = await text(req);
    const seen: SeenRequest = {
      method: req.method ?? "",
      path: url.pathname,
      authorization: req.headers.authorization,
      idempotencyKey: req.headers["idempotency-key"] as string | undefined,
      stripeAccount: req.headers["stripe-account"] as string | undefined,
      // The SDK sends a GET's parameters (a list's filters) in the query string.
      params: Object.fromEntries(req.method === "GET" ? url.searchParams : new URLSearchParams(raw)),
    };
    requests.push(seen);
    const route = `${seen.method} ${seen.path}`;
    // Stripe.js's calls from the buyer's browser (with CORS) carry the publishable key.
    res.setHeader("access-control-allow-origin", "*");
    if (seen.method === "OPTIONS") {
      res.writeHead(204, { "access-control-allow-headers": "authorization, content-type" });
      return res.end();
    }
    const publicKey =
      seen.authorization === `Bearer ${PUBLISHABLE_KEY}` || seen.params.key === PUBLISHABLE_KEY;
    if (!(confirmations.isPublic(route) && publicKey) && seen.authorization !== `Bearer ${SECRET_KEY}`) {
      // Stripe masks the key it was given; this fake echoes it whole, so a test can check that the
      // adapter never passes a key on even when the other side is careless.
      const given = seen.authorization?.replace(/^Bearer /, "") ?? "";
      return answer(res, 401, {
        error: { type: "invalid_request_error", message: `Invalid API Key provided: ${given}` },
      });
    }
    const failing = failures.findIndex((f) =>
      f.route instanceof RegExp ? f.route.test(route) : f.route === undefined || f.route === route,
    );
    const [failure] = failing === -1 ? [] : failures.splice(failing, 1);
    if (failure) return answer(res, failure.status, { error: failure.error });

    const fingerprint = `${seen.method} ${seen.path}\n${raw}`;
    const scopedKey = seen.idempotencyKey ? `${seen.stripeAccount ?? ""}|${seen.idempotencyKey}` : undefined;
    const replay = scopedKey ? idempotent.get(scopedKey) : undefined;
    if (replay) {
      if (replay.fingerprint !== fingerprint)
        return answer(res, 400, {
          error: {
            type: "idempotency_error",
            message:
              "Keys for idempotent requests can only be used with the same parameters they were first used with.",
          },
        });
      res.setHeader("idempotent-replayed", "true");
      return answer(res, replay.status, replay.body);
    }

    const result =
      confirmations.handle(route, seen.params) ??
      connect.handle(route, seen.params, seen.stripeAccount) ??
      disputes.handle(route, seen.params) ??
      (route === "POST /v1/payment_intents"
        ? createIntent(seen.params)
        : route === "POST /v1/refunds"
          ? createRefund(seen.params)
          : stripeError(404, {
              type: "invalid_request_error",
              message: `Unrecognized request URL (${seen.method}: ${seen.path})`,
            }));
    // The answer as it was then: a replay does not show what happened to the object since.
    if (scopedKey && result.status < 500)
      idempotent.set(scopedKey, { fingerprint, status: result.status, body: structuredClone(result.body) });
    return answer(res, result.status, result.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() =>
      answer(res, 500, { error: { type: "api_error", message: "Fake Stripe failed" } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    intents,
    refunds,
    /** Connected accounts; `settings.payouts.schedule.interval` is each one's payout schedule. */
    accounts: connect.accounts,
    externalAccounts: connect.externalAccounts,
    transfers: connect.transfers,
    /** Transfer reversals (`trr_…`), by id. */
    reversals: connect.reversals,
    payouts: connect.payouts,
    disputes: disputes.disputes,
    requests,
    failures,
    events,
    confirmationTokens: confirmations.tokens,
    /**
     * Test helper: the buyer's issuer disputes a succeeded PaymentIntent (all it took, unless
     * `amount`): a chargeback (`needs_response`, the amount and `fee` withdrawn) or, with `inquiry`,
     * an inquiry (`warning_needs_response`, nothing withdrawn). Sends `charge.dispute.created` and, for
     * a chargeback, `charge.dispute.funds_withdrawn`. Answers the dispute (also in `disputes`).
     */
    dispute: disputes.open,
    /**
     * Test helper: the network decides a dispute (an inquiry closes as `warning_closed`). A chargeback
     * won gives the amount back, and the fee with `feeReturned` (`charge.dispute.funds_reinstated`);
     * always `charge.dispute.closed`.
     */
    closeDispute: disputes.close,
    /** Test helper: the bank took a pending payout (`payout.paid`, a Connect event). */
    payPayout: connect.payPayout,
    /** Test helper: the bank sent a pending payout back (`payout.failed`, a Connect event). */
    failPayout: connect.failPayout,
    returnPaidPayout: connect.returnPaidPayout,
    /** Resolves once every webhook delivery started so far has been answered. */
    delivered: () => Promise.all(deliveries).then(() => undefined),
    reset() {
      intents.clear();
      refunds.clear();
      connect.clear();
      disputes.disputes.clear();
      requests.length = 0;
      idempotent.clear();
      failures.length = 0;
      events.length = 0;
      confirmations.tokens.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
