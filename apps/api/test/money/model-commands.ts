import {
  adminPayoutSchema,
  type Currency,
  checkoutResponseSchema,
  claimResponseSchema,
  payoutSchema,
  sandboxCards,
  sandboxPaymentResultSchema,
} from "@salelink/contracts";
import { and, eq, inArray } from "drizzle-orm";
import type fc from "fast-check";
import { expect } from "vitest";
import { paymentEvents, payouts } from "../../src/db/schema/index.ts";
import { runPayoutSchedule } from "../../src/modules/payouts/schedules/service.ts";
import type { ModelOrder, ModelPayout, MoneyModel } from "./model.ts";
import { runJobs } from "./model-jobs.ts";
import {
  call,
  checkInvariants,
  createLink,
  deliver,
  expectStatus,
  type RunUser,
  resultOf,
  userOf,
  type World,
} from "./model-world.ts";

/*
 * The operations of the money model, each applied to the API and to the model, then every invariant
 * checked. "Twice at once" variants send the same request concurrently: exactly one may take effect.
 */

export type Cmd = fc.AsyncCommand<MoneyModel, World>;

export const pick = <T>(items: readonly T[], index: number): T => {
  const item = items[index % items.length];
  if (item === undefined) throw new Error("pick from nothing");
  return item;
};

const DAY = 86_400_000;

/** The provider's events recorded for an order, by type, as the webhook received them. */
export async function recordedEvent(w: World, orderId: string, type: string, except: ReadonlySet<string>) {
  const rows = await w.ctx.database.db
    .select({ eventId: paymentEvents.eventId, payload: paymentEvents.payload })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.orderId, orderId), eq(paymentEvents.type, type)));
  const fresh = rows.filter((r) => !except.has(r.eventId));
  expect(fresh, `${type} events of ${orderId}`).toHaveLength(1);
  const [event] = fresh;
  if (!event) throw new Error(`no ${type} event`);
  return event;
}

/** Sends `times` identical requests at once. */
export const concurrently = (times: number, send: () => ReturnType<typeof call>) =>
  Promise.all(Array.from({ length: times }, send));

/** One 2xx among concurrent identical requests when the model allows it, 409s for the rest. */
export function expectOnce(codes: number[], allowed: boolean, ok: number) {
  const expected = codes.map((_, i) => (allowed && i === 0 ? ok : 409));
  expect([...codes].sort(), "concurrent answers").toEqual(expected.sort());
}

/** A taxed buyer (issue 22): their billing country, the card issued there, and the country's rate. */
const taxedBuyers = {
  FR: { card: sandboxCards.successFR, rateBps: 2000 },
  HU: { card: sandboxCards.successHU, rateBps: 2700 },
} as const;

export class Buy implements Cmd {
  constructor(
    readonly p: {
      seller: number;
      price: number;
      currency: Currency;
      viaPartner?: boolean;
      /** A consumer in France or Hungary (VAT in the price), or none given (no VAT). */
      country?: keyof typeof taxedBuyers | null;
    },
  ) {}
  check = () => true;
  async run(m: MoneyModel, w: World) {
    const token = await createLink(w, this.p.seller, {
      title: "Model pack",
      priceMinor: this.p.price,
      currency: this.p.currency,
    });
    // Through the seller's partner's link (a `?via=` followed a minute ago), when they have one.
    const programme = this.p.viaPartner ? m.programmes[this.p.seller] : null;
    const started = await call(w.ctx, "POST", "/stripe/checkout", undefined, {
      token,
      email: "buyer@example.test",
      locale: "en",
      ...(programme ? { via: [{ code: programme.code, at: Date.now() - 60_000 }] } : {}),
      ...(this.p.country ? { billingCountry: this.p.country } : {}),
    });
    expectStatus(started, 201, "checkout");
    const checkout = checkoutResponseSchema.parse(started.json());
    const taxed = this.p.country ? taxedBuyers[this.p.country] : null;
    const paid = await call(w.ctx, "POST", `/sandbox/payments/${checkout.paymentId}/confirm`, undefined, {
      card: taxed?.card ?? sandboxCards.success,
      expiry: "12/34",
      cvc: "123",
    });
    expectStatus(paid, 200, "sandbox payment");
    expect(sandboxPaymentResultSchema.parse(paid.json()).status).toBe("succeeded");
    await runJobs(w);
    const event = await recordedEvent(w, checkout.orderId, "payment.succeeded", new Set());
    w.events.set(event.eventId, event.payload);
    m.paid({
      id: checkout.orderId,
      paymentId: checkout.paymentId,
      eventId: event.eventId,
      seller: this.p.seller,
      currency: this.p.currency,
      gross: this.p.price,
      viaPartner: programme !== null && programme !== undefined,
      vatBps: taxed?.rateBps ?? 0,
      sandboxPaid: true,
    });
    await checkInvariants(w, m);
  }
  toString = () =>
    `buy(u${this.p.seller}, ${this.p.price} ${this.p.currency}${this.p.viaPartner ? ", via partner" : ""}${this.p.country ? `, ${this.p.country} buyer` : ""})`;
}

