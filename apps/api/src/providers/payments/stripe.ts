import Stripe from "stripe";
import type { PaymentsEnv } from "./env.ts";
import { DEFAULT_TOLERANCE_SECONDS } from "./signature.ts";
import { toProviderEvent } from "./stripe-events.ts";
import {
  type CreatedPayment,
  type CreatePaymentInput,
  type DisputeEvidence,
  type PaymentProvider,
  type ProviderEvent,
  type ServerConfirmation,
  type ServerConfirmedPayments,
  WebhookSignatureError,
} from "./types.ts";

/** Stripe's own default is 80 s: far longer than a buyer waits on the checkout button. */
const DEFAULT_TIMEOUT_MS = 15_000;
/**
 * The SDK retries twice by default. We keep one retry (it replays with the same idempotency key, so
 * it is harmless) and leave anything more to our own retry policy, which knows what the call is for.
 */
const DEFAULT_MAX_NETWORK_RETRIES = 1;

export interface StripeOptions {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Stripe's API address; only set to talk to a local fake (tests). */
  apiUrl?: string;
  /** Seconds a webhook's signature timestamp may be older than now. */
  toleranceSeconds?: number;
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

export function stripeOptions(env: PaymentsEnv): StripeOptions {
  // paymentsEnvSchema already requires them; checked again so a half-built env fails loudly here
  // instead of becoming a client with an empty key.
  if (!env.STRIPE_SECRET_KEY || !env.STRIPE_PUBLISHABLE_KEY || !env.STRIPE_WEBHOOK_SECRET)
    throw new Error(
      "STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET are required when PAYMENT_PROVIDER is stripe",
    );
  return {
    secretKey: env.STRIPE_SECRET_KEY,
    publishableKey: env.STRIPE_PUBLISHABLE_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET,
    apiUrl: env.STRIPE_API_URL,
    toleranceSeconds: env.PAYMENT_WEBHOOK_TOLERANCE_SECONDS,
  };
}

/**
 * A failed call to Stripe's API, with a message that is safe to log (never the secret key) and no
 * reference to the SDK's error, whose fields we do not control.
 */
export class StripeRequestError extends Error {
  /** True for what may succeed when retried with the same idempotency key: network, 409, 429, 5xx. */
  readonly retryable: boolean;
  readonly statusCode?: number;
  /** Stripe's error code (card_declined, resource_missing…), when it sent one. */
  readonly code?: string;
  readonly requestId?: string;

  constructor(
    message: string,
    details: { retryable: boolean; statusCode?: number; code?: string; requestId?: string },
  ) {
    super(message);
    this.name = "StripeRequestError";
    this.retryable = details.retryable;
    this.statusCode = details.statusCode;
    this.code = details.code;
    this.requestId = details.requestId;
  }
}

/** Stripe with PaymentIntents and Stripe.js's Payment Element (automatic payment methods). */
export class StripePaymentProvider implements PaymentProvider {
  readonly kind = "stripe" as const;
  readonly publishableKey: string;
  readonly serverConfirmation: ServerConfirmedPayments = {
    readConfirmation: (token) => this.#readConfirmation(token),
    confirmPayment: (input) => this.#confirmPayment(input),
  };
  readonly #client: Stripe;
  readonly #secretKey: string;
  readonly #webhookSecret: string;
  readonly #toleranceSeconds: number;

