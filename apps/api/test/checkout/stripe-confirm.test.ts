import type { CheckoutConfirmResult, CheckoutResponse } from "@salelink/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ledgerEntries, ledgerTransactions, links, orders } from "../../src/db/schema/index.ts";
import { accountWithSession, errorOf, uniqueEmail } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";
import { PUBLISHABLE_KEY } from "../support/fake-stripe.ts";
import {
  deliverFakeStripeEvents,
  type FakeStripe,
  stripePaymentsApp,
  confirmationToken as tokenOf,
} from "../support/stripe-payments.ts";

/*
 * Decision 040: with Stripe, the API confirms the payment itself. The card's issuing country is read
 * from the buyer's ConfirmationToken before anything is charged (issue 22's second piece of VAT
 * evidence), the buyer is asked when it contradicts the billing country, the PaymentIntent's amount
 * follows the VAT, and the same token is the one confirmed. Against a local fake Stripe.
 */

const WEBHOOK_SECRET = "whsec_fake_confirm_secret";
let fake: FakeStripe;
let ctx: TestContext;
let creator: { id: string; cookie: string };
const helpers = checkoutHelpers(() => ctx);

beforeAll(async () => {
  ({ fake, ctx } = await stripePaymentsApp(WEBHOOK_SECRET, {
    CHECKOUT_RESERVATIONS_PER_ADDRESS_MAX: "1000",
  }));
  creator = await accountWithSession(ctx.database, { onboarded: true });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.events.length = 0;
});

/** A €20 link whose price excludes VAT: the total depends on the country. */
async function exclusiveLink() {
  const made = await helpers.newLink(creator.cookie, { priceMinor: 2000 });
  await ctx.database.db.update(links).set({ pricesIncludeVat: false }).where(eq(links.id, made.id));
  return made;
}

async function start(billingCountry = "FR"): Promise<CheckoutResponse> {
  const link = await exclusiveLink();
  const res = await helpers.checkout(link.token, { email: uniqueEmail("stripe-buyer"), billingCountry });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CheckoutResponse>();
}

const confirmationToken = (paymentMethod: string) => tokenOf(fake, paymentMethod);

const confirm = (
  started: CheckoutResponse,
  token: string,
  country?: string,
  secret = started.checkoutSecret,
) =>
  helpers.call("POST", `/checkout/${started.orderId}/confirm`, {
    secret,
    confirmationToken: token,
    ...(country ? { country } : {}),
  });

const deliverEvents = () => deliverFakeStripeEvents(ctx, fake, WEBHOOK_SECRET);

async function orderOf(started: CheckoutResponse) {
  const [order] = await ctx.database.db.select().from(orders).where(eq(orders.id, started.orderId));
  if (!order) throw new Error("no order");
  return order;
}

const confirmCalls = () => fake.requests.filter((r) => r.path.endsWith("/confirm"));

