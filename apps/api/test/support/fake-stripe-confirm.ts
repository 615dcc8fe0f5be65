/*
 * The part of the fake Stripe that confirms PaymentIntents on the server (decision 040): Stripe.js
 * turns the Payment Element into a ConfirmationToken (`POST /v1/confirmation_tokens`, publishable
 * key), the API reads it (`GET /v1/confirmation_tokens/:id`), may change the intent's amount
 * (`POST /v1/payment_intents/:id`), then confirms with it (`POST /v1/payment_intents/:id/confirm`).
 * Test payment methods carry the issuing country Stripe's test cards have; a declined card answers
 * 402 as Stripe does, and one that needs 3-D Secure leaves the intent in requires_action until the
 * fake's stand-in for the challenge (`POST /v1/payment_intents/:id/fake_authenticate`) settles it.
 */

export const PUBLISHABLE_KEY = "pk_test_fake_publishable_4242";

/** Stripe's test PaymentMethods this fake knows, with their card's issuing country. */
export const fakeStripeCards: Readonly<
  Record<string, { country: string; brand: string; last4: string; outcome?: "declined" | "authenticate" }>
> = {
  pm_card_visa: { country: "US", brand: "visa", last4: "4242" },
  pm_card_fr: { country: "FR", brand: "visa", last4: "0003" },
  pm_card_de: { country: "DE", brand: "visa", last4: "0016" },
  pm_card_hu: { country: "HU", brand: "visa", last4: "0005" },
  pm_card_chargeDeclined: { country: "US", brand: "visa", last4: "0002", outcome: "declined" },
  pm_card_authenticationRequired: { country: "DE", brand: "visa", last4: "3184", outcome: "authenticate" },
};

interface StripeErrorBody {
  type: string;
  message: string;
  code?: string;
  decline_code?: string;
  payment_intent?: unknown;
}
type Result = { status: number; body: unknown };
type Params = Record<string, string>;

export interface ConfirmDeps {
  intents: Map<string, Record<string, unknown>>;
  nextId(prefix: string): string;
  stripeError(status: number, error: StripeErrorBody): Result;
  missing(what: string, id: string | undefined): Result;
  /** Sends an event as Stripe's webhook would (and records it). */
  deliver(type: string, object: Record<string, unknown>): void;
}

const now = () => Math.floor(Date.now() / 1000);
/** A ConfirmationToken is single-use and expires after 15 minutes, as Stripe's. */
const TOKEN_LIFETIME_SECONDS = 15 * 60;

