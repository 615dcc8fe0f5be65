import { randomBytes } from "node:crypto";
import { type CheckoutResponse, type CheckoutStatus, sandboxCards } from "@salelink/contracts";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  jobs,
  ledgerEntries,
  ledgerTransactions,
  linkStockUnits,
  links,
  mailOutbox,
  orders,
  promoCodes,
  sandboxPayments,
} from "../../src/db/schema/index.ts";
import { auditLedger, balancesOf } from "../../src/modules/wallet/ledger.ts";
import {
  paymentsEnvSchema,
  StripePaymentProvider,
  sandboxEvent,
} from "../../src/providers/payments/index.ts";
import { stripeOptions } from "../../src/providers/payments/stripe.ts";
import { accountWithSession, directSessionCookie, insertAccount } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers, deliverSandboxEvent, deliverStripeEvent } from "../support/checkout.ts";
import { SECRET_KEY, startFakeStripe } from "../support/fake-stripe.ts";

/*
 * Issue 16, item 3 (oversell): a payment that succeeds for an order that can no longer be fulfilled
 * (a declined card retried after the last unit was sold, a reservation that ended and was resold, a
 * capped promo code's last use taken meanwhile) is never a sale: it is refunded through the provider,
 * recorded in the ledger, and the buyer is told in their language.
 */

let ctx: TestContext;
let creator: { id: string; cookie: string };
const helpers = checkoutHelpers(() => ctx);
const { call, checkout, pay } = helpers;
const newLink = (extra: object = {}) => helpers.newLink(creator.cookie, extra);
const runJobs = () => ctx.app.services.jobs.worker.runDue();

const start = async (token: string, email: string, extra: object = {}) => {
  const res = await checkout(token, { email, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CheckoutResponse>();
};
const status = async (started: CheckoutResponse) =>
  (await call("GET", `/checkout/${started.orderId}?secret=${started.checkoutSecret}`)).json<CheckoutStatus>();
const salesOf = async (linkId: string) =>
  (await ctx.database.db.select({ n: links.salesCount }).from(links).where(eq(links.id, linkId)))[0]?.n;
const pending = async () =>
  (await balancesOf(ctx.database.db, creator.id)).find((b) => b.account === "pending")?.balanceMinor ?? 0;

/** The platform's account of a currency, from its entries (platform accounts keep no running row). */
async function platformAccount(account: "provider" | "buyer_refunds" | "platform_fees") {
  const [row] = await ctx.database.db
    .select({ sum: sql<string>`coalesce(sum(${ledgerEntries.amountMinor}), 0)` })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.account, account), eq(ledgerEntries.currency, "EUR")));
  return Number(row?.sum ?? 0);
}

async function ledgerIsSound() {
  expect(await auditLedger(ctx.database.db)).toEqual({
    unbalancedTransactions: [],
    balancesNotMatchingEntries: [],
    negativeBalances: [],
  });
}

/** The unfulfilled payment's ledger: one transaction in, one for the refund, both for this order only. */
async function postingsOf(orderId: string) {
  const rows = await ctx.database.db
    .select({ kind: ledgerTransactions.kind })
    .from(ledgerTransactions)
    .where(eq(ledgerTransactions.reference, orderId));
  return rows.map((r) => r.kind).sort();
}

async function mailsTo(email: string) {
  const res = await ctx.app.inject({ url: `/dev/mail?to=${encodeURIComponent(email)}` });
  return res.json<{ messages: { subject: string; template: string; locale: string }[] }>().messages;
}

/** The sandbox's own record of a payment: refunded once the provider gave the money back. */
async function sandboxStatus(paymentId: string) {
  const [row] = await ctx.database.db
    .select({ status: sandboxPayments.status })
    .from(sandboxPayments)
    .where(eq(sandboxPayments.id, paymentId));
  return row?.status;
}

beforeAll(async () => {
  // One test address makes every checkout here: the per-address cap is checkout/squatting.test.ts's.
  ctx = await testApp({ HOLD_DAYS: "7", CHECKOUT_RESERVATIONS_PER_ADDRESS_MAX: "1000" });
  creator = await accountWithSession(ctx.database, { onboarded: true });
});
afterAll(() => ctx?.close());

