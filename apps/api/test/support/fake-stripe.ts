import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { text } from "node:stream/consumers";
import { signPayload } from "../../src/providers/payments/signature.ts";
import { confirmationRoutes, PUBLISHABLE_KEY } from "./fake-stripe-confirm.ts";

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
 * PaymentIntents and Refunds, and for Connect payouts Custom accounts, their external bank
 * accounts, Transfers and Payouts (on a connected account, named by the Stripe-Account header);
 * Bearer authentication, and idempotency keys as Stripe honours them (the same key replays the first
 * answer; the same key with other parameters is refused; keys are scoped to the account acted on).
 * Server-side confirmation with ConfirmationTokens is in fake-stripe-confirm.ts. Every event it
 * would send is kept in `events`; with `webhook`, it is also delivered there, signed like Stripe's.
 */
export async function startFakeStripe(
  options: { port?: number; webhook?: { url: string; secret: string } } = {},
) {
  const intents = new Map<string, Record<string, unknown>>();
  const refunds = new Map<string, Record<string, unknown>>();
  const accounts = new Map<string, Record<string, unknown>>();
  const externalAccounts = new Map<string, Record<string, unknown>>();
  const transfers = new Map<string, Record<string, unknown>>();
  const payouts = new Map<string, Record<string, unknown>>();
  const requests: SeenRequest[] = [];
  const idempotent = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  /** Answers served to the next requests, before anything else, as an outage or a decline would. */
  const failures: { status: number; error: StripeErrorBody }[] = [];
  let sequence = 0;
  const nextId = (prefix: string) => `${prefix}_fake${String(++sequence).padStart(6, "0")}`;
  const events: Record<string, unknown>[] = [];
  const deliveries: Promise<void>[] = [];
  const deliver = (type: string, object: Record<string, unknown>) => {
    const event = {
      id: nextId("evt"),
      object: "event",
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
  const now = () => Math.floor(Date.now() / 1000);
  const missing = (what: string, id: string | undefined) =>
    stripeError(404, {
      type: "invalid_request_error",
      code: "resource_missing",
      message: `No such ${what}: '${id ?? ""}'`,
    });
  const positiveAmount = (params: Record<string, string>) => {
    const amount = Number(params.amount);
    return Number.isInteger(amount) && amount > 0 ? amount : null;
  };

  const confirmations = confirmationRoutes({ intents, nextId, stripeError, missing, deliver });

  const createAccount = (params: Record<string, string>) => {
    if (params.type !== "custom" || !params.country)
      return stripeError(400, {
        type: "invalid_request_error",
        code: "parameter_missing",
        message: "Missing required param: country.",
      });
    const account = {
      id: nextId("acct"),
      object: "account",
      type: params.type,
      country: params.country,
      business_type: params.business_type ?? null,
      capabilities: { transfers: params["capabilities[transfers][requested]"] === "true" ? "pending" : null },
      metadata: metadataOf(params),
      created: now(),
    };
    accounts.set(account.id, account);
    return { status: 200, body: account };
  };

  /*
   * Roughly Stripe's checks of a bank account given as a dictionary: a country/currency pairing it
   * pays out (here: USD in the US, GBP or EUR in the UK, CHF or EUR in Switzerland, EUR elsewhere);
   * in the US an ABA routing number (nine digits, its check digit) and 4 to 17 digits of account
   * number; in the UK a six-digit sort code and an eight-digit account number, or an IBAN; elsewhere an
   * IBAN of that country.
   */
  const payoutCurrencies: Record<string, string[]> = { US: ["usd"], GB: ["gbp", "eur"], CH: ["chf", "eur"] };
  const abaValid = (routing: string) => {
    if (!/^\d{9}$/.test(routing)) return false;
    const d = [...routing].map(Number);
    const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
    return d.reduce((sum, digit, i) => sum + digit * (weights[i] ?? 0), 0) % 10 === 0;
  };
  const invalidBank = (code: string, message: string) =>
    stripeError(400, { type: "invalid_request_error", code, message });
  const bankAccountProblem = (params: Record<string, string>) => {
    const country = params["external_account[country]"] ?? "";
    const currency = params["external_account[currency]"] ?? "";
    const number = params["external_account[account_number]"] ?? "";
    const routing = params["external_account[routing_number]"];
    const type = params["external_account[account_type]"];
    if (!/^[A-Z]{2}$/.test(country))
      return invalidBank("parameter_missing", "Missing required param: external_account[country].");
    if (!(payoutCurrencies[country] ?? ["eur"]).includes(currency))
      return invalidBank(
        "invalid_request_error",
        `Currency ${currency} is not supported for bank accounts in ${country}.`,
      );
    if (country === "US") {
      if (!routing || !abaValid(routing))
        return invalidBank(
          "routing_number_invalid",
          "Routing number must have 9 digits and a valid check digit.",
        );
      if (!/^\d{4,17}$/.test(number))
        return invalidBank(
          "account_number_invalid",
          "The account number you provided appears to be invalid.",
        );
      if (type !== undefined && type !== "checking" && type !== "savings")
        return invalidBank("invalid_request_error", `Invalid account_type: ${type}.`);
      return null;
    }
    if (country === "GB" && routing !== undefined) {
      if (!/^\d{6}$/.test(routing))
        return invalidBank("routing_number_invalid", "The sort code you provided appears to be invalid.");
      if (!/^\d{8}$/.test(number))
        return invalidBank(
          "account_number_invalid",
          "The account number you provided appears to be invalid.",
        );
      return null;
    }
    if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(number) || !number.startsWith(country))
      return invalidBank("invalid_bank_account_iban", "The IBAN you provided appears to be invalid.");
    return null;
  };

  const createExternalAccount = (accountId: string, params: Record<string, string>) => {
    if (!accounts.has(accountId)) return missing("account", accountId);
    const problem = bankAccountProblem(params);
    if (problem) return problem;
    const number = params["external_account[account_number]"] ?? "";
    const bank = {
      id: nextId("ba"),
      object: "bank_account",
      account: accountId,
      country: params["external_account[country]"],
      currency: params["external_account[currency]"],
      routing_number: params["external_account[routing_number]"] ?? null,
      account_type: params["external_account[account_type]"] ?? null,
      account_holder_name: params["external_account[account_holder_name]"] ?? null,
      last4: number.slice(-4),
      metadata: metadataOf(params),
    };
    externalAccounts.set(bank.id, bank);
    return { status: 200, body: bank };
  };

  const createTransfer = (params: Record<string, string>) => {
    const amount = positiveAmount(params);
    if (amount === null)
      return stripeError(400, { type: "invalid_request_error", message: "Invalid integer: amount" });
    if (!accounts.has(params.destination ?? "")) return missing("destination", params.destination);
    const transfer = {
      id: nextId("tr"),
      object: "transfer",
      amount,
      currency: params.currency,
      destination: params.destination,
      transfer_group: params.transfer_group ?? null,
      metadata: metadataOf(params),
      created: now(),
    };
    transfers.set(transfer.id, transfer);
    return { status: 200, body: transfer };
  };

  const createPayout = (stripeAccount: string | undefined, params: Record<string, string>) => {
    const amount = positiveAmount(params);
    if (amount === null)
      return stripeError(400, { type: "invalid_request_error", message: "Invalid integer: amount" });
    if (!stripeAccount || !accounts.has(stripeAccount)) return missing("account", stripeAccount);
    const bank = externalAccounts.get(params.destination ?? "");
    if (!bank || bank.account !== stripeAccount) return missing("external account", params.destination);
    if (bank.currency !== params.currency)
      return stripeError(400, {
        type: "invalid_request_error",
        code: "invalid_request_error",
        message: `The currency of the bank account (${String(bank.currency)}) does not match the currency of the payout (${params.currency}).`,
      });
    // What the platform transferred to the account and has not paid out yet.
    const transferred = [...transfers.values()]
      .filter((t) => t.destination === stripeAccount && t.currency === params.currency)
      .reduce((sum, t) => sum + Number(t.amount), 0);
    const paidOut = [...payouts.values()]
      .filter((p) => p.account === stripeAccount && p.currency === params.currency)
      .reduce((sum, p) => sum + Number(p.amount), 0);
    if (amount > transferred - paidOut)
      return stripeError(400, {
        type: "invalid_request_error",
        code: "balance_insufficient",
        message: "You have insufficient funds in your Stripe account for this transfer.",
      });
    const payout = {
      id: nextId("po"),
      object: "payout",
      account: stripeAccount,
      amount,
      currency: params.currency,
      destination: bank.id,
      status: "pending",
      failure_code: null,
      failure_message: null,
      metadata: metadataOf(params),
      created: now(),
    };
    payouts.set(payout.id, payout);
    return { status: 200, body: payout };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake-stripe");
    const raw = await text(req);
    const seen: SeenRequest = {
      method: req.method ?? "",
      path: url.pathname,
      authorization: req.headers.authorization,
      idempotencyKey: req.headers["idempotency-key"] as string | undefined,
      stripeAccount: req.headers["stripe-account"] as string | undefined,
      params: Object.fromEntries(new URLSearchParams(raw)),
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
    const failure = failures.shift();
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

    const externalAccountsOf = /^POST \/v1\/accounts\/([^/]+)\/external_accounts$/.exec(route);
    const result =
      confirmations.handle(route, seen.params) ??
      (route === "POST /v1/payment_intents"
        ? createIntent(seen.params)
        : route === "POST /v1/refunds"
          ? createRefund(seen.params)
          : route === "POST /v1/accounts"
            ? createAccount(seen.params)
            : externalAccountsOf?.[1]
              ? createExternalAccount(decodeURIComponent(externalAccountsOf[1]), seen.params)
              : route === "POST /v1/transfers"
                ? createTransfer(seen.params)
                : route === "POST /v1/payouts"
                  ? createPayout(seen.stripeAccount, seen.params)
                  : stripeError(404, {
                      type: "invalid_request_error",
                      message: `Unrecognized request URL (${seen.method}: ${seen.path})`,
                    }));
    if (scopedKey && result.status < 500) idempotent.set(scopedKey, { fingerprint, ...result });
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
    accounts,
    externalAccounts,
    transfers,
    payouts,
    requests,
    failures,
    events,
    confirmationTokens: confirmations.tokens,
    /** Resolves once every webhook delivery started so far has been answered. */
    delivered: () => Promise.all(deliveries).then(() => undefined),
    reset() {
      intents.clear();
      refunds.clear();
      accounts.clear();
      externalAccounts.clear();
      transfers.clear();
      payouts.clear();
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