/** The same provider event again (any of the order's), `times` deliveries at once: all duplicates. */
export class Redeliver implements Cmd {
  constructor(readonly p: { order: number; event: number; times: number }) {}
  check = (m: Readonly<MoneyModel>) => m.orders.length > 0;
  async run(m: MoneyModel, w: World) {
    const order = pick(m.orders, this.p.order);
    const eventId = pick([...order.events.keys()], this.p.event);
    const results = await Promise.all(
      Array.from({ length: this.p.times }, async () => resultOf(await deliver(w.ctx, w.events.get(eventId)))),
    );
    expect(results).toEqual(Array(this.p.times).fill("duplicate"));
    await checkInvariants(w, m);
  }
  toString = () => `redeliver(order ${this.p.order}, event ${this.p.event}, ×${this.p.times})`;
}

/** The clock moved: before every hold's end (nothing released) or after it, for some orders. */
export class ReleaseHolds implements Cmd {
  constructor(readonly p: { orders: number[]; early: boolean }) {}
  check = (m: Readonly<MoneyModel>) => m.orders.length > 0;
  async run(m: MoneyModel, w: World) {
    const chosen: ModelOrder[] =
      this.p.orders.length === 0 ? [...m.orders] : [...new Set(this.p.orders.map((i) => pick(m.orders, i)))];
    const asOf = new Date(Date.now() + (this.p.early ? 1 : 8) * DAY).toISOString();
    const res = await call(w.ctx, "POST", "/dev/holds/release", undefined, {
      asOf,
      orderIds: chosen.map((o) => o.id).slice(0, 100),
    });
    expectStatus(res, 200, "release");
    const due = this.p.early ? [] : chosen.slice(0, 100).filter(m.releasable);
    expect(res.json()).toEqual({ released: due.length });
    for (const o of due) m.release(o);
    await checkInvariants(w, m);
  }
  toString = () =>
    `release(${this.p.orders.length === 0 ? "all" : `orders ${this.p.orders}`}${this.p.early ? ", early" : ""})`;
}

/** A platform referrer's claim (POST /campaigns/claim), or a partner's (POST /programmes/claim). */
export class Claim implements Cmd {
  constructor(readonly p: { user: number; times: number; partner?: boolean }) {}
  check = () => true;
  async run(m: MoneyModel, w: World) {
    const user = userOf(w, this.p.user);
    const path = this.p.partner ? "/programmes/claim" : "/campaigns/claim";
    const answers = await concurrently(this.p.times, () => call(w.ctx, "POST", path, user.cookie));
    const expected = this.p.partner ? m.partnerClaimable(this.p.user) : m.claimable(this.p.user);
    expectOnce(
      answers.map((a) => a.statusCode),
      expected.size > 0,
      200,
    );
    const ok = answers.find((a) => a.statusCode === 200);
    if (ok) {
      const claims = claimResponseSchema.parse(ok.json()).claims;
      const moved = this.p.partner ? m.partnerClaim(this.p.user) : m.claim(this.p.user);
      expect(new Map(claims.map((c) => [c.currency, c.amount]))).toEqual(moved);
    }
    await checkInvariants(w, m);
  }
  toString = () => `${this.p.partner ? "partnerClaim" : "claim"}(u${this.p.user}, ×${this.p.times})`;
}

/** A withdrawal request (POST /profile/payout): refused while its user owes money in any currency. */
export class Withdraw implements Cmd {
  constructor(
    readonly p: { user: number | "richest"; currency: Currency; amount: number | null; times: number },
  ) {}
  check = () => true;
  async run(m: MoneyModel, w: World) {
    // "richest": whoever has the most to withdraw now, so that payouts happen often enough to test.
    const { user: index, currency } =
      this.p.user === "richest" ? m.richest() : { user: this.p.user, currency: this.p.currency };
    const user = userOf(w, index);
    const body = {
      bankAccountId: user.banks[currency as keyof RunUser["banks"]],
      currency,
      ...(this.p.amount === null ? {} : { amount: this.p.amount }),
    };
    const outcome = m.withdrawalOutcome(index, currency, this.p.amount);
    const answers = await concurrently(this.p.times, () =>
      call(w.ctx, "POST", "/profile/payout", user.cookie, body),
    );
    const codes = answers.map((a) => a.statusCode);
    // Of two at once, the second finds the first's open payout.
    const expected = codes.map((_, i) => (i === 0 || outcome.status !== 201 ? outcome.status : 409));
    expect(codes.sort(), "withdrawal answers").toEqual(expected.sort());
    const created = answers.find((a) => a.statusCode === 201);
    if (created) {
      const payout = payoutSchema.parse(created.json());
      expect(payout.amount).toBe(outcome.amount);
      const status = m.initialStatus(payout.amount);
      expect(payout.status, "held or approved by the rules").toBe(status);
      m.requested({ id: payout.id, user: index, currency, amount: payout.amount, status });
    }
    await checkInvariants(w, m);
  }
  toString = () =>
    `withdraw(${this.p.user === "richest" ? "richest" : `u${this.p.user} ${this.p.currency}`}, ${this.p.amount ?? "all"}${this.p.times > 1 ? `, ×${this.p.times}` : ""})`;
}