export function confirmationRoutes(deps: ConfirmDeps) {
  const tokens = new Map<string, Record<string, unknown>>();
  const { intents, stripeError, missing } = deps;

  const createToken = (params: Params): Result => {
    const card = fakeStripeCards[params.payment_method ?? ""];
    if (!card)
      return stripeError(400, {
        type: "invalid_request_error",
        code: "resource_missing",
        message: `No such PaymentMethod: '${params.payment_method ?? ""}'`,
      });
    const token = {
      id: deps.nextId("ctoken"),
      object: "confirmation_token",
      created: now(),
      expires_at: now() + TOKEN_LIFETIME_SECONDS,
      livemode: false,
      payment_intent: null,
      payment_method: null,
      payment_method_preview: {
        type: "card",
        billing_details: { email: params["payment_method_data[billing_details][email]"] ?? null },
        card: { brand: card.brand, country: card.country, last4: card.last4, funding: "credit" },
      },
      return_url: params.return_url ?? null,
      // The fake's own note of which test card the token stands for.
      _payment_method: params.payment_method,
    };
    tokens.set(token.id, token);
    return { status: 200, body: publicToken(token) };
  };

  const settle = (intent: Record<string, unknown>, outcome: "succeeded" | "declined" | "auth-failed") => {
    if (outcome === "succeeded") {
      Object.assign(intent, {
        status: "succeeded",
        amount_received: intent.amount,
        next_action: null,
        last_payment_error: null,
        latest_charge: deps.nextId("ch"),
      });
      deps.deliver("payment_intent.succeeded", intent);
      return;
    }
    const error =
      outcome === "declined"
        ? {
            type: "card_error",
            code: "card_declined",
            decline_code: "generic_decline",
            message: "Your card was declined.",
          }
        : {
            type: "card_error",
            code: "payment_intent_authentication_failure",
            message:
              "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
          };
    Object.assign(intent, {
      status: "requires_payment_method",
      next_action: null,
      last_payment_error: error,
    });
    deps.deliver("payment_intent.payment_failed", intent);
  };

  const confirm = (intentId: string, params: Params): Result => {
    const intent = intents.get(intentId);
    if (!intent) return missing("payment_intent", intentId);
    const token = tokens.get(params.confirmation_token ?? "");
    if (!token) return missing("confirmation_token", params.confirmation_token);
    if (token.payment_intent !== null && token.payment_intent !== intentId)
      return stripeError(400, {
        type: "invalid_request_error",
        code: "confirmation_token_already_used",
        message: "This ConfirmationToken has already been used.",
      });
    if (Number(token.expires_at) < now())
      return stripeError(400, {
        type: "invalid_request_error",
        code: "confirmation_token_expired",
        message: "This ConfirmationToken has expired.",
      });
    if (intent.status !== "requires_payment_method" && intent.status !== "requires_confirmation")
      return stripeError(400, {
        type: "invalid_request_error",
        code: "payment_intent_unexpected_state",
        message: `This PaymentIntent's status is ${String(intent.status)}.`,
      });
    const pm = String(token._payment_method);
    token.payment_intent = intentId;
    intent.payment_method = `${pm}_${intentId}`;
    const card = fakeStripeCards[pm];
    if (card?.outcome === "declined") {
      settle(intent, "declined");
      return stripeError(402, { ...(intent.last_payment_error as StripeErrorBody), payment_intent: intent });
    }
    if (card?.outcome === "authenticate") {
      Object.assign(intent, { status: "requires_action", next_action: { type: "use_stripe_sdk" } });
      return { status: 200, body: intent };
    }
    settle(intent, "succeeded");
    return { status: 200, body: intent };
  };

  const update = (intentId: string, params: Params): Result => {
    const intent = intents.get(intentId);
    if (!intent) return missing("payment_intent", intentId);
    if (intent.status !== "requires_payment_method" && intent.status !== "requires_confirmation")
      return stripeError(400, {
        type: "invalid_request_error",
        code: "payment_intent_unexpected_state",
        message: `You cannot update this PaymentIntent because it has a status of ${String(intent.status)}`,
      });
    if (params.amount !== undefined) {
      const amount = Number(params.amount);
      if (!Number.isInteger(amount) || amount < 1)
        return stripeError(400, { type: "invalid_request_error", message: "Invalid integer: amount" });
      intent.amount = amount;
    }
    return { status: 200, body: intent };
  };

  /** What handleNextAction does in the buyer's browser: the fake completes or fails the challenge. */
  const authenticate = (intentId: string, params: Params): Result => {
    const intent = intents.get(intentId);
    if (!intent || intent.client_secret !== params.client_secret) return missing("payment_intent", intentId);
    if (intent.status !== "requires_action")
      return stripeError(400, {
        type: "invalid_request_error",
        code: "payment_intent_unexpected_state",
        message: "This PaymentIntent does not require an action.",
      });
    settle(intent, params.approve === "false" ? "auth-failed" : "succeeded");
    return { status: 200, body: intent };
  };

  return {
    tokens,
    /** Routes Stripe.js calls with the publishable key. */
    isPublic: (route: string) =>
      route === "POST /v1/confirmation_tokens" ||
      /^POST \/v1\/payment_intents\/[^/]+\/fake_authenticate$/.test(route),
    handle(route: string, params: Params): Result | null {
      if (route === "POST /v1/confirmation_tokens" || route === "POST /v1/test_helpers/confirmation_tokens")
        return createToken(params);
      const read = /^GET \/v1\/confirmation_tokens\/([^/]+)$/.exec(route);
      if (read?.[1]) {
        const token = tokens.get(decodeURIComponent(read[1]));
        return token ? { status: 200, body: publicToken(token) } : missing("confirmation_token", read[1]);
      }
      const intentRoute = /^POST \/v1\/payment_intents\/([^/]+)(\/confirm|\/fake_authenticate)?$/.exec(route);
      if (intentRoute?.[1]) {
        const id = decodeURIComponent(intentRoute[1]);
        if (intentRoute[2] === "/confirm") return confirm(id, params);
        if (intentRoute[2] === "/fake_authenticate") return authenticate(id, params);
        return update(id, params);
      }
      return null;
    },
  };
}

function publicToken(token: Record<string, unknown>) {
  const { _payment_method: _, ...rest } = token;
  return rest;
}