describe("Stripe payments confirmed on the server, with the card's country as VAT evidence", () => {
  it("a French buyer with a French card pays France's VAT, and the two pieces of evidence are kept", async () => {
    const started = await start("FR");
    expect(started.total).toBe(2400);
    const res = await confirm(started, await confirmationToken("pm_card_fr"));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<CheckoutConfirmResult>()).toMatchObject({ status: "succeeded", total: 2400 });
    expect(fake.intents.get(started.paymentId)).toMatchObject({ amount: 2400, amount_received: 2400 });

    await deliverEvents();
    const order = await orderOf(started);
    expect(order).toMatchObject({ status: "paid", vatCountry: "FR", vatRateBps: 2000, vatMinor: 400 });
    expect(order.vatEvidence).toMatchObject({ billingCountry: "FR", cardCountry: "FR" });
  });

  it("asks before charging when the card is German and the address French, then charges Germany's VAT", async () => {
    const started = await start("FR");
    const token = await confirmationToken("pm_card_de");
    const asked = await confirm(started, token);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json<CheckoutConfirmResult>()).toMatchObject({
      status: "needs_country",
      countries: { billing: "FR", card: "DE" },
      total: 2400,
    });
    // Nothing was charged, nor the amount touched.
    expect(confirmCalls().filter((r) => r.path.includes(started.paymentId))).toHaveLength(0);
    expect(fake.intents.get(started.paymentId)).toMatchObject({
      amount: 2400,
      status: "requires_payment_method",
    });

    const outsider = await confirm(started, token, "IT");
    expect(outsider.statusCode).toBe(400);

    const answered = await confirm(started, token, "DE");
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json<CheckoutConfirmResult>()).toMatchObject({
      status: "succeeded",
      total: 2380,
      vat: { country: "DE", rateBps: 1900, vatMinor: 380 },
    });
    // The amount was changed before the confirmation, and what was taken is the new one.
    expect(fake.intents.get(started.paymentId)).toMatchObject({ amount: 2380, amount_received: 2380 });

    await deliverEvents();
    const order = await orderOf(started);
    expect(order).toMatchObject({ status: "paid", totalMinor: 2380, vatCountry: "DE", vatMinor: 380 });
    expect(order.vatEvidence).toMatchObject({
      billingCountry: "FR",
      cardCountry: "DE",
      decidedCountry: "DE",
      decision: "buyer-confirmed",
    });
    const posted = await ctx.database.db
      .select({ account: ledgerEntries.account, amount: ledgerEntries.amountMinor })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(
        and(eq(ledgerTransactions.kind, "order_paid"), eq(ledgerTransactions.reference, started.orderId)),
      );
    expect(Object.fromEntries(posted.map((p) => [p.account, p.amount]))).toMatchObject({ vat_DE: 380 });
  });

  it("a declined card says so in the buyer's language; another card then pays the same checkout", async () => {
    // Stripe's declined test card is American, as is the buyer: no VAT and nothing to ask.
    const started = await start("US");
    const declined = await helpers.call("POST", `/checkout/${started.orderId}/confirm`, {
      secret: started.checkoutSecret,
      confirmationToken: await confirmationToken("pm_card_chargeDeclined"),
    });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json<CheckoutConfirmResult>()).toMatchObject({
      status: "declined",
      message: "Your card was declined. Try another card or contact your bank.",
    });
    await deliverEvents();
    expect((await orderOf(started)).status).toBe("failed");

    const retried = await confirm(started, await confirmationToken("pm_card_visa"));
    expect(retried.json<CheckoutConfirmResult>().status, retried.body).toBe("succeeded");
    await deliverEvents();
    expect(await orderOf(started)).toMatchObject({ status: "paid", vatScheme: "outside", totalMinor: 2000 });
  });

  it("3-D Secure: requires_action, then the challenge completes the payment", async () => {
    const started = await start("DE");
    const res = await confirm(started, await confirmationToken("pm_card_authenticationRequired"));
    expect(res.json<CheckoutConfirmResult>().status, res.body).toBe("requires_action");
    await deliverEvents();
    expect((await orderOf(started)).status).toBe("pending");

    const challenge = await fetch(`${fake.url}/v1/payment_intents/${started.paymentId}/fake_authenticate`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ key: PUBLISHABLE_KEY, client_secret: started.clientSecret ?? "" }),
    });
    expect(challenge.status).toBe(200);
    await deliverEvents();
    expect(await orderOf(started)).toMatchObject({ status: "paid", vatCountry: "DE", totalMinor: 2380 });
  });

  it("a token sent twice is one confirmation; an unknown token is the buyer's to enter again", async () => {
    const started = await start("FR");
    const token = await confirmationToken("pm_card_fr");
    expect((await confirm(started, token)).json<CheckoutConfirmResult>().status).toBe("succeeded");
    expect((await confirm(started, token)).json<CheckoutConfirmResult>().status).toBe("succeeded");
    expect(fake.events.filter((e) => e.type === "payment_intent.succeeded")).toHaveLength(1);

    const other = await start("FR");
    const unknown = await confirm(other, "ctoken_doesnotexist");
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(unknown).message).toBe("Your payment details have expired. Please enter them again.");
  });

  it("answers 404 for a wrong checkout secret, and 409 once the checkout is paid and refunded", async () => {
    const started = await start("FR");
    const token = await confirmationToken("pm_card_fr");
    const wrong = await confirm(started, token, undefined, "x".repeat(43));
    expect(wrong.statusCode).toBe(404);
    expect(fake.requests.filter((r) => r.path === `/v1/confirmation_tokens/${token}`)).toHaveLength(0);

    await ctx.database.db.update(orders).set({ status: "refunded" }).where(eq(orders.id, started.orderId));
    const ended = await confirm(started, token);
    expect(ended.statusCode).toBe(409);
  });

  it("refuses the route when payments are the sandbox's (its own card form asks the country)", async () => {
    const sandbox = await testApp();
    try {
      const sandboxCreator = await accountWithSession(sandbox.database, { onboarded: true });
      const sandboxHelpers = checkoutHelpers(() => sandbox);
      const link = await sandboxHelpers.newLink(sandboxCreator.cookie);
      const started = (
        await sandboxHelpers.checkout(link.token, { billingCountry: "FR" })
      ).json<CheckoutResponse>();
      const res = await sandboxHelpers.call("POST", `/checkout/${started.orderId}/confirm`, {
        secret: started.checkoutSecret,
        confirmationToken: "ctoken_any",
      });
      expect(res.statusCode).toBe(409);
    } finally {
      await sandbox.close();
    }
  });
});