/**
 * A user's schedule pays at a threshold (issue 23): its run, `times` workers at once, pays each
 * currency that reached it, the whole balance, once; the same run again pays nothing more; nothing
 * while the user owes money (issue 32).
 */
export class ScheduledRun implements Cmd {
  constructor(readonly p: { user: number; threshold: number; times: number }) {}
  check = () => true;
  async run(m: MoneyModel, w: World) {
    const user = userOf(w, this.p.user);
    const saved = await call(w.ctx, "PUT", "/profile/payout/schedule", user.cookie, {
      kind: "threshold",
      thresholdMinor: this.p.threshold,
    });
    expectStatus(saved, 200, "schedule");
    const expected = m.scheduledPayouts(this.p.user, this.p.threshold);
    const payload = { userId: user.id, at: new Date().toISOString() };
    const outcomes = await Promise.all(
      Array.from({ length: this.p.times }, () =>
        w.ctx.database.db.transaction((tx) =>
          runPayoutSchedule(tx, w.ctx.config, w.ctx.app.services.payouts, payload),
        ),
      ),
    );
    const created = outcomes.flatMap((o) => o.created);
    const rows = created.length
      ? await w.ctx.database.db.select().from(payouts).where(inArray(payouts.id, created))
      : [];
    expect(
      rows
        .map((r) => ({ currency: r.currency, amount: r.amountMinor }))
        .sort((a, b) => (a.currency < b.currency ? -1 : 1)),
      "scheduled payouts",
    ).toEqual(expected);
    for (const row of rows) {
      const status = m.initialStatus(row.amountMinor);
      expect(row.status, "held or approved by the rules").toBe(status);
      m.requested({ id: row.id, user: this.p.user, currency: row.currency, amount: row.amountMinor, status });
    }
    await checkInvariants(w, m);
  }
  toString = () => `scheduledRun(u${this.p.user}, threshold ${this.p.threshold}, ×${this.p.times})`;
}

/** An operator's step on a payout: an approval waits while its payee owes money (issue 32). */
export class PayoutOutcome implements Cmd {
  constructor(readonly p: { payout: number; action: "approve" | "paid" | "fail"; times: number }) {}
  check = (m: Readonly<MoneyModel>) => m.payouts.length > 0;
  async run(m: MoneyModel, w: World) {
    const payout: ModelPayout = pick(m.payouts, this.p.payout);
    const path = this.p.action === "fail" ? "fail" : this.p.action;
    const answers = await concurrently(this.p.times, () =>
      call(w.ctx, "POST", `/admin/payouts/${payout.id}/${path}`, w.admin, { reason: "Model says so" }),
    );
    const allowed = m.transition(payout, this.p.action);
    expectOnce(
      answers.map((a) => a.statusCode),
      allowed,
      200,
    );
    const ok = answers.find((a) => a.statusCode === 200);
    if (ok) expect(adminPayoutSchema.parse(ok.json()).status).toBe(payout.status);
    await checkInvariants(w, m);
  }
  toString = () => `payout(${this.p.action}, payout ${this.p.payout}, ×${this.p.times})`;
}

/**
 * A referred user adds its referrer's IBAN as a payout account (issue 16, self-referral): its
 * unclaimed commissions are voided, one reversal per order, a claimed one stays, later sales earn
 * nothing. The bank account itself is added either way.
 */
export class ShareReferrerIban implements Cmd {
  constructor(readonly p: { user: number }) {}
  check = () => true;
  async run(m: MoneyModel, w: World) {
    const user = userOf(w, this.p.user);
    const referrer = m.referrers[this.p.user];
    const iban = userOf(w, referrer ?? 0).iban;
    const res = await call(w.ctx, "POST", "/profile/bank-accounts", user.cookie, {
      holderName: "Ada Lovelace",
      iban,
    });
    expectStatus(res, 201, "bank account");
    if (referrer !== null && referrer !== undefined) {
      m.selfReferral(this.p.user);
      m.shareIban(this.p.user, referrer);
    }
    await checkInvariants(w, m);
  }
  toString = () => `shareReferrerIban(u${this.p.user})`;
}
