import type { Currency } from "@salelink/contracts";
import { inArray } from "drizzle-orm";
import fc from "fast-check";
import { expect } from "vitest";
import { payouts } from "../../src/db/schema/index.ts";
import type { ModelPayout } from "./model.ts";
import {
  alreadyLeft,
  bigPrice,
  buy,
  claim,
  currency,
  disputeDecide,
  disputeOpen,
  index,
  partnerClaim,
  payoutOutcome,
  race,
  refund,
  release,
  scheduledRun,
  twice,
  user,
  withdraw,
  writeOff,
} from "./model-arbitraries.ts";
import { Buy, concurrently, PayoutOutcome, pick, ReleaseHolds, Withdraw } from "./model-commands.ts";
import type { ConnectModel, Submission } from "./model-connect.ts";
import {
  type ConnectWorld,
  connectEventBody,
  deliverPayoutEvent,
  lastEventBody,
  submissionKey,
} from "./model-connect-world.ts";
import { runJobs } from "./model-jobs.ts";
import { AdminRefund } from "./model-refunds.ts";
import { checkInvariants, resultOf } from "./model-world.ts";

/*
 * The operations of the Connect run (issue 32): the submission job, which the run holds until one
 * of these lets it run, and Stripe's outcomes, delivered as Stripe delivers them. Each is applied to
 * the API, the fake Stripe and the model, then every invariant is checked.
 */

export type ConnectCmd = fc.AsyncCommand<ConnectModel, ConnectWorld>;

/** What Stripe's side went through in this process's runs, for the report: how often each path ran. */
export const stripePaths = new Map<string, number>();
const went = (path: string) => stripePaths.set(path, (stripePaths.get(path) ?? 0) + 1);

