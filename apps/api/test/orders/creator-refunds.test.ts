import type { CheckoutResponse, CheckoutStatus, SaleView } from "@salelink/contracts";
import { and, eq, like, or } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerEntries, ledgerTransactions, orderRefunds, orders } from "../../src/db/schema/index.ts";
import { askRefund, askRefundAgain } from "../../src/modules/orders/refunds/service.ts";
import { releaseHoldsAsOf } from "../../src/modules/orders/service.ts";
import { auditLedger, balancesOf } from "../../src/modules/wallet/ledger.ts";
import { StripeRequestError } from "../../src/providers/payments/stripe.ts";
import type { PaymentProvider } from "../../src/providers/payments/types.ts";
import { accountWithSession, errorOf, lastMail, mailsTo, uniqueEmail } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

/*
 * Refunds by the creator (issue 21, decision 037): full or partial, within the link's window, with
 * a reason; the provider's event reverses the sale in proportion, once.
 */

let ctx: TestContext;
let creator: { id: string; cookie: string };
const helpers = checkoutHelpers(() => ctx);
const { call, checkout, pay } = helpers;
const runJobs = () => ctx.app.services.jobs.worker.runDue();
const reason = "The file was corrupted for this buyer.";

beforeAll(async () => {
  ctx = await testApp();
  creator = await accountWithSession(ctx.database, { onboarded: true });
});
afterAll(() => ctx?.close());

async function paidSale(priceMinor = 2000) {
  const link = await helpers.newLink(creator.cookie, { priceMinor, title: "Refundable pack" });
  const buyer = uniqueEmail("buyer");
  const started = (await checkout(link.token, { email: buyer })).json<CheckoutResponse>();
  await pay(started);
  const outcome = (
    await call("GET", `/checkout/${started.orderId}?secret=${started.checkoutSecret}`)
  ).json<CheckoutStatus>();
  expect(outcome.status).toBe("paid");
  return { link, buyer, orderId: started.orderId, token: outcome.orderToken ?? "" };
}

const sale = async (orderId: string, cookie = creator.cookie) =>
  call("GET", `/sales/${orderId}`, undefined, cookie);
const refund = (orderId: string, body: object, cookie = creator.cookie) =>
  call("POST", `/sales/${orderId}/refunds`, body, cookie);

/** What the order's ledger transactions add up to, per account (the sale and its reversals). */
async function orderNet(orderId: string): Promise<Record<string, number>> {
  const rows = await ctx.database.db
    .select({ account: ledgerEntries.account, amount: ledgerEntries.amountMinor })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(or(eq(ledgerTransactions.reference, orderId), like(ledgerTransactions.reference, `${orderId}:%`)));
  const net: Record<string, number> = {};
  for (const r of rows) net[r.account] = (net[r.account] ?? 0) + r.amount;
  return Object.fromEntries(Object.entries(net).filter(([, v]) => v !== 0));
}

const cleanLedger = { unbalancedTransactions: [], balancesNotMatchingEntries: [], negativeBalances: [] };

