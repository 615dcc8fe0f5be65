import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { paymentsEnvSchema } from "../../src/providers/payments/env.ts";
import { signPayload } from "../../src/providers/payments/signature.ts";
import {
  StripePaymentProvider,
  StripeRequestError,
  stripeOptions,
} from "../../src/providers/payments/stripe.ts";
import { WebhookSignatureError } from "../../src/providers/payments/types.ts";
import { SECRET_KEY, startFakeStripe } from "../support/fake-stripe.ts";

const PUBLISHABLE_KEY = "pk_test_fake_publishable";
const WEBHOOK_SECRET = "whsec_fake_webhook_secret";
const ORDER_ID = "5f0b7c8e-3d0a-4c1e-9a57-2b1c6f9d8e10";

let fake: Awaited<ReturnType<typeof startFakeStripe>>;
let stripe: StripePaymentProvider;

function stripeProvider(overrides: Record<string, string> = {}): StripePaymentProvider {
  const env = paymentsEnvSchema.parse({
    PAYMENT_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: fake.url,
    ...overrides,
  });
  return new StripePaymentProvider(stripeOptions(env));
}

const checkout = {
  orderId: ORDER_ID,
  amountMinor: 2500,
  currency: "EUR" as const,
  buyerEmail: "buyer@example.com",
  description: "Order 5f0b7c8e: Album « été »",
  idempotencyKey: `order-${ORDER_ID}`,
};

const now = () => Math.floor(Date.now() / 1000);

function delivery(event: unknown, options: { timestamp?: number; secret?: string } = {}) {
  const body = Buffer.from(JSON.stringify(event));
  const header = signPayload(body, options.secret ?? WEBHOOK_SECRET, options.timestamp ?? now());
  return { body, headers: { "stripe-signature": header, "content-type": "application/json" } };
}