/** Checks the whole outcome of an unfulfilled payment, after its jobs ran. */
async function expectRefunded(
  started: CheckoutResponse,
  reason: "sold-out" | "promo-used-up",
  email: string,
) {
  expect(await status(started)).toMatchObject({ status: "failed", failureReason: reason, orderToken: null });
  const [order] = await ctx.database.db.select().from(orders).where(eq(orders.id, started.orderId));
  expect(order?.refundedAt).not.toBeNull();
  expect(order?.paidAt).toBeNull();
  expect(order?.feeMinor).toBeNull();
  expect(await sandboxStatus(started.paymentId)).toBe("refunded");
  expect(await postingsOf(started.orderId)).toEqual(["payment_unfulfilled", "unfulfilled_refund"]);
  // In the buyer's language (checkout's locale: fr), without a link to an order that is not theirs.
  const mail = (await mailsTo(email)).find((m) => m.template === "order-unfulfilled");
  expect(mail).toMatchObject({ locale: "fr", subject: "Votre paiement pour Sunset pack est remboursé" });
  const [sent] = await ctx.database.db
    .select({ text: mailOutbox.text })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, email), eq(mailOutbox.template, "order-unfulfilled")));
  expect(sent?.text).toContain(reason === "sold-out" ? "a été épuisé" : "Le code promo");
  expect(sent?.text).toContain(reason === "sold-out" ? "20,00" : "18,00");
}

