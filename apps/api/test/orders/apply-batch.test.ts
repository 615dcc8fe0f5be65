import type { CheckoutResponse, Link } from "@salelink/contracts";
import { and, eq, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, ledgerTransactions, linkStockUnits, links, orders } from "../../src/db/schema/index.ts";
import { applyPaymentBatch } from "../../src/modules/orders/apply-batch.ts";
import { recordPaymentEvent } from "../../src/modules/orders/queries.ts";
import { auditLedger, balancesOf } from "../../src/modules/wallet/ledger.ts";
import { type SandboxEvent, sandboxEvent } from "../../src/providers/payments/index.ts";
import type { PaymentEvent } from "../../src/providers/payments/types.ts";
import { joined, saveProgramme } from "../partners/support.ts";
import { accountWithSession } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers, deliverSandboxEvent } from "../support/checkout.ts";

/*
 * Payments applied in batches (orders/apply-batch.ts, decision 030): each event once however often
 * and concurrently delivered, the same effects as one by one, and a batch that fails falls back to
 * one by one so that only the bad event fails.
 */

let ctx: TestContext;
let creator: { id: string; cookie: string };
let link: Link;
const helpers = checkoutHelpers(() => ctx);
const NET = 1800; // 2000 minus the 10% fee

beforeAll(async () => {
  ctx = await testApp({ HOLD_DAYS: "7", CHECKOUT_RESERVATIONS_PER_ADDRESS_MAX: "50" });
  creator = await accountWithSession(ctx.database, { onboarded: true });
  link = await helpers.newLink(creator.cookie);
});
afterAll(() => ctx.close());

let buyers = 0;
async function pendingOrders(
  n: number,
  of: Link = link,
): Promise<{ started: CheckoutResponse; event: SandboxEvent }[]> {
  const made = [];
  for (let i = 0; i < n; i++) {
    buyers += 1;
    const res = await helpers.checkout(of.token, { email: `buyer${buyers}@example.test` });
    expect(res.statusCode, res.body).toBe(201);
    const started = res.json<CheckoutResponse>();
    const event = sandboxEvent("payment.succeeded", {
      paymentId: started.paymentId,
      orderId: started.orderId,
      amountMinor: 2000,
      currency: "EUR",
    });
    made.push({ started, event });
  }
  return made;
}

const asPaymentEvent = (e: SandboxEvent): PaymentEvent => ({
  id: e.id,
  type: e.type,
  paymentId: e.data.paymentId,
  orderId: e.data.orderId ?? null,
  amountMinor: e.data.amountMinor,
  currency: e.data.currency,
  createdAt: new Date(e.created * 1000),
  raw: e,
});

const pending = async () =>
  (await balancesOf(ctx.database.db, creator.id)).find((b) => b.account === "pending")?.balanceMinor ?? 0;

async function salesCount(): Promise<number> {
  const [row] = await ctx.database.db
    .select({ n: links.salesCount })
    .from(links)
    .where(eq(links.token, link.token));
  return row?.n ?? 0;
}

async function statuses(ids: string[]) {
  const rows = await ctx.database.db
    .select({ id: orders.id, status: orders.status })
    .from(orders)
    .where(inArray(orders.id, ids));
  return new Map(rows.map((r) => [r.id, r.status]));
}

const jobKeys = async (prefix: string) =>
  (
    await ctx.database.db
      .select({ key: jobs.dedupeKey })
      .from(jobs)
      .where(like(jobs.dedupeKey, `${prefix}%`))
  ).map((r) => r.key);

const expectCleanAudit = async () =>
  expect(await auditLedger(ctx.database.db)).toEqual({
    unbalancedTransactions: [],
    balancesNotMatchingEntries: [],
    negativeBalances: [],
  });

