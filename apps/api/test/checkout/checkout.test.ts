import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type CheckoutResponse, type CheckoutStatus, sandboxCards } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  campaigns,
  jobs,
  links,
  orders,
  paymentEvents,
  promoCodes,
  users,
} from "../../src/db/schema/index.ts";
import { auditLedger, balancesOf, post } from "../../src/modules/wallet/ledger.ts";
import { payoutRequested } from "../../src/modules/wallet/payout-postings.ts";
import { commissionClaimed } from "../../src/modules/wallet/postings.ts";
import { sandboxEvent } from "../../src/providers/payments/index.ts";
import { accountWithSession, directSessionCookie, errorOf, insertAccount } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers, deliverSandboxEvent } from "../support/checkout.ts";
import { multipart } from "../support/uploads.ts";

let ctx: TestContext;
let creator: { id: string; cookie: string };

const runJobs = () => ctx.app.services.jobs.worker.runDue();

const helpers = checkoutHelpers(() => ctx);
const { call, checkout, pay } = helpers;
const newLink = (extra: object = {}) => helpers.newLink(creator.cookie, extra);

const status = async (started: CheckoutResponse) =>
  (await call("GET", `/checkout/${started.orderId}?secret=${started.checkoutSecret}`)).json<CheckoutStatus>();

async function balance(holder: string, account: string) {
  return (await balancesOf(ctx.database.db, holder)).find((b) => b.account === account)?.balanceMinor ?? 0;
}

/** A webhook delivery as the sandbox signs it. */
const delivery = (event: ReturnType<typeof sandboxEvent>, secondsAgo = 0, secret?: string) =>
  deliverSandboxEvent(ctx, event, { secondsAgo, ...(secret ? { secret } : {}) });

let uploadsDir: string;

beforeAll(async () => {
  uploadsDir = mkdtempSync(path.join(os.tmpdir(), "salelink-checkout-test-"));
  // 200 buyers from one test address: the per-address reservation cap is not what this file tests.
  ctx = await testApp({
    HOLD_DAYS: "7",
    UPLOADS_DIR: uploadsDir,
    CHECKOUT_RESERVATIONS_PER_ADDRESS_MAX: "1000",
  });
  creator = await accountWithSession(ctx.database, { onboarded: true });
});
afterAll(async () => {
  await ctx.close();
  rmSync(uploadsDir, { recursive: true, force: true });
});