describe("a payment for an order that can no longer be fulfilled", () => {
  it("declined, then retried after the last unit was sold: refunded, never a second sale", async () => {
    const link = await newLink({ stockLimit: 1 });
    const first = await start(link.token, "first-buyer@example.test");
    expect((await pay(first, sandboxCards.declined)).status).toBe("declined");
    const second = await start(link.token, "second-buyer@example.test");
    await pay(second);
    expect((await status(second)).status).toBe("paid");
    const pendingBefore = await pending();
    const providerBefore = await platformAccount("provider");

    // The sandbox lets the declined payment be paid again: it goes through at the provider.
    expect(await pay(first)).toEqual({ status: "succeeded" });
    await runJobs();

    expect(await salesOf(link.id)).toBe(1);
    await expectRefunded(first, "sold-out", "first-buyer@example.test");
    // Not a sale for the creator: no balance, no fee; the money came in and went back out.
    expect(await pending()).toBe(pendingBefore);
    expect(await platformAccount("provider")).toBe(providerBefore);
    expect(await platformAccount("buyer_refunds")).toBe(0);
    const sales = await call("GET", `/links/${link.id}`, undefined, creator.cookie);
    expect(sales.json<{ salesCount: number }>().salesCount).toBe(1);
    await ledgerIsSound();
  });

  it("two successes at once for a stock of 1: exactly one sale, the other refunded", async () => {
    const link = await newLink({ stockLimit: 1 });
    const late = await start(link.token, "late@example.test");
    expect((await pay(late, sandboxCards.declined)).status).toBe("declined");
    const holder = await start(link.token, "holder@example.test");
    const succeeded = (s: CheckoutResponse) =>
      sandboxEvent("payment.succeeded", {
        paymentId: s.paymentId,
        orderId: s.orderId,
        amountMinor: 2000,
        currency: "EUR",
      });
    // Both reach the webhook together, as Stripe may deliver them.
    const answers = await Promise.all([
      deliverSandboxEvent(ctx, succeeded(late)),
      deliverSandboxEvent(ctx, succeeded(holder)),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    await runJobs();
    expect(await salesOf(link.id)).toBe(1);
    expect((await status(holder)).status).toBe("paid");
    await expectRefunded(late, "sold-out", "late@example.test");
    await ledgerIsSound();
  });

  it("a promo code capped at 1 is never used twice", async () => {
    const link = await newLink();
    const created = await call(
      "POST",
      "/promo-codes",
      { kind: "percent", value: 10, code: "ONCE10", usageLimit: 1 },
      creator.cookie,
    );
    expect(created.statusCode, created.body).toBe(201);
    const first = await start(link.token, "code-first@example.test", { promoCode: "ONCE10" });
    expect((await pay(first, sandboxCards.declined)).status).toBe("declined");
    const second = await start(link.token, "code-second@example.test", { promoCode: "ONCE10" });
    await pay(second);
    expect((await status(second)).status).toBe("paid");

    expect(await pay(first)).toEqual({ status: "succeeded" });
    await runJobs();
    const [code] = await ctx.database.db
      .select({ used: promoCodes.usedCount })
      .from(promoCodes)
      .where(eq(promoCodes.code, "ONCE10"));
    expect(code?.used).toBe(1);
    expect(await salesOf(link.id)).toBe(1);
    await expectRefunded(first, "promo-used-up", "code-first@example.test");
    await ledgerIsSound();
  });

  it("a reservation that ended, its unit resold, then the old checkout pays: refunded", async () => {
    const link = await newLink({ stockLimit: 1 });
    const old = await start(link.token, "slow@example.test");
    // The reservation ends (CHECKOUT_RESERVATION_MINUTES, 10 by default) without a payment.
    await ctx.database.db
      .update(orders)
      .set({ createdAt: sql`now() - interval '11 minutes'` })
      .where(eq(orders.id, old.orderId));
    await ctx.database.db
      .update(linkStockUnits)
      .set({ heldUntil: sql`now() - interval '1 minute'` })
      .where(eq(linkStockUnits.orderId, old.orderId));
    const resold = await start(link.token, "fast@example.test");
    await pay(resold);
    expect((await status(resold)).status).toBe("paid");

    await pay(old);
    expect(await salesOf(link.id)).toBe(1);
    await expectRefunded(old, "sold-out", "slow@example.test");
    await ledgerIsSound();
  });

  it("a reservation that ended still pays when its unit is free", async () => {
    const link = await newLink({ stockLimit: 1 });
    const old = await start(link.token, "patient@example.test");
    await ctx.database.db
      .update(orders)
      .set({ createdAt: sql`now() - interval '11 minutes'` })
      .where(eq(orders.id, old.orderId));
    await ctx.database.db
      .update(linkStockUnits)
      .set({ heldUntil: sql`now() - interval '1 minute'` })
      .where(eq(linkStockUnits.orderId, old.orderId));
    await pay(old);
    expect((await status(old)).status).toBe("paid");
    expect(await salesOf(link.id)).toBe(1);
  });
});

describe("the automatic refund when the provider refuses it", () => {
  it("is retried by its job, and nothing is half-written meanwhile", async () => {
    const link = await newLink({ stockLimit: 1 });
    const first = await start(link.token, "refused@example.test");
    expect((await pay(first, sandboxCards.declined)).status).toBe("declined");
    await pay(await start(link.token, "winner@example.test"));

    const { payments } = ctx.app.services;
    const realRefund = payments.refund.bind(payments);
    // The provider records the refund, then the call fails (a timeout after the write): twice.
    const refuse = vi.spyOn(payments, "refund").mockImplementation(async (input, db) => {
      await realRefund(input, db);
      throw new Error("The provider refused the refund");
    });
    try {
      expect(await pay(first)).toEqual({ status: "succeeded" });
      await runJobs();
      expect(refuse).toHaveBeenCalledTimes(1);
      const job = async () =>
        (
          await ctx.database.db
            .select({ status: jobs.status, attempts: jobs.attempts, lastError: jobs.lastError })
            .from(jobs)
            .where(eq(jobs.dedupeKey, `unfulfilled-refund:${first.orderId}`))
        )[0];
      expect(await job()).toMatchObject({ status: "queued", attempts: 1 });
      // Nothing of the refund is recorded: the order, the ledger and the sandbox's payment as before.
      const [order] = await ctx.database.db.select().from(orders).where(eq(orders.id, first.orderId));
      expect(order).toMatchObject({ status: "failed", failureReason: "sold-out", refundedAt: null });
      expect(await postingsOf(first.orderId)).toEqual(["payment_unfulfilled"]);
      expect(await sandboxStatus(first.paymentId)).toBe("succeeded");
      expect(await platformAccount("buyer_refunds")).toBe(2000);
      await ledgerIsSound();

      // The provider agrees at the next attempt (made due at once instead of after its backoff).
      refuse.mockRestore();
      await ctx.database.db
        .update(jobs)
        .set({ runAt: sql`now()` })
        .where(eq(jobs.dedupeKey, `unfulfilled-refund:${first.orderId}`));
      await runJobs();
      expect(await job()).toMatchObject({ status: "done" });
      await expectRefunded(first, "sold-out", "refused@example.test");
      expect(await platformAccount("buyer_refunds")).toBe(0);
      await ledgerIsSound();
    } finally {
      refuse.mockRestore();
    }
  });
});

describe("the automatic refund through Stripe (a local fake Stripe)", () => {
  const WEBHOOK_SECRET = "whsec_fake_oversell_secret";
  let fake: Awaited<ReturnType<typeof startFakeStripe>>;
  let app: TestContext;
  const stripeHelpers = checkoutHelpers(() => app);

  beforeAll(async () => {
    fake = await startFakeStripe();
    const env = paymentsEnvSchema.parse({
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_PUBLISHABLE_KEY: "pk_test_fake_publishable",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: fake.url,
    });
    app = await testApp({ CHECKOUT_RESERVATIONS_PER_ADDRESS_MAX: "1000" }, undefined, {
      payments: new StripePaymentProvider(stripeOptions(env)),
    });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  /** Stripe's webhook delivery of an event on a checkout's PaymentIntent. */
  async function stripeDelivers(
    type: string,
    started: CheckoutResponse,
    object: Record<string, unknown> = {},
  ) {
    const event = {
      id: `evt_${randomBytes(8).toString("hex")}`,
      object: "event",
      api_version: "2026-01-28.clover",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: started.paymentId,
          object: "payment_intent",
          amount: 2000,
          amount_received: 2000,
          currency: "eur",
          status: "succeeded",
          metadata: { orderId: started.orderId },
          last_payment_error: null,
          ...object,
        },
      },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    const res = await deliverStripeEvent(app, event, WEBHOOK_SECRET);
    expect(res.statusCode, res.body).toBe(200);
  }

  it("refunds a late success by its PaymentIntent, once, retrying while Stripe refuses", async () => {
    const seller = await insertAccount(app.database, { onboarded: true });
    const link = await stripeHelpers.newLink(await directSessionCookie(app.database, seller.id), {
      stockLimit: 1,
    });
    const begin = async (email: string) => {
      const res = await stripeHelpers.checkout(link.token, { email });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<CheckoutResponse>();
    };
    const late = await begin("late-stripe@example.test");
    await stripeDelivers("payment_intent.payment_failed", late, {
      status: "requires_payment_method",
      amount_received: 0,
      last_payment_error: { type: "card_error", code: "card_declined", message: "Your card was declined." },
    });
    const winner = await begin("winner-stripe@example.test");
    await stripeDelivers("payment_intent.succeeded", winner);
    // The buyer retried the declined intent with another card: Stripe took the money.
    fake.failures.push({ status: 400, error: { type: "invalid_request_error", message: "Refund refused" } });
    await stripeDelivers("payment_intent.succeeded", late);
    await app.app.services.jobs.worker.runDue();

    const orderOf = async (id: string) =>
      (await app.database.db.select().from(orders).where(eq(orders.id, id)))[0];
    expect(await orderOf(winner.orderId)).toMatchObject({ status: "paid" });
    expect(await orderOf(late.orderId)).toMatchObject({
      status: "failed",
      failureReason: "sold-out",
      refundedAt: null,
    });
    expect(fake.refunds.size).toBe(0);

    await app.database.db
      .update(jobs)
      .set({ runAt: sql`now()` })
      .where(eq(jobs.dedupeKey, `unfulfilled-refund:${late.orderId}`));
    await app.app.services.jobs.worker.runDue();
    expect([...fake.refunds.values()]).toEqual([
      expect.objectContaining({ payment_intent: late.paymentId, amount: 2000 }),
    ]);
    const refundCalls = fake.requests.filter((r) => r.path === "/v1/refunds");
    expect(refundCalls.map((r) => r.idempotencyKey)).toEqual([
      `refund-${late.orderId}`,
      `refund-${late.orderId}`,
    ]);
    expect((await orderOf(late.orderId))?.refundedAt).not.toBeNull();
    const [link2] = await app.database.db
      .select({ n: links.salesCount })
      .from(links)
      .where(eq(links.id, link.id));
    expect(link2?.n).toBe(1);
    expect(await auditLedger(app.database.db)).toEqual({
      unbalancedTransactions: [],
      balancesNotMatchingEntries: [],
      negativeBalances: [],
    });
  });
});