  constructor(options: StripeOptions) {
    this.publishableKey = options.publishableKey;
    this.#secretKey = options.secretKey;
    this.#webhookSecret = options.webhookSecret;
    this.#toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    this.#client = new Stripe(options.secretKey, {
      maxNetworkRetries: options.maxNetworkRetries ?? DEFAULT_MAX_NETWORK_RETRIES,
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      ...(options.apiUrl ? apiAddress(options.apiUrl) : {}),
    });
  }

  async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
    const intent = await this.#call(() =>
      this.#client.paymentIntents.create(
        {
          amount: input.amountMinor,
          currency: input.currency.toLowerCase(),
          receipt_email: input.buyerEmail,
          description: input.description,
          metadata: { orderId: input.orderId },
          automatic_payment_methods: { enabled: true },
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    return {
      paymentId: intent.id,
      ...(intent.client_secret ? { clientSecret: intent.client_secret } : {}),
    };
  }

  parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): ProviderEvent | null {
    return toProviderEvent(
      constructStripeEvent(this.#client, rawBody, headers, this.#webhookSecret, this.#toleranceSeconds),
    );
  }

  async refund(input: { paymentId: string; amountMinor: number; idempotencyKey: string }): Promise<void> {
    await this.#call(() =>
      this.#client.refunds.create(
        { payment_intent: input.paymentId, amount: input.amountMinor },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
  }

  async submitDisputeEvidence(input: {
    disputeId: string;
    evidence: DisputeEvidence;
    idempotencyKey: string;
  }): Promise<void> {
    // `submit: true` is Stripe's default too; said aloud because a submission is final.
    await this.#call(() =>
      this.#client.disputes.update(
        input.disputeId,
        { evidence: stripeEvidence(input.evidence), submit: true },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
  }

  /** A ConfirmationToken made by Stripe.js from the Payment Element (finalize payments on the server). */
  async #readConfirmation(token: string): Promise<{ cardCountry: string | null }> {
    const confirmation = await this.#call(() => this.#client.confirmationTokens.retrieve(token));
    const preview = confirmation.payment_method_preview;
    // A card's issuing country; a SEPA debit's bank country is the same kind of evidence.
    const country = preview?.card?.country ?? preview?.sepa_debit?.country ?? null;
    return { cardCountry: country ? country.toUpperCase() : null };
  }

  async #confirmPayment(input: {
    paymentId: string;
    token: string;
    amountMinor: number;
    idempotencyKey: string;
  }): Promise<ServerConfirmation> {
    // Always set: a retry after a failure between the two calls must not charge a stale amount. The
    // key names the amount, so the same attempt replays and a changed amount is a new update.
    await this.#call(() =>
      this.#client.paymentIntents.update(
        input.paymentId,
        { amount: input.amountMinor },
        { idempotencyKey: `${input.idempotencyKey}:amount:${input.amountMinor}` },
      ),
    );
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.#client.paymentIntents.confirm(
        input.paymentId,
        { confirmation_token: input.token },
        { idempotencyKey: input.idempotencyKey },
      );
    } catch (error) {
      // A refused card is an answer for the buyer, not a failure of ours.
      if (error instanceof Stripe.errors.StripeCardError)
        return { status: "declined", code: error.code ?? null };
      throw toRequestError(error, this.#secretKey);
    }
    if (intent.status === "succeeded") return { status: "succeeded" };
    if (intent.status === "processing") return { status: "processing" };
    if (intent.status === "requires_action") return { status: "requires_action" };
    return { status: "declined", code: intent.last_payment_error?.code ?? null };
  }

  async #call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw toRequestError(error, this.#secretKey);
    }
  }
}

export function apiAddress(apiUrl: string): { host: string; port: number; protocol: "http" | "https" } {
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === "http" ? 80 : 443,
    protocol,
  };
}

/**
 * A Stripe webhook delivery, verified by the SDK over the raw body (signature and timestamp within
 * the tolerance); throws WebhookSignatureError when it is not authentic. Payments and Connect
 * payouts share it.
 */
export function constructStripeEvent(
  client: Stripe,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  secret: string,
  toleranceSeconds: number,
): Stripe.Event {
  const header = headers["stripe-signature"];
  // The headers' type allows arrays (for set-cookie); the SDK throws a plain Error on one, and a
  // missing or repeated signature is an inauthentic delivery like any other.
  if (typeof header !== "string" || header === "")
    throw new WebhookSignatureError("No single stripe-signature header");
  try {
    return client.webhooks.constructEvent(rawBody, header, secret, toleranceSeconds);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError)
      throw new WebhookSignatureError(error.message);
    throw error;
  }
}

/** Our evidence in Stripe's field names; a field we do not have is left out, not sent empty. */
function stripeEvidence(evidence: DisputeEvidence): Stripe.DisputeUpdateParams.Evidence {
  return {
    product_description: evidence.productDescription,
    customer_email_address: evidence.customerEmailAddress,
    ...(evidence.customerName !== undefined ? { customer_name: evidence.customerName } : {}),
    ...(evidence.billingAddress !== undefined ? { billing_address: evidence.billingAddress } : {}),
    access_activity_log: evidence.accessActivityLog,
    refund_policy_disclosure: evidence.refundPolicyDisclosure,
    service_date: evidence.serviceDate,
    uncategorized_text: evidence.uncategorizedText,
  };
}

function toRequestError(error: unknown, secretKey: string): StripeRequestError {
  // Stripe masks keys in its own messages, but a proxy or an SDK change might not: the secret is
  // removed from whatever we pass on, since these messages end up in logs.
  const safe = (text: string) => text.split(secretKey).join("[redacted]");
  if (!(error instanceof Stripe.errors.StripeError)) {
    const message = error instanceof Error ? error.message : String(error);
    return new StripeRequestError(safe(`Stripe request failed: ${message}`), { retryable: false });
  }
  const statusCode = error.statusCode;
  const details = { statusCode, code: error.code, requestId: error.requestId };
  if (error instanceof Stripe.errors.StripeConnectionError)
    return new StripeRequestError(safe(`Could not reach Stripe: ${error.message}`), {
      ...details,
      retryable: true,
    });
  const retryable = statusCode === undefined || statusCode === 409 || statusCode === 429 || statusCode >= 500;
  const what = [error.rawType ?? error.type, error.code, error.decline_code].filter(Boolean).join("/");
  return new StripeRequestError(
    safe(
      `Stripe refused the request${statusCode ? ` (${statusCode} ${what})` : ` (${what})`}: ${error.message}`,
    ),
    { ...details, retryable },
  );
}
