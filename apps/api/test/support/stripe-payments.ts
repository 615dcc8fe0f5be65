import { expect } from "vitest";
import { paymentsEnvSchema } from "../../src/providers/payments/env.ts";
import { StripePaymentProvider, stripeOptions } from "../../src/providers/payments/stripe.ts";
import { type TestContext, testApp } from "./app.ts";
import { deliverStripeEvent } from "./checkout.ts";
import { PUBLISHABLE_KEY, SECRET_KEY, startFakeStripe } from "./fake-stripe.ts";

/* The API taking payments through Stripe, against a local fake Stripe (decision 040, issue 32). */

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

/** A fake Stripe and an app whose payments go to it, its webhook signed with `webhookSecret`. */
export async function stripePaymentsApp(
  webhookSecret: string,
  settings: Record<string, string> = {},
): Promise<{ fake: FakeStripe; ctx: TestContext }> {
  const fake = await startFakeStripe();
  const env = paymentsEnvSchema.parse({
    PAYMENT_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_URL: fake.url,
  });
  const ctx = await testApp(settings, undefined, { payments: new StripePaymentProvider(stripeOptions(env)) });
  return { fake, ctx };
}

/** What Stripe.js does in the buyer's browser: the Payment Element's details as a ConfirmationToken. */
export async function confirmationToken(fake: FakeStripe, paymentMethod: string): Promise<string> {
  const res = await fetch(`${fake.url}/v1/confirmation_tokens`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${PUBLISHABLE_KEY}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ payment_method: paymentMethod, return_url: "http://localhost/back" }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/** Stripe's webhook deliveries of every event the fake sent so far, then the jobs they queue. */
export async function deliverFakeStripeEvents(ctx: TestContext, fake: FakeStripe, webhookSecret: string) {
  for (const event of fake.events.splice(0)) {
    const res = await deliverStripeEvent(ctx, event, webhookSecret);
    expect(res.statusCode, res.body).toBe(200);
  }
  await ctx.app.services.jobs.worker.runDue();
}