function stripeEvent(type: string, object: Record<string, unknown>, created = 1_767_225_600) {
  return {
    id: `evt_${randomBytes(8).toString("hex")}`,
    object: "event",
    api_version: "2026-01-28.clover",
    created,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

function intentObject(overrides: Record<string, unknown> = {}) {
  return {
    id: "pi_3Qevent",
    object: "payment_intent",
    amount: 2500,
    amount_received: 2500,
    currency: "eur",
    status: "succeeded",
    metadata: { orderId: ORDER_ID },
    last_payment_error: null,
    ...overrides,
  };
}

function chargeObject(overrides: Record<string, unknown> = {}) {
  return {
    id: "ch_3Qevent",
    object: "charge",
    amount: 2500,
    amount_refunded: 2500,
    refunded: true,
    currency: "gbp",
    payment_intent: "pi_3Qevent",
    metadata: { orderId: ORDER_ID },
    ...overrides,
  };
}

beforeAll(async () => {
  fake = await startFakeStripe();
  stripe = stripeProvider();
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => fake.reset());

describe("the Stripe provider's API calls, against a local fake Stripe", () => {
  it("creates a PaymentIntent with the amount, currency, metadata and idempotency key", async () => {
    expect(stripe.kind).toBe("stripe");
    expect(stripe.publishableKey).toBe(PUBLISHABLE_KEY);

    const created = await stripe.createPayment(checkout);

    const intent = fake.intents.get(created.paymentId);
    expect(intent).toBeDefined();
    expect(created).toEqual({ paymentId: intent?.id, clientSecret: intent?.client_secret });
    expect(created.clientSecret).toMatch(new RegExp(`^${created.paymentId}_secret_`));
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toEqual({
      method: "POST",
      path: "/v1/payment_intents",
      authorization: `Bearer ${SECRET_KEY}`,
      idempotencyKey: checkout.idempotencyKey,
      params: {
        amount: "2500",
        currency: "eur",
        receipt_email: "buyer@example.com",
        description: "Order 5f0b7c8e: Album « été »",
        "metadata[orderId]": ORDER_ID,
        "automatic_payment_methods[enabled]": "true",
      },
    });
  });

  it("answers the same intent for the same idempotency key, and a new one for another key", async () => {
    const first = await stripe.createPayment(checkout);
    const again = await stripe.createPayment(checkout);
    expect(again).toEqual(first);
    expect(fake.intents.size).toBe(1);

    const other = await stripe.createPayment({ ...checkout, idempotencyKey: "order-other" });
    expect(other.paymentId).not.toBe(first.paymentId);
    expect(fake.intents.size).toBe(2);
  });

  it("surfaces a reused idempotency key with other parameters as a non-retryable error", async () => {
    await stripe.createPayment(checkout);
    const error = await stripe.createPayment({ ...checkout, amountMinor: 9900 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StripeRequestError);
    expect(error).toMatchObject({ retryable: false, statusCode: 400 });
    expect((error as Error).message).toMatch(/idempotency_error.*same parameters/);
  });

  it("surfaces a card error as a clear, non-retryable error, without retrying it", async () => {
    fake.failures.push({
      status: 402,
      error: {
        type: "card_error",
        code: "card_declined",
        decline_code: "insufficient_funds",
        message: "Your card has insufficient funds.",
      },
    });
    const error = await stripe.createPayment(checkout).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StripeRequestError);
    expect(error).toMatchObject({ retryable: false, statusCode: 402, code: "card_declined" });
    expect((error as Error).message).toBe(
      "Stripe refused the request (402 card_error/card_declined/insufficient_funds): Your card has insufficient funds.",
    );
    expect(JSON.stringify(error)).not.toContain(SECRET_KEY);
    expect(fake.requests).toHaveLength(1);
  });

  it("retries a 5xx once with the same idempotency key, then reports it as retryable", async () => {
    const outage = {
      status: 500,
      error: { type: "api_error", message: "Something went wrong on Stripe's end." },
    };
    fake.failures.push(outage, outage, outage);
    const error = await stripe.createPayment(checkout).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StripeRequestError);
    expect(error).toMatchObject({ retryable: true, statusCode: 500 });
    expect((error as Error).message).not.toContain(SECRET_KEY);
    expect(fake.requests.map((r) => r.idempotencyKey)).toEqual([
      checkout.idempotencyKey,
      checkout.idempotencyKey,
    ]);
  });

  it("reports an unreachable Stripe as a retryable error that names no key", async () => {
    const closed = await startFakeStripe();
    await closed.close();
    const offline = stripeProvider({ STRIPE_API_URL: closed.url });
    const error = await offline.createPayment(checkout).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StripeRequestError);
    expect(error).toMatchObject({ retryable: true });
    expect((error as Error).message).toMatch(/^Could not reach Stripe/);
    expect((error as Error).message).not.toContain(SECRET_KEY);
  });

  it("never passes the secret key on, even when the other side echoes it", async () => {
    const wrongKey = "sk_test_wrong_key_that_must_not_leak";
    const intruder = new StripePaymentProvider({
      ...stripeOptions(
        paymentsEnvSchema.parse({
          PAYMENT_PROVIDER: "stripe",
          STRIPE_SECRET_KEY: wrongKey,
          STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
          STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
          STRIPE_API_URL: fake.url,
        }),
      ),
    });
    const error = await intruder.createPayment(checkout).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StripeRequestError);
    expect(error).toMatchObject({ retryable: false, statusCode: 401 });
    expect((error as Error).message).toContain("Invalid API Key provided: [redacted]");
    expect(`${(error as Error).message} ${(error as Error).stack} ${JSON.stringify(error)}`).not.toContain(
      wrongKey,
    );
    expect(fake.intents.size).toBe(0);
  });

  it("refunds by payment_intent and amount with the idempotency key, once per key", async () => {
    const { paymentId } = await stripe.createPayment(checkout);
    fake.requests.length = 0;

    const refund = { paymentId, amountMinor: 2500, idempotencyKey: `refund-${ORDER_ID}` };
    await stripe.refund(refund);
    await stripe.refund(refund);

    expect(fake.requests).toHaveLength(2);
    for (const request of fake.requests) {
      expect(request).toEqual({
        method: "POST",
        path: "/v1/refunds",
        authorization: `Bearer ${SECRET_KEY}`,
        idempotencyKey: `refund-${ORDER_ID}`,
        params: { payment_intent: paymentId, amount: "2500" },
      });
    }
    expect([...fake.refunds.values()]).toEqual([
      expect.objectContaining({ payment_intent: paymentId, amount: 2500, status: "succeeded" }),
    ]);
  });

  it("surfaces a refund of an unknown payment as a non-retryable error", async () => {
    await expect(
      stripe.refund({ paymentId: "pi_unknown", amountMinor: 100, idempotencyKey: "refund-unknown" }),
    ).rejects.toMatchObject({
      name: "StripeRequestError",
      retryable: false,
      statusCode: 404,
      code: "resource_missing",
      message: expect.stringContaining("No such payment_intent: 'pi_unknown'"),
    });
  });
});

