import { randomBytes } from "node:crypto";
import type { Currency } from "@salelink/contracts";
import { and, inArray, isNull } from "drizzle-orm";
import { expect } from "vitest";
import { connectBalanceMismatches, payouts, stripeConnectAccounts } from "../../src/db/schema/index.ts";
import { reconcileAccount } from "../../src/modules/payouts/reconcile.ts";
import { submitPayoutJob } from "../../src/modules/payouts/submit-job.ts";
import { signPayload } from "../../src/providers/payments/signature.ts";
import type { TestContext } from "../support/app.ts";
import { SECRET_KEY, type startFakeStripe } from "../support/fake-stripe.ts";
import type { MoneyModel } from "./model.ts";
import { ConnectModel } from "./model-connect.ts";
import { newRun } from "./model-run.ts";
import type { World } from "./model-world.ts";

/*
 * The real side of the Connect run (money/invariants-connect.test.ts): the app pays out through
 * Stripe Connect against the fake Stripe, whose Connect events the run delivers itself, signed with
 * the Connect endpoint's secret; and the invariants of what Stripe holds, after every step.
 */

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

export interface ConnectWorld extends World {
  fake: FakeStripe;
  /** Every payout event delivered in the run, its body as Stripe sent it, by id. */
  payoutEvents: Map<string, string>;
}

const CONNECT_SECRET = "whsec_money_model_connect";

/** The app's payout settings: Stripe Connect at the fake (payments stay the sandbox's). */
export const connectSettings = (fake: FakeStripe): Record<string, string> => ({
  PAYOUT_PROVIDER: "stripe",
  STRIPE_SECRET_KEY: SECRET_KEY,
  STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET,
  STRIPE_API_URL: fake.url,
});

/** The submission job's dedupe key: what a command names to let that payout's job run. */
export const submissionKey = (payoutId: string) => `${submitPayoutJob.kind}:${payoutId}`;

/** A run's start: fresh accounts, the fake emptied, submissions held until a command runs them. */
export async function newConnectRun(ctx: TestContext, admin: string, fake: FakeStripe) {
  fake.reset();
  const { world, model } = await newRun(ctx, admin, ConnectModel);
  const real: ConnectWorld = {
    ...world,
    fake,
    payoutEvents: new Map(),
    heldJobs: [submitPayoutJob.kind],
  };
  real.checks = (m) => checkConnect(real, m);
  return { model, real };
}

/** A Connect event as Stripe sends it: about a connected account's object, at that account. */
export function connectEventBody(type: string, object: Record<string, unknown>): string {
  return JSON.stringify({
    id: `evt_${randomBytes(8).toString("hex")}`,
    object: "event",
    account: object.account,
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object },
  });
}

/** The event the fake recorded last: the one its helper (payPayout, failPayout) just made. */
export function lastEventBody(w: ConnectWorld, type: string, stripeId: string): string {
  const event = w.fake.events.at(-1) as { type?: string; data?: { object?: { id?: string } } } | undefined;
  expect([event?.type, event?.data?.object?.id], "the fake's last event").toEqual([type, stripeId]);
  return JSON.stringify(event);
}

/** One delivery to the Connect endpoint, signed now (Stripe signs each attempt anew). */
export function deliverPayoutEvent(w: ConnectWorld, body: string) {
  return w.ctx.app.inject({
    method: "POST",
    url: "/webhooks/payouts/stripe",
    headers: {
      "content-type": "application/json",
      "stripe-signature": signPayload(Buffer.from(body), CONNECT_SECRET, Math.floor(Date.now() / 1000)),
    },
    payload: body,
  });
}

/** A connected account's balance as Stripe's API answers it (non-zero ones, per currency). */
async function balanceAt(fake: FakeStripe, accountId: string): Promise<Map<Currency, number>> {
  const res = await fetch(`${fake.url}/v1/balance`, {
    headers: { authorization: `Bearer ${SECRET_KEY}`, "stripe-account": accountId },
  });
  expect(res.status, `balance of ${accountId}`).toBe(200);
  const { available, pending } = (await res.json()) as Record<
    "available" | "pending",
    { amount: number; currency: string }[]
  >;
  const out = new Map<Currency, number>();
  for (const b of [...available, ...pending]) {
    const currency = b.currency.toUpperCase() as Currency;
    out.set(currency, (out.get(currency) ?? 0) + b.amount);
  }
  return new Map([...out].filter(([, amount]) => amount !== 0));
}