/** Every ordering of `items` (a payee has at most one open payout per currency: three at most). */
const orderings = <T>(items: readonly T[]): T[][] =>
  items.length <= 1
    ? [[...items]]
    : items.flatMap((item, i) =>
        orderings([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
      );

/**
 * The submission jobs of `chosen` (all awaiting it) ran, at once: each payee's outcomes must be those
 * of some order of its jobs (a payout failed back repays a debt, which may let the next one go), as
 * the payouts' rows show them; the model follows that order.
 */
async function applySubmissions(m: ConnectModel, w: ConnectWorld, chosen: readonly ModelPayout[]) {
  if (chosen.length === 0) return;
  const rows = await w.ctx.database.db
    .select({ id: payouts.id, status: payouts.status, stripeId: payouts.providerPayoutId })
    .from(payouts)
    .where(
      inArray(
        payouts.id,
        chosen.map((p) => p.id),
      ),
    );
  const row = (id: string) => rows.find((r) => r.id === id);
  const observed = (s: Submission) => {
    const r = row(s.payout.id);
    return s.outcome === "sent" ? r?.status === "processing" && r.stripeId !== null : r?.status === "failed";
  };
  for (const payee of new Set(chosen.map((p) => p.user))) {
    const own = chosen.filter((p) => p.user === payee);
    const fits = orderings(own).find((order) => {
      const c = m.clone();
      const same = order.map((p) => {
        const copy = c.payouts.find((q) => q.id === p.id);
        if (!copy) throw new Error(`payout ${p.id} not in the model's copy`);
        return copy;
      });
      return c.submitInOrder(same).every(observed);
    });
    const seen = own.map((p) => `${p.currency} ${row(p.id)?.status} ${row(p.id)?.stripeId ?? "-"}`);
    expect(fits, `no order of u${payee}'s submissions explains: ${seen.join(", ")}`).toBeDefined();
    for (const s of m.submitInOrder(fits ?? [])) {
      went(s.outcome === "sent" ? "submitted" : "failed back (payee owing)");
      const stripeId = row(s.payout.id)?.stripeId;
      if (s.outcome === "sent" && stripeId) m.submitted(s.payout, stripeId);
    }
  }
}

/**
 * The submission job runs: of every payout approved and not yet submitted ("all": and of the
 * others, which find nothing to do), or of one of them. A payee who owes money has the payout
 * failed back into the balance, without any transfer; the others' are transferred and paid out.
 */
export class SubmitPayouts implements ConnectCmd {
  constructor(readonly p: { payout: number | "all" }) {}
  check = () => true;
  async run(m: ConnectModel, w: ConnectWorld) {
    const waiting = m.payouts.filter(m.awaitingSubmission);
    const chosen =
      this.p.payout === "all" ? waiting : waiting.length > 0 ? [pick(waiting, this.p.payout)] : [];
    const released = this.p.payout === "all" ? m.payouts : chosen;
    await runJobs(
      w,
      released.map((p) => submissionKey(p.id)),
    );
    await applySubmissions(m, w, chosen);
    await checkInvariants(w, m);
  }
  toString = () => `submitPayouts(${this.p.payout === "all" ? "all" : `waiting ${this.p.payout}`})`;
}

/** A payout a refusal can meet at its submission: approved, not submitted, its payee owing nothing. */
const refusable = (m: Readonly<ConnectModel>) =>
  m.payouts.filter((p) => m.awaitingSubmission(p) && !m.owes(p.user));

/**
 * Stripe refuses a payout after its transfer (a 400 on POST /v1/payouts) when its job runs: the
 * transfer is taken back and the payout fails, its amount back in the balance.
 */
export class StripePayoutRefusedAfterTransfer implements ConnectCmd {
  constructor(readonly p: { payout: number }) {}
  check = (m: Readonly<ConnectModel>) => refusable(m).length > 0;
  async run(m: ConnectModel, w: ConnectWorld) {
    const payout = pick(refusable(m), this.p.payout);
    w.fake.failures.push({
      route: "POST /v1/payouts",
      status: 400,
      error: {
        type: "invalid_request_error",
        code: "bank_account_restricted",
        message: "The bank account cannot receive payouts.",
      },
    });
    await runJobs(w, [submissionKey(payout.id)]);
    expect(w.fake.failures.splice(0), "the refusal was met").toEqual([]);
    m.refusedAfterTransfer(payout);
    went("refused after transfer");
    await checkInvariants(w, m);
  }
  toString = () => `stripeRefusedAfterTransfer(payout ${this.p.payout})`;
}

/**
 * The bank sends a paid payout back days later (Stripe's `payout.failed` after `payout.paid`),
 * delivered `times` at once: its transfer is taken back from the connected account, then the amount
 * returns to the balance (repaying a debt first), once.
 */
export class StripePayoutReturned implements ConnectCmd {
  constructor(readonly p: { payout: number; times: number }) {}
  check = (m: Readonly<ConnectModel>) => m.payouts.some(m.paidAtStripe);
  async run(m: ConnectModel, w: ConnectWorld) {
    const payout = pick(m.payouts.filter(m.paidAtStripe), this.p.payout);
    const stripeId = m.factsOf(payout).stripeId;
    if (!stripeId) throw new Error("a paid payout at Stripe without its id");
    w.fake.returnPaidPayout(stripeId);
    await deliverOnce(w, lastEventBody(w, "payout.failed", stripeId), this.p.times);
    m.stripeReturned(payout);
    went("returned after paid");
    await checkInvariants(w, m);
  }
  toString = () => `stripeReturned(payout ${this.p.payout}, ×${this.p.times})`;
}

/** One of the payouts Stripe holds (sent, not settled), and Stripe's id of it. */
const atStripe = (m: ConnectModel, index: number) => {
  const payout = pick(m.payouts.filter(m.atStripe), index);
  const stripeId = m.factsOf(payout).stripeId;
  if (!stripeId) throw new Error("a payout at Stripe without its id");
  return { payout, stripeId };
};

/** `body` delivered `times` at once: applied once, the others duplicates. */
async function deliverOnce(w: ConnectWorld, body: string, times: number) {
  const results = await concurrently(times, () => deliverPayoutEvent(w, body));
  expect(results.map(resultOf).sort(), "payout event deliveries").toEqual(
    ["applied", ...Array(times - 1).fill("duplicate")].sort(),
  );
  w.payoutEvents.set(String(JSON.parse(body).id), body);
}

/** The bank took a payout Stripe holds: `payout.paid`, delivered `times` at once. */
export class StripePayoutPaid implements ConnectCmd {
  constructor(readonly p: { payout: number; times: number }) {}
  check = (m: Readonly<ConnectModel>) => m.payouts.some(m.atStripe);
  async run(m: ConnectModel, w: ConnectWorld) {
    const { payout, stripeId } = atStripe(m, this.p.payout);
    w.fake.payPayout(stripeId);
    await deliverOnce(w, lastEventBody(w, "payout.paid", stripeId), this.p.times);
    m.stripePaid(payout);
    went("paid");
    await checkInvariants(w, m);
  }
  toString = () => `stripePaid(payout ${this.p.payout}, ×${this.p.times})`;
}

/**
 * The bank sent a payout back: `payout.failed`, delivered `times` at once. Its transfer is taken
 * back from the connected account, then the amount returns to the balance (repaying a debt first).
 */
export class StripePayoutFailed implements ConnectCmd {
  constructor(readonly p: { payout: number; times: number }) {}
  check = (m: Readonly<ConnectModel>) => m.payouts.some(m.atStripe);
  async run(m: ConnectModel, w: ConnectWorld) {
    const { payout, stripeId } = atStripe(m, this.p.payout);
    w.fake.failPayout(stripeId, { code: "account_closed", message: "The bank account has been closed." });
    await deliverOnce(w, lastEventBody(w, "payout.failed", stripeId), this.p.times);
    m.stripeFailed(payout);
    went("failed");
    await checkInvariants(w, m);
  }
  toString = () => `stripeFailed(payout ${this.p.payout}, ×${this.p.times})`;
}

/**
 * `payout.failed` delivered before the money is back on the connected account: refused (5xx, for
 * Stripe to deliver it again) and nothing changes. Then the bank's failure lands, Stripe's retry of
 * that event is applied, and the fake's own event of the same failure (another id) changes nothing.
 */
export class StripePayoutFailedEarly implements ConnectCmd {
  constructor(readonly p: { payout: number }) {}
  check = (m: Readonly<ConnectModel>) => m.payouts.some(m.atStripe);
  async run(m: ConnectModel, w: ConnectWorld) {
    const { payout, stripeId } = atStripe(m, this.p.payout);
    const remote = w.fake.payouts.get(stripeId);
    if (!remote) throw new Error(`no payout ${stripeId} at the fake`);
    const early = connectEventBody("payout.failed", {
      ...structuredClone(remote),
      status: "failed",
      failure_code: "could_not_process",
      failure_message: "The bank could not process this payout.",
    });
    const refused = await deliverPayoutEvent(w, early);
    expect(refused.statusCode, `early payout.failed: ${refused.body}`).toBeGreaterThanOrEqual(500);
    await checkInvariants(w, m);

    w.fake.failPayout(stripeId, { code: "could_not_process" });
    const own = lastEventBody(w, "payout.failed", stripeId);
    await deliverOnce(w, early, 1);
    m.stripeFailed(payout);
    went("failed, delivered early");
    expect(resultOf(await deliverPayoutEvent(w, own)), "a second event of that failure").toBe("ignored");
    w.payoutEvents.set(String(JSON.parse(own).id), own);
    await checkInvariants(w, m);
  }
  toString = () => `stripeFailedEarly(payout ${this.p.payout})`;
}

/** A payout event of the run delivered again, later (Stripe retries what it thinks was lost). */
export class RedeliverPayoutEvent implements ConnectCmd {
  constructor(readonly p: { event: number }) {}
  check = (m: Readonly<ConnectModel>) => m.payouts.some((p) => p.status !== "processing" && m.sent(p));
  async run(m: ConnectModel, w: ConnectWorld) {
    const body = pick([...w.payoutEvents.values()], this.p.event);
    expect(resultOf(await deliverPayoutEvent(w, body)), "a payout event again").toBe("duplicate");
    went("redelivered");
    await checkInvariants(w, m);
  }
  toString = () => `redeliverPayoutEvent(${this.p.event})`;
}

type Story = "paid" | "failed" | "failedEarly" | "refused" | "owing" | "left";

/**
 * A payout's whole life through Stripe, each step a command of its own and checked (random draws
 * reach these orders of steps too rarely): a sale, released, withdrawn whole, approved; then
 * "owing": a refund of that sale leaves the payee owing money before the submission job runs, which
 * fails the payout back into the balance (repaying the debt first) and transfers nothing;
 * "refused": Stripe refuses the payout after its transfer; else submitted, perhaps refunded while
 * at Stripe (the payee then owes money), and paid, failed, failed before the money is back, or
 * "left" at Stripe for later operations to settle.
 */
export class PayoutStory implements ConnectCmd {
  constructor(
    readonly p: {
      seller: number;
      price: number;
      currency: Currency;
      story: Story;
      refundAtStripe: boolean;
      /** Stripe's outcome delivered this many times at once. */
      times: number;
    },
  ) {}
  check = () => true;
  async run(m: ConnectModel, w: ConnectWorld) {
    const { seller, currency, story } = this.p;
    await new Buy({ seller, price: this.p.price, currency }).run(m, w);
    const order = m.orders.length - 1;
    await new ReleaseHolds({ orders: [order], early: false }).run(m, w);
    await new Withdraw({ user: seller, currency, amount: null, times: 1 }).run(m, w);
    // This payout, or one of that currency already open.
    const payout = m.openPayout(seller, currency);
    if (!payout) return;
    if (payout.status === "requested")
      await new PayoutOutcome({ payout: m.payouts.indexOf(payout), action: "approve", times: 1 }).run(m, w);
    if (story === "refused") {
      const candidates = refusable(m);
      if (candidates.includes(payout))
        await new StripePayoutRefusedAfterTransfer({ payout: candidates.indexOf(payout) }).run(m, w);
      return;
    }
    if (story === "owing") await new AdminRefund({ order, times: 1 }).run(m, w);
    const waiting = m.payouts.filter(m.awaitingSubmission);
    if (waiting.includes(payout)) await new SubmitPayouts({ payout: waiting.indexOf(payout) }).run(m, w);
    if (story === "owing") return;
    if (this.p.refundAtStripe) await new AdminRefund({ order, times: 1 }).run(m, w);
    const sent = m.payouts.filter(m.atStripe);
    if (story === "left" || !sent.includes(payout)) return;
    const at = { payout: sent.indexOf(payout), times: this.p.times };
    if (story === "paid") await new StripePayoutPaid(at).run(m, w);
    else if (story === "failed") await new StripePayoutFailed(at).run(m, w);
    else await new StripePayoutFailedEarly(at).run(m, w);
  }
  toString = () =>
    `payoutStory(u${this.p.seller}, ${this.p.price} ${this.p.currency}, ${this.p.story}${this.p.refundAtStripe ? ", refunded at Stripe" : ""}${this.p.times > 1 ? `, ×${this.p.times}` : ""})`;
}

const story = fc
  .record({
    seller: user,
    price: bigPrice,
    currency,
    story: fc.constantFrom<Story>("paid", "failed", "failedEarly", "refused", "owing", "left", "left"),
    refundAtStripe: fc.boolean(),
    times: twice,
  })
  .map((p): ConnectCmd => new PayoutStory(p));

/**
 * The Connect run's operations: the existing run's sales, releases, claims, refunds, chargebacks,
 * withdrawals and operators' steps (marking paid is now always refused), weighted so that payouts
 * reach Stripe, and this run's own, about a third of the draws.
 */
export const connectCommands: fc.Arbitrary<ConnectCmd>[] = [
  buy,
  buy,
  buy,
  release,
  release,
  withdraw,
  withdraw,
  withdraw,
  scheduledRun,
  payoutOutcome,
  payoutOutcome,
  claim,
  partnerClaim,
  refund,
  race,
  disputeOpen,
  disputeDecide,
  writeOff,
  alreadyLeft,
  fc.constant(new SubmitPayouts({ payout: "all" })),
  fc.constant(new SubmitPayouts({ payout: "all" })),
  fc.constant(new SubmitPayouts({ payout: "all" })),
  index.map((payout): ConnectCmd => new SubmitPayouts({ payout })),
  fc.record({ payout: index, times: twice }).map((p): ConnectCmd => new StripePayoutPaid(p)),
  fc.record({ payout: index, times: twice }).map((p): ConnectCmd => new StripePayoutPaid(p)),
  fc.record({ payout: index, times: twice }).map((p): ConnectCmd => new StripePayoutFailed(p)),
  fc.record({ payout: index, times: twice }).map((p): ConnectCmd => new StripePayoutFailed(p)),
  index.map((payout): ConnectCmd => new StripePayoutFailedEarly({ payout })),
  index.map((payout): ConnectCmd => new StripePayoutRefusedAfterTransfer({ payout })),
  fc.record({ payout: index, times: twice }).map((p): ConnectCmd => new StripePayoutReturned(p)),
  story,
  story,
  story,
  story,
  index.map((event): ConnectCmd => new RedeliverPayoutEvent({ event })),
];
