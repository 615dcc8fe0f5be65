import { expect } from "vitest";
import { sandboxEvent } from "../../src/providers/payments/index.ts";
import type { ModelOrder, MoneyModel } from "./model.ts";
import { type Cmd, concurrently, expectOnce, pick, recordedEvent } from "./model-commands.ts";
import { runJobs } from "./model-jobs.ts";
import { call, checkInvariants, deliver, resultOf, userOf, type World } from "./model-world.ts";

/*
 * Refunds in the money model: at the provider, by an admin, by the creator (issue 21). Each takes
 * back what is left from whoever holds it now; what they no longer hold becomes their debt
 * (decision 042). A creator's refund that would leave more owed than the limit is refused, and no
 * refund is asked while a chargeback of the sale is open.
 */

/**
 * Whether a provider's refund event applies: the sale is paid and something of it is left. What a
 * chargeback holds is not the refunds' to take back (the bank has it): an event for a sale whose
 * open chargeback holds all of it is recorded and ignored, however late it comes.
 */
export const refundEventApplies = (m: Readonly<MoneyModel>, o: ModelOrder): boolean =>
  o.status === "paid" && m.left(o) > 0;

/**
 * A refund made at the provider (its dashboard): `events` new refund events for the order (a provider
 * may report one refund under several), each delivered `times` at once. One may apply, if any.
 */
export class ProviderRefund implements Cmd {
  constructor(readonly p: { order: number; events: number; times: number }) {}
  check = (m: Readonly<MoneyModel>) => m.orders.length > 0;
  async run(m: MoneyModel, w: World) {
    const order = pick(m.orders, this.p.order);
    const events = Array.from({ length: this.p.events }, () =>
      sandboxEvent("refund.succeeded", {
        paymentId: order.paymentId,
        orderId: order.id,
        amountMinor: order.gross,
        currency: order.currency,
      }),
    );
    const answers = await Promise.all(
      events.flatMap((event) =>
        Array.from({ length: this.p.times }, async () => ({
          id: event.id,
          result: resultOf(await deliver(w.ctx, event)),
        })),
      ),
    );
    const applies = refundEventApplies(m, order) ? 1 : 0;
    const count = (result: string) => answers.filter((a) => a.result === result).length;
    expect(count("applied"), "refund events applied").toBe(applies);
    expect(count("duplicate"), "refund redeliveries").toBe(this.p.events * (this.p.times - 1));
    expect(count("ignored"), "refund events ignored").toBe(this.p.events - applies);
    for (const event of events) {
      w.events.set(event.id, event);
      const applied = answers.some((a) => a.id === event.id && a.result === "applied");
      order.events.set(event.id, applied ? "applied" : "ignored");
    }
    m.refund(order);
    await checkInvariants(w, m);
  }
  toString = () => `providerRefund(order ${this.p.order}, ${this.p.events} event(s) ×${this.p.times})`;
}

/**
 * The admin console's refund, asked `times` at once; the sandbox then sends its event. Never refused
 * for a debt it leaves; refused while a chargeback of the sale is open.
 */
export class AdminRefund implements Cmd {
  constructor(readonly p: { order: number; times: number }) {}
  check = (m: Readonly<MoneyModel>) => m.orders.length > 0;
  async run(m: MoneyModel, w: World) {
    const order = pick(m.orders, this.p.order);
    const answers = await concurrently(this.p.times, () =>
      call(w.ctx, "POST", `/admin/orders/${order.id}/refund`, w.admin, { reason: "Buyer asked for it" }),
    );
    const allowed = m.adminRefundAllowed(order);
    expectOnce(
      answers.map((a) => a.statusCode),
      allowed,
      202,
    );
    await runJobs(w);
    if (allowed) {
      order.refundAsked = true;
      order.sandboxPaid = true;
      const event = await recordedEvent(w, order.id, "refund.succeeded", new Set(order.events.keys()));
      w.events.set(event.eventId, event.payload);
      order.events.set(event.eventId, "applied");
      m.refund(order);
    }
    await checkInvariants(w, m);
  }
  toString = () => `adminRefund(order ${this.p.order}, ×${this.p.times})`;
}

/**
 * The seller refunds a part of a sale (issue 21): `share` of what is left (1: all of it), asked
 * `times` at once; one ask goes through when the sale is paid, undisputed, and the refund would not
 * leave more owed than the limit (decision 042); the others wait their turn (409).
 */
export class CreatorRefund implements Cmd {
  constructor(readonly p: { order: number; share: number; times: number }) {}
  check = (m: Readonly<MoneyModel>) => m.orders.length > 0;
  async run(m: MoneyModel, w: World) {
    const order = pick(m.orders, this.p.order);
    const amount = Math.max(1, Math.round(m.left(order) * this.p.share));
    const allowed = m.creatorRefundAllowed(order, amount);
    const answers = await concurrently(this.p.times, () =>
      call(w.ctx, "POST", `/sales/${order.id}/refunds`, userOf(w, order.seller).cookie, {
        amountMinor: amount,
        reason: "Part of the pack was missing",
      }),
    );
    expectOnce(
      answers.map((a) => a.statusCode),
      allowed,
      202,
    );
    await runJobs(w);
    if (allowed) {
      order.sandboxPaid = true;
      const event = await recordedEvent(w, order.id, "refund.succeeded", new Set(order.events.keys()));
      w.events.set(event.eventId, event.payload);
      order.events.set(event.eventId, "applied");
      m.partialRefund(order, amount);
    }
    await checkInvariants(w, m);
  }
  toString = () => `creatorRefund(order ${this.p.order}, ${this.p.share} of what is left, ×${this.p.times})`;
}