describe("checkout with the sandbox", () => {
  it("prices on the server, pays with the success card, posts the sale once and e-mails the receipt", async () => {
    const link = await newLink();
    await call("POST", "/promo-codes", { kind: "percent", value: 25, code: "SUMMER25" }, creator.cookie);
    const res = await checkout(link.token, { promoCode: "summer25", total: 1 });
    expect(res.statusCode, res.body).toBe(201);
    const started = res.json<CheckoutResponse>();
    expect(started).toMatchObject({ provider: "sandbox", total: 1500, currency: "EUR" });
    expect((await status(started)).status).toBe("pending");

    expect(await pay(started)).toEqual({ status: "succeeded" });
    const outcome = await status(started);
    expect(outcome.status).toBe("paid");
    expect(outcome.orderToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // 1500 paid: fee 150 to the platform, 1350 pending for the creator until the hold ends.
    expect(await balance(creator.id, "pending")).toBe(1350);
    expect(await balance("platform", "platform_fees")).toBe(150);
    const [order] = await ctx.database.db.select().from(orders).where(eq(orders.id, started.orderId));
    expect(order).toMatchObject({ status: "paid", feeMinor: 150, netMinor: 1350, discountMinor: 500 });
    expect(order?.availableAt?.getTime()).toBe((order?.paidAt?.getTime() ?? 0) + 7 * 86_400_000);
    const [counted] = await ctx.database.db
      .select({ n: links.salesCount })
      .from(links)
      .where(eq(links.id, link.id));
    expect(counted?.n).toBe(1);
    const [code] = await ctx.database.db
      .select({ used: promoCodes.usedCount })
      .from(promoCodes)
      .where(eq(promoCodes.code, "SUMMER25"));
    expect(code?.used).toBe(1);

    // The receipt, in the buyer's language, carries the order page's link.
    const mails = await ctx.app.inject({ url: `/dev/mail?to=buyer@example.test` });
    const message = mails.json<{ messages: { subject: string; links: string[] }[] }>().messages[0];
    expect(message?.subject).toBe("Votre achat : Sunset pack");
    expect(message?.links).toContain(`${ctx.config.WEB_ORIGIN}/order/${outcome.orderToken}`);

    // Paying again changes nothing.
    expect(await pay(started)).toEqual({ status: "succeeded" });
    expect(await balance(creator.id, "pending")).toBe(1350);
    expect(await auditLedger(ctx.database.db)).toEqual({
      unbalancedTransactions: [],
      balancesNotMatchingEntries: [],
      negativeBalances: [],
    });
  });

  it("a declined card fails the order and posts nothing; the extra confirmation step can succeed", async () => {
    const link = await newLink();
    const before = await balance(creator.id, "pending");
    const declined = (await checkout(link.token)).json<CheckoutResponse>();
    const result = await pay(declined, sandboxCards.declined);
    expect(result).toEqual({ status: "declined", message: "Your card was declined." });
    expect(await status(declined)).toMatchObject({
      status: "failed",
      failureReason: "card-declined",
      orderToken: null,
    });
    expect(await balance(creator.id, "pending")).toBe(before);

    const threeDs = (await checkout(link.token)).json<CheckoutResponse>();
    expect(await pay(threeDs, sandboxCards.authenticate)).toEqual({ status: "requires_action" });
    expect((await status(threeDs)).status).toBe("pending");
    const approved = await call("POST", `/sandbox/payments/${threeDs.paymentId}/authenticate`, {
      approve: true,
    });
    expect(approved.json()).toEqual({ status: "succeeded" });
    await runJobs();
    expect((await status(threeDs)).status).toBe("paid");
  });

  it("refuses a paused link, a sold-out stock, a bad promo code, and a wrong secret", async () => {
    const paused = await newLink();
    await call("POST", `/links/${paused.id}/pause`, undefined, creator.cookie);
    const res = await checkout(paused.token);
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe("This link is not on sale.");
    expect((await checkout("A".repeat(22))).statusCode).toBe(404);

    const single = await newLink({ stockLimit: 1 });
    const holder = await checkout(single.token);
    expect(holder.statusCode).toBe(201);
    // Held by a checkout under way: not sold out yet (checkout/squatting.test.ts has the rest).
    const second = await checkout(single.token, { email: "another@example.test" });
    expect(second.statusCode).toBe(409);
    expect(errorOf(second).message).toMatch(/^All remaining units are reserved/);
    await pay(holder.json<CheckoutResponse>());
    const third = await checkout(single.token, { email: "another@example.test" });
    expect(third.statusCode).toBe(409);
    expect(errorOf(third).message).toBe("This link is sold out.");

    const link = await newLink();
    const badCode = await checkout(link.token, { promoCode: "NOPE" });
    expect(badCode.statusCode).toBe(400);
    expect(errorOf(badCode).errors).toEqual({ promoCode: ["Unknown promo code."] });

    const started = (await checkout(link.token)).json<CheckoutResponse>();
    const wrong = await call("GET", `/checkout/${started.orderId}?secret=${"x".repeat(43)}`);
    expect(wrong.statusCode).toBe(404);
  });

  it("sells exactly the stock when many buy at once", async () => {
    const link = await newLink({ stockLimit: 50 });
    const attempts = await Promise.all(
      Array.from({ length: 200 }, (_, i) => checkout(link.token, { email: `buyer${i}@example.test` })),
    );
    const started = attempts.filter((r) => r.statusCode === 201).map((r) => r.json<CheckoutResponse>());
    expect(started).toHaveLength(50);
    expect(attempts.filter((r) => r.statusCode === 409)).toHaveLength(150);
    for (const s of started) await pay(s);
    const [row] = await ctx.database.db
      .select({ n: links.salesCount })
      .from(links)
      .where(eq(links.id, link.id));
    expect(row?.n).toBe(50);
  });
});

describe("the payment webhook", () => {
  async function pendingOrder() {
    const started = (await checkout((await newLink()).token)).json<CheckoutResponse>();
    const event = (type: "payment.succeeded" | "payment.failed" | "refund.succeeded") =>
      sandboxEvent(type, {
        paymentId: started.paymentId,
        orderId: started.orderId,
        amountMinor: 2000,
        currency: "EUR",
      });
    return { started, event };
  }

  it("applies an event delivered ten times at once exactly once", async () => {
    const { started, event } = await pendingOrder();
    const paid = event("payment.succeeded");
    const before = await balance(creator.id, "pending");
    const answers = await Promise.all(Array.from({ length: 10 }, () => delivery(paid)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(answers.filter((a) => a.json<{ result: string }>().result === "applied")).toHaveLength(1);
    expect(await balance(creator.id, "pending")).toBe(before + 1800);
    expect((await status(started)).status).toBe("paid");
  });

  it("refuses a bad signature and a stale timestamp, recording nothing", async () => {
    const { started, event } = await pendingOrder();
    const paid = event("payment.succeeded");
    expect((await delivery(paid, 0, "not-the-secret")).statusCode).toBe(400);
    expect((await delivery(paid, 301)).statusCode).toBe(400);
    const unsigned = await ctx.app.inject({
      method: "POST",
      url: "/webhooks/sandbox",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify(paid),
    });
    expect(unsigned.statusCode).toBe(400);
    const recorded = await ctx.database.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, paid.id));
    expect(recorded).toEqual([]);
    expect((await status(started)).status).toBe("pending");
    expect((await delivery(paid, 299)).statusCode).toBe(200);
  });

  it("ends in the right state whatever the order of events", async () => {
    // A failure arriving after the success does not undo it.
    const a = await pendingOrder();
    await delivery(a.event("payment.succeeded"));
    await delivery(a.event("payment.failed"));
    expect((await status(a.started)).status).toBe("paid");

    // A refund arriving before its payment is applied with it.
    const b = await pendingOrder();
    const before = await balance(creator.id, "pending");
    await delivery(b.event("refund.succeeded"));
    expect((await status(b.started)).status).toBe("pending");
    await delivery(b.event("payment.succeeded"));
    expect((await status(b.started)).status).toBe("refunded");
    expect(await balance(creator.id, "pending")).toBe(before);
  });
});

describe("the hold", () => {
  it("makes the creator's share available when it ends, once", async () => {
    const started = (await checkout((await newLink()).token)).json<CheckoutResponse>();
    await pay(started);
    const available = await balance(creator.id, "available");
    // The release job is due at the end of the hold: move its time, as the clock would.
    await ctx.database.db
      .update(orders)
      .set({ availableAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, started.orderId));
    await ctx.database.db
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(eq(jobs.dedupeKey, `release:${started.orderId}`));
    await runJobs();
    await runJobs();
    expect(await balance(creator.id, "available")).toBe(available + 1800);
  });
});

describe("the order page and reports", () => {
  it("opens the paid order by its token with short-lived links to the file; nothing for a bad token", async () => {
    const pdf = readFileSync(path.resolve(import.meta.dirname, "../fixtures/files/document.pdf"));
    const { body, contentType } = multipart([{ filename: "guide.pdf", data: pdf }]);
    const uploaded = await ctx.app.inject({
      method: "POST",
      url: "/upload?use=content",
      headers: { cookie: creator.cookie, "content-type": contentType },
      payload: body,
    });
    const link = await newLink({ fileId: uploaded.json<{ id: string }>().id });
    const started = (await checkout(link.token)).json<CheckoutResponse>();
    await pay(started);
    const token = (await status(started)).orderToken ?? "";

    const res = await call("GET", `/orders/${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const order = res.json<{
      status: string;
      files: { name: string; viewUrl: string; downloadUrl: string }[];
    }>();
    expect(order).toMatchObject({ status: "paid", title: "Sunset pack", total: 2000 });
    expect(order.files).toHaveLength(1);
    const file = order.files[0];
    expect(file?.name).toBe("guide.pdf");
    const download = await ctx.app.inject({
      url: (file?.downloadUrl ?? "").replace(ctx.config.API_PUBLIC_URL, ""),
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(pdf)).toBe(true);
    expect(download.headers["content-disposition"]).toContain("guide.pdf");

    expect((await call("GET", `/orders/${"A".repeat(43)}`)).statusCode).toBe(404);
    expect((await call("GET", "/orders/short")).statusCode).toBe(404);
  });

  it("queues a report from an order or a link, and stops a reporter from flooding", async () => {
    const link = await newLink();
    const started = (await checkout(link.token)).json<CheckoutResponse>();
    await pay(started);
    const token = (await status(started)).orderToken ?? "";
    const report = (t: string) =>
      call("POST", "/report", {
        token: t,
        reason: "not-as-described",
        message: "The files are not the ones shown.",
      });
    const first = await report(token);
    expect(first.statusCode, first.body).toBe(201);
    expect((await report(link.token)).statusCode).toBe(201);
    expect((await report(token)).statusCode).toBe(201);
    const flood = await report(token);
    expect(flood.statusCode).toBe(429);
    expect(
      (await call("POST", "/report", { token: link.token, reason: "other", message: "short" })).statusCode,
    ).toBe(400);
    expect((await report("B".repeat(22))).statusCode).toBe(404);
  });
});

describe("refunds and restarts", () => {
  it("an admin refunds a paid order: the sale is reversed once, the order says refunded", async () => {
    const { cookie: adminCookie } = await accountWithSession(ctx.database, {
      onboarded: true,
      role: "admin",
    });
    const before = await balance(creator.id, "pending");
    const started = (await checkout((await newLink()).token)).json<CheckoutResponse>();
    await pay(started);
    expect(await balance(creator.id, "pending")).toBe(before + 1800);

    expect(
      (
        await call(
          "POST",
          `/admin/orders/${started.orderId}/refund`,
          { reason: "Refunded at the buyer's request." },
          creator.cookie,
        )
      ).statusCode,
    ).toBe(403);
    const refund = await call(
      "POST",
      `/admin/orders/${started.orderId}/refund`,
      { reason: "Refunded at the buyer's request." },
      adminCookie,
    );
    expect(refund.statusCode, refund.body).toBe(202);
    await runJobs();
    expect((await status(started)).status).toBe("refunded");
    expect(await balance(creator.id, "pending")).toBe(before);
    const again = await call(
      "POST",
      `/admin/orders/${started.orderId}/refund`,
      { reason: "Refunded at the buyer's request." },
      adminCookie,
    );
    expect(again.statusCode).toBe(409);
    expect(await auditLedger(ctx.database.db)).toMatchObject({
      negativeBalances: [],
      unbalancedTransactions: [],
    });
  });

  it("loses no paid order when the API stops between the payment and its event", async () => {
    const started = (await checkout((await newLink()).token)).json<CheckoutResponse>();
    // Paid at the sandbox; the event is queued, and the API stops before delivering it.
    const confirmed = await call("POST", `/sandbox/payments/${started.paymentId}/confirm`, {
      card: sandboxCards.success,
      expiry: "12/34",
      cvc: "123",
    });
    expect(confirmed.json()).toEqual({ status: "succeeded" });
    await ctx.app.close();
    // A new instance on the same database delivers it.
    const { buildApp } = await import("../../src/app.ts");
    const restarted = await buildApp({ config: ctx.config, db: ctx.database.db });
    await restarted.ready();
    ctx = { ...ctx, app: restarted };
    await restarted.services.jobs.worker.runDue();
    expect((await status(started)).status).toBe("paid");
  });
});

describe("a refund after the money has left", () => {
  it("takes back what is still there; what was withdrawn or claimed is its owner's debt, never the platform's", async () => {
    const { cookie: adminCookie } = await accountWithSession(ctx.database, {
      onboarded: true,
      role: "admin",
    });
    // A creator referred by an affiliate, who earns 20% of the fee on the creator's sales.
    const referrer = await insertAccount(ctx.database, { onboarded: true });
    const seller = await insertAccount(ctx.database, { onboarded: true });
    const [campaign] = await ctx.database.db
      .insert(campaigns)
      .values({ ownerId: referrer.id, name: "Friends", token: `ref${randomBytes(6).toString("hex")}` })
      .returning({ id: campaigns.id });
    await ctx.database.db
      .update(users)
      .set({ referredByCampaignId: campaign?.id })
      .where(eq(users.id, seller.id));
    const sellerCookie = await directSessionCookie(ctx.database, seller.id);

    const started = (await checkout((await helpers.newLink(sellerCookie)).token)).json<CheckoutResponse>();
    await pay(started);
    const [order] = await ctx.database.db.select().from(orders).where(eq(orders.id, started.orderId));
    expect(order).toMatchObject({
      referrerId: referrer.id,
      feeMinor: 200,
      commissionMinor: 40,
      netMinor: 1800,
    });
    await call("POST", "/dev/holds/release", { asOf: new Date(Date.now() + 8 * 86_400_000).toISOString() });
    expect(await balance(seller.id, "available")).toBe(1800);
    expect(await balance(referrer.id, "affiliate_claimable")).toBe(40);

    // The referrer claims; the creator asks for a payout of 1500 of their 1800.
    await ctx.database.db.transaction(async (tx) => {
      await post(
        tx,
        commissionClaimed({ claimId: randomUUID(), userId: referrer.id, currency: "EUR", amountMinor: 40 }),
      );
      await post(
        tx,
        payoutRequested({ payoutId: randomUUID(), userId: seller.id, currency: "EUR", amountMinor: 1500 }),
      );
    });
    const feesBefore = await balance("platform", "platform_fees");

    const refund = await call(
      "POST",
      `/admin/orders/${started.orderId}/refund`,
      { reason: "Refunded at the buyer's request." },
      adminCookie,
    );
    expect(refund.statusCode).toBe(202);
    await runJobs();
    expect((await status(started)).status).toBe("refunded");
    // 300 taken back from the creator, who owes the 1500 paid out (decision 042); the referrer's
    // claimed 40 comes back out of their wallet (a debt at once repaid from it).
    expect(await balance(seller.id, "available")).toBe(0);
    expect(await balance(seller.id, "debt")).toBe(-1500);
    expect(await balance(referrer.id, "affiliate_claimable")).toBe(0);
    expect(await balance(referrer.id, "available")).toBe(0);
    expect(await balance(referrer.id, "debt")).toBe(0);
    // The platform gives back its own fee, nothing more.
    expect(await balance("platform", "platform_fees")).toBe(feesBefore - 160);
    expect(await auditLedger(ctx.database.db)).toEqual({
      unbalancedTransactions: [],
      balancesNotMatchingEntries: [],
      negativeBalances: [],
    });
  });
});

describe("a payment provider that cannot be reached", () => {
  it("answers 502, fails the order at once and gives its unit of stock back", async () => {
    const down = await testApp({}, undefined, {
      payments: {
        kind: "sandbox",
        createPayment: () => Promise.reject(new Error("connect ECONNREFUSED")),
        parseWebhook: () => null,
        refund: () => Promise.resolve(),
        submitDisputeEvidence: () => Promise.resolve(),
      },
    });
    try {
      const seller = await insertAccount(down.database, { onboarded: true });
      const cookie = await directSessionCookie(down.database, seller.id);
      const downHelpers = checkoutHelpers(() => down);
      const link = await downHelpers.newLink(cookie, { stockLimit: 1 });
      const res = await downHelpers.checkout(link.token);
      expect(res.statusCode).toBe(502);
      expect(errorOf(res)).toMatchObject({
        error: "PaymentProviderException",
        message: "The payment could not be started. Please try again.",
      });
      expect(res.body).not.toContain("ECONNREFUSED");
      const [order] = await down.database.db.select().from(orders).where(eq(orders.linkId, link.id));
      expect(order).toMatchObject({ status: "failed", failureReason: "provider-unavailable" });
      // The failed order holds no stock: the single unit can be bought again.
      expect((await downHelpers.checkout(link.token)).statusCode).toBe(502);
    } finally {
      await down.close();
    }
  });
});
