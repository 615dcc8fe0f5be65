import {
  type Currency,
  checkoutResponseSchema,
  sandboxCards,
  sandboxPaymentResultSchema,
} from "@salelink/contracts";
import { and, eq, inArray, sql } from "drizzle-orm";
import { expect } from "vitest";
import { ledgerEntries, ledgerTransactions, orders, paymentEvents } from "../../src/db/schema/index.ts";
import type { MoneyModel } from "./model.ts";
import type { Cmd } from "./model-commands.ts";
import { runJobs } from "./model-jobs.ts";
import { call, checkInvariants, createLink, expectStatus, type World } from "./model-world.ts";

/*
 * Issue 16's oversell in the money model: a stock of 1, a first buyer declined, a second buyer paid,
 * then the first buyer's retry goes through at the provider. The second is the one sale (in the
 * model like any purchase); the first is refunded automatically and is nobody's money: the
 * invariants then prove no balance moved for it, and this step checks its own two postings.
 */

async function start(w: World, token: string, email: string) {
  const res = await call(w.ctx, "POST", "/stripe/checkout", undefined, { token, email, locale: "en" });
  expectStatus(res, 201, "checkout");
  return checkoutResponseSchema.parse(res.json());
}

async function payWith(w: World, paymentId: string, card: string) {
  const res = await call(w.ctx, "POST", `/sandbox/payments/${paymentId}/confirm`, undefined, {
    card,
    expiry: "12/34",
    cvc: "123",
  });
  expectStatus(res, 200, "sandbox payment");
  await runJobs(w);
  return sandboxPaymentResultSchema.parse(res.json()).status;
}

export class LateSale implements Cmd {
  constructor(readonly p: { seller: number; price: number; currency: Currency }) {}
  check = () => true;
  async run(m: MoneyModel, w: World) {
    const token = await createLink(w, this.p.seller, {
      title: "Last one",
      priceMinor: this.p.price,
      currency: this.p.currency,
      stockLimit: 1,
    });
    const late = await start(w, token, "late-buyer@example.test");
    expect(await payWith(w, late.paymentId, sandboxCards.declined)).toBe("declined");
    const winner = await start(w, token, "buyer@example.test");
    expect(await payWith(w, winner.paymentId, sandboxCards.success)).toBe("succeeded");
    const [event] = await w.ctx.database.db
      .select({ eventId: paymentEvents.eventId, payload: paymentEvents.payload })
      .from(paymentEvents)
      .where(and(eq(paymentEvents.orderId, winner.orderId), eq(paymentEvents.type, "payment.succeeded")));
    if (!event) throw new Error("no payment event for the sale");
    w.events.set(event.eventId, event.payload);
    m.paid({
      id: winner.orderId,
      paymentId: winner.paymentId,
      eventId: event.eventId,
      seller: this.p.seller,
      currency: this.p.currency,
      gross: this.p.price,
      sandboxPaid: true,
    });

    // The declined buyer tries again: the provider takes the money, and gives it back.
    expect(await payWith(w, late.paymentId, sandboxCards.success)).toBe("succeeded");
    const [order] = await w.ctx.database.db.select().from(orders).where(eq(orders.id, late.orderId));
    expect(order).toMatchObject({ status: "failed", failureReason: "sold-out", paidAt: null });
    expect(order?.refundedAt).not.toBeNull();
    const postings = await w.ctx.database.db
      .select({ kind: ledgerTransactions.kind })
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.reference, late.orderId));
    expect(postings.map((p) => p.kind).sort()).toEqual(["payment_unfulfilled", "unfulfilled_refund"]);
    // Nothing owed back is left once the provider has refunded: every such payment came back out.
    const [owed] = await w.ctx.database.db
      .select({ sum: sql<string>`coalesce(sum(${ledgerEntries.amountMinor}), 0)` })
      .from(ledgerEntries)
      .where(inArray(ledgerEntries.account, ["buyer_refunds"]));
    expect(Number(owed?.sum ?? 0)).toBe(0);
    await checkInvariants(w, m);
  }
  toString = () => `lateSale(u${this.p.seller}, ${this.p.price} ${this.p.currency})`;
}