describe("payments applied in batches", () => {
  it("applies a batch in one transaction, each event once, with every effect of one by one", async () => {
    const made = await pendingOrders(6);
    const events = made.map((m) => asPaymentEvent(m.event));
    const [firstEvent] = events;
    if (!firstEvent) throw new Error("no event");
    const [before, sold] = [await pending(), await salesCount()];

    const apply = (batch: PaymentEvent[]) =>
      ctx.database.db.transaction((tx) => applyPaymentBatch(tx, ctx.config, "sandbox", batch));
    // The batch's path, not the fallback: every event gets its answer from the batch itself.
    expect((await apply([...events, firstEvent])).results).toEqual([
      ...Array(6).fill("applied"),
      "duplicate",
    ]);
    // Their orders are paid now: left to the one-by-one path (undefined), which answers "duplicate".
    expect((await apply(events)).results).toEqual(Array(6).fill(undefined));

    const ids = made.map((m) => m.started.orderId);
    expect([...(await statuses(ids)).values()]).toEqual(Array(6).fill("paid"));
    expect(await pending()).toBe(before + 6 * NET);
    expect(await salesCount()).toBe(sold + 6);
    const posted = await ctx.database.db
      .select({ reference: ledgerTransactions.reference })
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.kind, "order_paid"), inArray(ledgerTransactions.reference, ids)));
    expect(posted).toHaveLength(6);
    const receipts = await jobKeys("receipt:");
    const releases = await jobKeys("release:");
    for (const id of ids) {
      expect(receipts).toContain(`receipt:${id}`);
      expect(releases).toContain(`release:${id}`);
    }
    await expectCleanAudit();
  });

  it("applies nothing for an event recorded before, as one by one would not", async () => {
    const [made] = await pendingOrders(1);
    if (!made) throw new Error("no order");
    const event = asPaymentEvent(made.event);
    await recordPaymentEvent(ctx.database.db, "sandbox", event);
    const { results } = await ctx.database.db.transaction((tx) =>
      applyPaymentBatch(tx, ctx.config, "sandbox", [event]),
    );
    expect(results).toEqual(["duplicate"]);
    expect((await statuses([made.started.orderId])).get(made.started.orderId)).toBe("pending");
  });

  it("applies each event once when every one is delivered three times at once", async () => {
    const made = await pendingOrders(12);
    const [before, sold] = [await pending(), await salesCount()];
    const answers = await Promise.all(
      made.flatMap((m) => [0, 1, 2].map(() => deliverSandboxEvent(ctx, m.event))),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(36).fill(200));
    const results = answers.map((a) => a.json<{ result: string }>().result);
    expect(results.filter((r) => r === "applied")).toHaveLength(12);
    expect(results.filter((r) => r === "duplicate")).toHaveLength(24);
    expect(await pending()).toBe(before + 12 * NET);
    expect(await salesCount()).toBe(sold + 12);
    await expectCleanAudit();
  });

  it("falls back one by one when a batch fails: only the poisoned event fails", async () => {
    const made = await pendingOrders(5);
    const [poisoned, mismatched] = [made[1], made[3]];
    if (!poisoned || !mismatched) throw new Error("no orders");
    // A receipt that cannot be queued (its address is not one): this event fails wherever it goes.
    await ctx.database.db
      .update(orders)
      .set({ buyerEmail: "not-an-address" })
      .where(eq(orders.id, poisoned.started.orderId));
    mismatched.event.data.amountMinor = 1999;
    const events = made.map((m) => asPaymentEvent(m.event));
    // The batch as a whole fails: nothing of it is written…
    await expect(
      ctx.database.db.transaction((tx) => applyPaymentBatch(tx, ctx.config, "sandbox", events)),
    ).rejects.toThrow();
    const [before, sold] = [await pending(), await salesCount()];

    // …and through the webhook every other event is applied all the same.
    const answers = await Promise.all(made.map((m) => deliverSandboxEvent(ctx, m.event)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 500, 200, 200, 200]);
    expect(answers.map((a) => (a.statusCode === 200 ? a.json<{ result: string }>().result : ""))).toEqual([
      "applied",
      "",
      "applied",
      "ignored",
      "applied",
    ]);
    const now = await statuses(made.map((m) => m.started.orderId));
    expect(made.map((m) => now.get(m.started.orderId))).toEqual([
      "paid",
      "pending",
      "paid",
      "pending",
      "paid",
    ]);
    expect(await pending()).toBe(before + 3 * NET);
    expect(await salesCount()).toBe(sold + 3);
    await expectCleanAudit();
  });

  it("sells a limited link's own units together; a payment whose unit was taken takes a free one", async () => {
    const limited = await helpers.newLink(creator.cookie, { stockLimit: 4 });
    const made = await pendingOrders(3, limited);
    const [first] = made;
    if (!first) throw new Error("no order");
    // The first buyer's reservation ended and its unit went back to the stock: it is sold any free one.
    await ctx.database.db
      .update(linkStockUnits)
      .set({ orderId: null, heldUntil: new Date(0) })
      .where(eq(linkStockUnits.orderId, first.started.orderId));
    const events = made.map((m) => asPaymentEvent(m.event));
    const { results } = await ctx.database.db.transaction((tx) =>
      applyPaymentBatch(tx, ctx.config, "sandbox", events),
    );
    expect(results).toEqual(["applied", "applied", "applied"]);
    const units = await ctx.database.db
      .select({ orderId: linkStockUnits.orderId, sold: linkStockUnits.sold })
      .from(linkStockUnits)
      .innerJoin(links, eq(links.id, linkStockUnits.linkId))
      .where(eq(links.token, limited.token));
    const soldTo = units.filter((u) => u.sold).map((u) => u.orderId);
    expect(soldTo.sort()).toEqual(made.map((m) => m.started.orderId).sort());
    expect(units.filter((u) => !u.sold)).toHaveLength(1);
    await expectCleanAudit();
  });

  it("goes one by one when a limited link's payment finds no unit: it is refunded, the others sold", async () => {
    const limited = await helpers.newLink(creator.cookie, { stockLimit: 2 });
    const made = await pendingOrders(2, limited);
    const [first, second] = made;
    if (!first || !second) throw new Error("no orders");
    // The first buyer's unit went to someone else: none is left for its payment.
    await ctx.database.db
      .update(linkStockUnits)
      .set({ orderId: null, sold: true, heldUntil: new Date(0) })
      .where(eq(linkStockUnits.orderId, first.started.orderId));
    const events = made.map((m) => asPaymentEvent(m.event));
    await expect(
      ctx.database.db.transaction((tx) => applyPaymentBatch(tx, ctx.config, "sandbox", events)),
    ).rejects.toThrow();
    const answers = await Promise.all(made.map((m) => deliverSandboxEvent(ctx, m.event)));
    expect(answers.map((a) => a.json<{ result: string }>().result)).toEqual(["applied", "applied"]);
    const now = await statuses([first.started.orderId, second.started.orderId]);
    expect([now.get(first.started.orderId), now.get(second.started.orderId)]).toEqual(["failed", "paid"]);
    await expectCleanAudit();
  });

  it("pays a partner's commission in a batch as one by one does, at the rate of each checkout", async () => {
    await saveProgramme(ctx, creator.cookie, { joinMode: "open", defaultRateBps: 2500 });
    const partner = await accountWithSession(ctx.database, { onboarded: true });
    const { code } = await joined(ctx, partner.cookie, creator.id);
    const made: { started: CheckoutResponse; event: SandboxEvent }[] = [];
    for (const attributed of [true, false, true]) {
      buyers += 1;
      const res = await helpers.checkout(link.token, {
        email: `buyer${buyers}@example.test`,
        ...(attributed ? { via: [{ code, at: Date.now() }] } : {}),
      });
      expect(res.statusCode, res.body).toBe(201);
      const started = res.json<CheckoutResponse>();
      made.push({
        started,
        event: sandboxEvent("payment.succeeded", {
          paymentId: started.paymentId,
          orderId: started.orderId,
          amountMinor: 2000,
          currency: "EUR",
        }),
      });
    }
    const events = made.map((m) => asPaymentEvent(m.event));
    const applied = await ctx.database.db.transaction((tx) =>
      applyPaymentBatch(tx, ctx.config, "sandbox", events),
    );
    expect(applied.results).toEqual(["applied", "applied", "applied"]);
    const rows = await ctx.database.db
      .select({ id: orders.id, commission: orders.partnerCommissionMinor, net: orders.netMinor })
      .from(orders)
      .where(
        inArray(
          orders.id,
          made.map((m) => m.started.orderId),
        ),
      );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(made.map((m) => byId.get(m.started.orderId))).toMatchObject([
      { commission: 500, net: 1300 },
      { commission: null, net: NET },
      { commission: 500, net: 1300 },
    ]);
    const partnerPending = (await balancesOf(ctx.database.db, partner.id)).find(
      (b) => b.account === "partner_pending",
    );
    expect(partnerPending?.balanceMinor).toBe(1000);
    await saveProgramme(ctx, creator.cookie, { enabled: false, joinMode: "open" });
    await expectCleanAudit();
  });
});