type Remote = Record<string, unknown>;
const ofPayout = (objects: Map<string, Remote>, payoutId: string) =>
  [...objects.values()].filter(
    (o) => (o.metadata as Record<string, string> | undefined)?.payoutId === payoutId,
  );

/**
 * What Stripe holds, against the model, after every step: each payout's row (status, Stripe's
 * payout id); at Stripe, one transfer per payout submitted, less its reversals: the amount while
 * the payout is sent or paid, 0 once it failed (taken back once), and Stripe's payout in the
 * model's state; one connected account per payee, the one saved; each connected account's balance
 * per currency the model's (nothing once submissions ran: money is never both back in the balance
 * and on the account or paid out); and the API's own reconciliation finds nothing unexplained.
 */
async function checkConnect(w: ConnectWorld, m: MoneyModel): Promise<void> {
  if (!(m instanceof ConnectModel)) throw new Error("the Connect run needs the Connect model");
  const { db } = w.ctx.database;
  const { fake } = w;
  const ids = w.users.map((u) => u.id);
  const [accounts, rows] = await Promise.all([
    db.select().from(stripeConnectAccounts).where(inArray(stripeConnectAccounts.userId, ids)),
    db
      .select({ id: payouts.id, status: payouts.status, stripeId: payouts.providerPayoutId })
      .from(payouts)
      .where(inArray(payouts.userId, ids)),
  ]);
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
  expect(rows.sort(byId), "payouts: status and Stripe's payout").toEqual(
    m.payouts.map((p) => ({ id: p.id, status: p.status, stripeId: m.factsOf(p).stripeId })).sort(byId),
  );

  for (const [index, p] of m.payouts.entries()) {
    const facts = m.factsOf(p);
    const transfers = ofPayout(fake.transfers, p.id);
    expect(transfers.length, `payout ${index}: transfers`).toBe(facts.transferred ? 1 : 0);
    const net = transfers.reduce((sum, t) => sum + Number(t.amount) - Number(t.amount_reversed), 0);
    expect(net, `payout ${index} (${p.status}): transferred less reversed`).toBe(m.transferNet(p));
    expect(ofPayout(fake.reversals, p.id).length, `payout ${index}: reversals`).toBe(facts.reversed ? 1 : 0);
    const remote = ofPayout(fake.payouts, p.id).map((r) => ({ id: r.id, status: r.status }));
    const status = m.stripeStatus(p);
    expect(remote, `payout ${index}: Stripe's payout`).toEqual(
      status ? [{ id: facts.stripeId, status }] : [],
    );
  }

  const saved = new Map(accounts.map((a) => [a.userId, a.accountId]));
  for (const [index, user] of w.users.entries()) {
    const accountId = saved.get(user.id);
    const atStripe = [...fake.accounts.values()]
      .filter((a) => (a.metadata as Record<string, string>).userId === user.id)
      .map((a) => a.id);
    expect(atStripe, `u${index}: connected accounts`).toEqual(accountId ? [accountId] : []);
    if (!accountId) continue;
    expect(await balanceAt(fake, accountId), `u${index}: connected account's balance`).toEqual(
      m.connectedBalance(index),
    );
    await db.transaction((tx) =>
      reconcileAccount(tx, w.ctx.app.services.payouts, { userId: user.id, accountId }),
    );
  }
  const accountIds = [...saved.values(), "none"];
  const found = await db
    .select({ accountId: connectBalanceMismatches.accountId, currency: connectBalanceMismatches.currency })
    .from(connectBalanceMismatches)
    .where(
      and(
        inArray(connectBalanceMismatches.accountId, accountIds),
        isNull(connectBalanceMismatches.resolvedAt),
      ),
    );
  expect(found, "the reconciliation's findings").toEqual([]);
}