describe(`refunds by the creator (${dbKind})`, () => {
  it("refunds half, then the rest: in proportion, the buyer told each time, the files closed at the end", async () => {
    const sold = await paidSale(2001);
    const before = (await sale(sold.orderId)).json<SaleView>();
    expect(before).toMatchObject({
      status: "paid",
      totalMinor: 2001,
      refundedMinor: 0,
      refundableMinor: 2001,
    });
    expect(new Date(before.refundableUntil ?? 0).getTime() - new Date(before.paidAt ?? 0).getTime()).toBe(
      30 * 86_400_000,
    );

    const asked = await refund(sold.orderId, { amountMinor: 1000, reason });
    expect(asked.statusCode, asked.body).toBe(202);
    // Under way: nothing more can be asked until the provider answers.
    expect((await sale(sold.orderId)).json<SaleView>()).toMatchObject({
      refundableMinor: 0,
      refunds: [{ amountMinor: 1000, reason, by: "creator", status: "asked" }],
    });
    expect((await refund(sold.orderId, { amountMinor: 1, reason })).statusCode).toBe(409);
    await runJobs();

    const half = (await sale(sold.orderId)).json<SaleView>();
    expect(half).toMatchObject({ status: "paid", refundedMinor: 1000, refundableMinor: 1001 });
    expect(half.refunds[0]).toMatchObject({ status: "succeeded" });
    // The buyer keeps the content and is told the amount and the creator's reason.
    expect((await call("GET", `/orders/${sold.token}`)).json()).toMatchObject({ status: "paid" });
    const mail = await lastMail(ctx, sold.buyer, "order-refunded");
    expect(mail.text).toContain(reason);
    expect(mail.text).toMatch(/10,00|10\.00/);
    // Half the sale went back: the fee (200 of 2001) and the creator's net each by half, rounded.
    const [row] = await ctx.database.db.select().from(orders).where(eq(orders.id, sold.orderId));
    expect(row).toMatchObject({ refundedMinor: 1000, refundedFeeMinor: 100, refundedNetMinor: 900 });
    expect(await orderNet(sold.orderId)).toEqual({ provider: -1001, pending: 901, platform_fees: 100 });

    // Asked past what is left: a field error, in the asker's words.
    const tooMuch = await refund(sold.orderId, { amountMinor: 1002, reason });
    expect(tooMuch.statusCode).toBe(400);
    expect(errorOf(tooMuch).errors?.amountMinor?.[0]).toContain("10.01");

    expect((await refund(sold.orderId, { amountMinor: 1001, reason: "The rest, too." })).statusCode).toBe(
      202,
    );
    await runJobs();
    const all = (await sale(sold.orderId)).json<SaleView>();
    expect(all).toMatchObject({ status: "refunded", refundedMinor: 2001, refundableMinor: 0 });
    expect(await orderNet(sold.orderId)).toEqual({});
    expect((await call("GET", `/orders/${sold.token}`)).json()).toMatchObject({
      status: "refunded",
      files: [],
    });
    expect((await mailsTo(ctx, sold.buyer)).filter((m) => m.template === "order-refunded")).toHaveLength(2);
    expect(await auditLedger(ctx.database.db)).toEqual(cleanLedger);
  });

  it("after the hold, takes a partial refund from the available balance", async () => {
    const other = await accountWithSession(ctx.database, { onboarded: true });
    const link = await helpers.newLink(other.cookie, { priceMinor: 3000 });
    const started = (await checkout(link.token, { email: uniqueEmail("buyer") })).json<CheckoutResponse>();
    await pay(started);
    await releaseHoldsAsOf(ctx.database.db, new Date(Date.now() + 8 * 86_400_000), [started.orderId]);
    const available = async () =>
      (await balancesOf(ctx.database.db, other.id)).find((b) => b.account === "available")?.balanceMinor ?? 0;
    expect(await available()).toBe(2700);

    expect((await refund(started.orderId, { amountMinor: 1500, reason }, other.cookie)).statusCode).toBe(202);
    await runJobs();
    expect(await available()).toBe(1350);
    expect(await orderNet(started.orderId)).toEqual({ provider: -1500, available: 1350, platform_fees: 150 });
    expect(await auditLedger(ctx.database.db)).toEqual(cleanLedger);
  });

  it("refuses another creator's sale, an unpaid one, a closed window, and bad input", async () => {
    const sold = await paidSale();
    const stranger = await accountWithSession(ctx.database, { onboarded: true });
    expect((await sale(sold.orderId, stranger.cookie)).statusCode).toBe(404);
    expect((await refund(sold.orderId, { amountMinor: 100, reason }, stranger.cookie)).statusCode).toBe(404);
    expect((await call("GET", `/sales/${sold.orderId}`)).statusCode).toBe(401);
    for (const body of [
      { amountMinor: 0, reason },
      { amountMinor: 100, reason: " " },
      { amountMinor: 1.5, reason },
    ]) {
      expect((await refund(sold.orderId, body)).statusCode).toBe(400);
    }

    // The window fixed on this sale is over (0 days: no refunds by the creator).
    await ctx.database.db.update(orders).set({ refundWindowDays: 0 }).where(eq(orders.id, sold.orderId));
    expect((await sale(sold.orderId)).json<SaleView>()).toMatchObject({ refundableMinor: 0 });
    const closed = await refund(sold.orderId, { amountMinor: 100, reason });
    expect(closed.statusCode).toBe(409);
    expect(errorOf(closed).message).toBe("The refund window of this sale is over.");

    const pending = (
      await checkout((await helpers.newLink(creator.cookie)).token, { email: uniqueEmail("buyer") })
    ).json<CheckoutResponse>();
    expect((await refund(pending.orderId, { amountMinor: 100, reason })).statusCode).toBe(409);
  });

  it("lets one of two concurrent asks through", async () => {
    const sold = await paidSale();
    const asks = await Promise.all([
      refund(sold.orderId, { amountMinor: 500, reason }),
      refund(sold.orderId, { amountMinor: 700, reason }),
    ]);
    expect(asks.map((r) => r.statusCode).sort()).toEqual([202, 409]);
    await runJobs();
    const [row] = await ctx.database.db.select().from(orders).where(eq(orders.id, sold.orderId));
    expect([500, 700]).toContain(row?.refundedMinor);
  });

  it("a provider's refusal ends the refund and moves nothing; a hiccup is asked again by the job", async () => {
    const sold = await paidSale();
    const sandbox = ctx.app.services.payments;
    const refusing: PaymentProvider = {
      ...sandbox,
      kind: "sandbox",
      createPayment: (input) => sandbox.createPayment(input),
      parseWebhook: (raw, headers) => sandbox.parseWebhook(raw, headers),
      refund: async () => {
        throw new StripeRequestError("charge_already_refunded", { retryable: false, statusCode: 400 });
      },
    };
    const deps = { db: ctx.database.db, config: ctx.config, payments: refusing, pokeJobs: () => {} };
    const ask = {
      by: "creator" as const,
      creatorId: creator.id,
      amountMinor: 800,
      reason,
      locale: "en" as const,
    };
    await expect(askRefund(deps, sold.orderId, ask)).rejects.toMatchObject({ statusCode: 502 });
    const [failed] = await ctx.database.db
      .select()
      .from(orderRefunds)
      .where(eq(orderRefunds.orderId, sold.orderId));
    expect(failed).toMatchObject({ status: "failed", failure: "charge_already_refunded" });
    await runJobs();
    expect(await orderNet(sold.orderId)).toMatchObject({ provider: -2000 });
    expect((await sale(sold.orderId)).json<SaleView>().refundableMinor).toBe(2000);

    // A network error: the refund stays under way, and the job's second ask goes through.
    const flaky: PaymentProvider = {
      ...refusing,
      refund: async () => {
        throw new StripeRequestError("socket hang up", { retryable: true });
      },
    };
    const id = await askRefund({ ...deps, payments: flaky }, sold.orderId, ask);
    await runJobs();
    expect((await sale(sold.orderId)).json<SaleView>()).toMatchObject({
      refundedMinor: 0,
      refundableMinor: 0,
    });
    await ctx.database.db.transaction((tx) => askRefundAgain(tx, sandbox, id));
    await runJobs();
    expect((await sale(sold.orderId)).json<SaleView>()).toMatchObject({ refundedMinor: 800 });
    const rows = await ctx.database.db
      .select({ status: orderRefunds.status })
      .from(orderRefunds)
      .where(and(eq(orderRefunds.orderId, sold.orderId), eq(orderRefunds.id, id)));
    expect(rows).toEqual([{ status: "succeeded" }]);
    expect(await auditLedger(ctx.database.db)).toEqual(cleanLedger);
  });

  it("applies a provider's refund totals once, whatever their order of delivery", async () => {
    const sold = await paidSale();
    const [row] = await ctx.database.db.select().from(orders).where(eq(orders.id, sold.orderId));
    const paymentId = row?.providerPaymentId ?? "";
    const { deliverSandboxEvent } = await import("../support/checkout.ts");
    const { sandboxEvent } = await import("../../src/providers/payments/sandbox/provider.ts");
    const event = (amountMinor: number) =>
      sandboxEvent("refund.succeeded", { paymentId, orderId: sold.orderId, amountMinor, currency: "EUR" });
    // Made in the provider's dashboard: 600, then 1,000 in all; the second arrives first.
    expect((await deliverSandboxEvent(ctx, event(1000))).statusCode).toBe(200);
    expect((await deliverSandboxEvent(ctx, event(600))).statusCode).toBe(200);
    expect((await deliverSandboxEvent(ctx, event(1000))).statusCode).toBe(200);
    const [after] = await ctx.database.db.select().from(orders).where(eq(orders.id, sold.orderId));
    expect(after).toMatchObject({ status: "paid", refundedMinor: 1000 });
    expect((await deliverSandboxEvent(ctx, event(2000))).statusCode).toBe(200);
    expect(await orderNet(sold.orderId)).toEqual({});
    expect(await auditLedger(ctx.database.db)).toEqual(cleanLedger);
  });
});
