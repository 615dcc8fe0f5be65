import { randomBytes } from "node:crypto";
import { type CheckoutResponse, type CreatorProfile, type Link, sandboxCards } from "@salelink/contracts";
import { expect } from "vitest";
import { sandboxWebhookSecret, signPayload } from "../../src/providers/payments/index.ts";
import type { TestContext } from "./app.ts";

/**
 * A webhook delivery of `event` as the sandbox signs it, `secondsAgo` in the past (the signature's
 * time tolerance), with the app's secret unless another is given.
 */
export function deliverSandboxEvent(
  ctx: TestContext,
  event: unknown,
  { secondsAgo = 0, secret = sandboxWebhookSecret(ctx.config.appSecret) } = {},
) {
  const raw = JSON.stringify(event);
  return ctx.app.inject({
    method: "POST",
    url: "/webhooks/sandbox",
    headers: {
      "content-type": "application/json",
      "sandbox-signature": signPayload(raw, secret, Math.floor(Date.now() / 1000) - secondsAgo),
    },
    payload: raw,
  });
}

/** A Stripe webhook delivery of `event`, signed now with the endpoint's secret (`STRIPE_WEBHOOK_SECRET`). */
export function deliverStripeEvent(ctx: TestContext, event: unknown, secret: string) {
  const raw = JSON.stringify(event);
  return ctx.app.inject({
    method: "POST",
    url: "/webhooks/stripe",
    headers: {
      "content-type": "application/json",
      "stripe-signature": signPayload(raw, secret, Math.floor(Date.now() / 1000)),
    },
    payload: raw,
  });
}

/** A creator's link, a buyer's checkout and a sandbox payment, through the API as clients do it. */
export function checkoutHelpers(context: () => TestContext) {
  const call = (method: "GET" | "POST" | "PATCH", url: string, payload?: object, cookie?: string) =>
    context().app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      ...(cookie ? { headers: { cookie } } : {}),
    });

  async function newLink(cookie: string, extra: object = {}): Promise<Link> {
    const handle = `h_${randomBytes(5).toString("hex")}`;
    const profile = (
      await call("POST", "/profiles", { displayName: "Ada", handle }, cookie)
    ).json<CreatorProfile>();
    const res = await call(
      "POST",
      "/links",
      { profileId: profile.id, title: "Sunset pack", priceMinor: 2000, currency: "EUR", ...extra },
      cookie,
    );
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Link>();
  }

  const checkout = (token: string, extra: object = {}) =>
    call("POST", "/stripe/checkout", { token, email: "buyer@example.test", locale: "fr", ...extra });

  async function pay(started: CheckoutResponse, card: string = sandboxCards.success) {
    const res = await call("POST", `/sandbox/payments/${started.paymentId}/confirm`, {
      card,
      expiry: "12/34",
      cvc: "123",
    });
    expect(res.statusCode, res.body).toBe(200);
    await context().app.services.jobs.worker.runDue();
    return res.json<{ status: string; message?: string }>();
  }

  /** A link bought and paid: answers the checkout. */
  async function sale(cookie: string, extra: object = {}): Promise<CheckoutResponse> {
    const started = (await checkout((await newLink(cookie, extra)).token)).json<CheckoutResponse>();
    await pay(started);
    return started;
  }

  return { call, newLink, checkout, pay, sale };
}