describe("the Stripe provider's webhooks", () => {
  it("maps payment_intent.succeeded, verified with the webhook secret", () => {
    const event = stripeEvent("payment_intent.succeeded", intentObject());
    const { body, headers } = delivery(event);
    expect(stripe.parseWebhook(body, headers)).toEqual({
      id: event.id,
      type: "payment.succeeded",
      paymentId: "pi_3Qevent",
      orderId: ORDER_ID,
      amountMinor: 2500,
      currency: "EUR",
      createdAt: new Date("2026-01-01T00:00:00Z"),
      raw: event,
    });
  });

  it("maps payment_intent.payment_failed with the failure's message, or its code", () => {
    const declined = stripeEvent(
      "payment_intent.payment_failed",
      intentObject({
        status: "requires_payment_method",
        amount_received: 0,
        currency: "usd",
        last_payment_error: { type: "card_error", code: "card_declined", message: "Your card was declined." },
      }),
    );
    const parsed = stripe.parseWebhook(delivery(declined).body, delivery(declined).headers);
    expect(parsed).toMatchObject({
      id: declined.id,
      type: "payment.failed",
      paymentId: "pi_3Qevent",
      orderId: ORDER_ID,
      amountMinor: 2500,
      currency: "USD",
      failureReason: "Your card was declined.",
    });

    const codeOnly = stripeEvent(
      "payment_intent.payment_failed",
      intentObject({ last_payment_error: { type: "card_error", code: "expired_card" }, metadata: {} }),
    );
    expect(stripe.parseWebhook(delivery(codeOnly).body, delivery(codeOnly).headers)).toMatchObject({
      failureReason: "expired_card",
      orderId: null,
    });
  });

  it("maps a full charge.refunded to refund.succeeded, by the charge's payment intent", () => {
    const refunded = stripeEvent("charge.refunded", chargeObject());
    expect(stripe.parseWebhook(delivery(refunded).body, delivery(refunded).headers)).toEqual({
      id: refunded.id,
      type: "refund.succeeded",
      paymentId: "pi_3Qevent",
      orderId: ORDER_ID,
      amountMinor: 2500,
      currency: "GBP",
      createdAt: new Date("2026-01-01T00:00:00Z"),
      raw: refunded,
    });

    const withoutMetadata = stripeEvent("charge.refunded", chargeObject({ metadata: {} }));
    expect(
      stripe.parseWebhook(delivery(withoutMetadata).body, delivery(withoutMetadata).headers),
    ).toMatchObject({ type: "refund.succeeded", orderId: null });
  });

  it("maps a partial charge.refunded to what the charge's refunds add up to (issue 21)", () => {
    const partial = stripeEvent("charge.refunded", chargeObject({ amount_refunded: 1000, refunded: false }));
    expect(stripe.parseWebhook(delivery(partial).body, delivery(partial).headers)).toMatchObject({
      type: "refund.succeeded",
      paymentId: "pi_3Qevent",
      amountMinor: 1000,
    });
  });

  it("ignores charges without a payment intent or a refund, and other event types", () => {
    for (const event of [
      stripeEvent("charge.refunded", chargeObject({ amount_refunded: 0, refunded: false })),
      stripeEvent("charge.refunded", chargeObject({ payment_intent: null })),
      stripeEvent("payment_intent.created", intentObject({ status: "requires_payment_method" })),
      stripeEvent("charge.succeeded", chargeObject({ refunded: false, amount_refunded: 0 })),
      stripeEvent("customer.created", { id: "cus_1", object: "customer" }),
    ]) {
      const { body, headers } = delivery(event);
      expect(stripe.parseWebhook(body, headers)).toBeNull();
    }
  });

  it("refuses an authentic event in a currency we do not sell in, or with a fractional amount", () => {
    const yen = stripeEvent("payment_intent.succeeded", intentObject({ currency: "jpy" }));
    expect(() => stripe.parseWebhook(delivery(yen).body, delivery(yen).headers)).toThrow(
      /currency we do not sell in: jpy/,
    );
    const fractional = stripeEvent("payment_intent.succeeded", intentObject({ amount_received: 25.5 }));
    expect(() => stripe.parseWebhook(delivery(fractional).body, delivery(fractional).headers)).toThrow(
      /invalid amount/,
    );
  });

  it("refuses a wrong signature, a tampered body, a missing or repeated header", () => {
    const event = stripeEvent("payment_intent.succeeded", intentObject());
    const forged = delivery(event, { secret: "whsec_someone_else" });
    expect(() => stripe.parseWebhook(forged.body, forged.headers)).toThrow(WebhookSignatureError);

    const genuine = delivery(event);
    const tampered = Buffer.from(genuine.body.toString().replace('"amount":2500', '"amount":1'));
    expect(() => stripe.parseWebhook(tampered, genuine.headers)).toThrow(WebhookSignatureError);

    expect(() => stripe.parseWebhook(genuine.body, {})).toThrow(WebhookSignatureError);
    expect(() => stripe.parseWebhook(genuine.body, { "stripe-signature": "" })).toThrow(
      WebhookSignatureError,
    );
    expect(() => stripe.parseWebhook(genuine.body, { "stripe-signature": "t=1,v2=abc" })).toThrow(
      WebhookSignatureError,
    );
    const header = genuine.headers["stripe-signature"];
    expect(() => stripe.parseWebhook(genuine.body, { "stripe-signature": [header, header] })).toThrow(
      WebhookSignatureError,
    );
  });

  it("refuses a timestamp older than the tolerance, from the environment", () => {
    const event = stripeEvent("payment_intent.succeeded", intentObject());
    const recent = delivery(event, { timestamp: now() - 290 });
    expect(stripe.parseWebhook(recent.body, recent.headers)).not.toBeNull();
    const stale = delivery(event, { timestamp: now() - 310 });
    expect(() => stripe.parseWebhook(stale.body, stale.headers)).toThrow(WebhookSignatureError);

    const strict = stripeProvider({ PAYMENT_WEBHOOK_TOLERANCE_SECONDS: "60" });
    const minuteOld = delivery(event, { timestamp: now() - 90 });
    expect(() => strict.parseWebhook(minuteOld.body, minuteOld.headers)).toThrow(WebhookSignatureError);
    expect(stripe.parseWebhook(minuteOld.body, minuteOld.headers)).not.toBeNull();
  });
});
