import { randomBytes } from "node:crypto";
import type { Payout, PayoutDetail } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { payouts } from "../../src/db/schema/index.ts";
import { signPayload } from "../../src/providers/payments/signature.ts";
import { accountWithSession, lastMail, mailsTo } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { SECRET_KEY, startFakeStripe } from "../support/fake-stripe.ts";
import { OTHER_IBAN, payoutCalls } from "./payout-fixtures.ts";

/* Issue 23: every step of a payout on its timeline, the failure e-mails, and no redirection. */

const CONNECT_SECRET = "whsec_fake_connect_secret";
let fake: Awaited<ReturnType<typeof startFakeStripe>>;
let manual: TestContext;
let stripe: TestContext;
let manualAdmin: string;
let stripeAdmin: string;

const steps = (d: PayoutDetail) => d.steps.map((s) => [s.step, s.detail]);

beforeAll(async () => {
  fake = await startFakeStripe();
  manual = await testApp();
  stripe = await testApp({
    PAYOUT_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET,
    STRIPE_API_URL: fake.url,
  });
  manualAdmin = (await accountWithSession(manual.database, { onboarded: true, role: "admin" })).cookie;
  stripeAdmin = (await accountWithSession(stripe.database, { onboarded: true, role: "admin" })).cookie;
});
afterAll(async () => {
  await manual.close();
  await stripe.close();
  await fake.close();
});
beforeEach(() => fake.reset());

/** A Connect event about the remote payout, signed as Stripe signs it. */
function connectEvent(type: "payout.paid" | "payout.failed", remote: Record<string, unknown>) {
  const body = JSON.stringify({
    id: `evt_${randomBytes(8).toString("hex")}`,
    object: "event",
    api_version: "2026-01-28.clover",
    account: remote.account,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        ...remote,
        status: type === "payout.paid" ? "paid" : "failed",
        ...(type === "payout.failed"
          ? { failure_code: "account_closed", failure_message: "The bank account has been closed." }
          : {}),
      },
    },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });
  const header = signPayload(Buffer.from(body), CONNECT_SECRET, Math.floor(Date.now() / 1000));
  return stripe.app.inject({
    method: "POST",
    url: "/webhooks/payouts/stripe",
    headers: { "content-type": "application/json", "stripe-signature": header },
    payload: body,
  });
}

async function remoteOf(id: string) {
  const [row] = await stripe.database.db.select().from(payouts).where(eq(payouts.id, id));
  const remote = fake.payouts.get(row?.providerPayoutId ?? "");
  if (!remote) throw new Error(`no remote payout for ${id}`);
  return remote as Record<string, unknown>;
}

describe(`a payout's timeline (${dbKind})`, () => {
  it("is its owner's only: 404 for anyone else and for an unknown id", async () => {
    const p = payoutCalls(manual);
    const c = await p.creator({ balance: 5000 });
    const payout = (
      await p.call("POST", "/profile/payout", c.cookie, { bankAccountId: c.bank.id })
    ).json<Payout>();
    const other = await p.creator();
    expect((await p.call("GET", `/profile/payouts/${payout.id}`, other.cookie)).statusCode).toBe(404);
    expect((await p.call("GET", `/profile/payouts/${payout.id}`)).statusCode).toBe(401);
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await p.call("GET", `/profile/payouts/${unknown}`, c.cookie)).statusCode).toBe(404);
  });

  it("by hand: requested, approved by the rules, paid with its bank reference", async () => {
    const p = payoutCalls(manual);
    const c = await p.creator({ balance: 5000, trusted: true });
    const payout = (
      await p.call("POST", "/profile/payout", c.cookie, { bankAccountId: c.bank.id })
    ).json<Payout>();
    expect((await p.call("POST", `/admin/payouts/${payout.id}/paid`, manualAdmin, {})).statusCode).toBe(200);
    const detail = await p.detail(c.cookie, payout.id);
    const reference = `${manual.config.PLATFORM_NAME} payout ${payout.id}`;
    expect(detail.bankReference).toBe(reference);
    expect(steps(detail)).toEqual([
      ["requested", {}],
      ["approved", { by: "rules" }],
      ["paid", { bankReference: reference }],
    ]);
  });

  it("an operator's refusal: failed with their reason, the money back, the creator e-mailed what to do", async () => {
    const p = payoutCalls(manual);
    const c = await p.creator({ balance: 5000, locale: "fr" });
    const payout = (
      await p.call("POST", "/profile/payout", c.cookie, { bankAccountId: c.bank.id })
    ).json<Payout>();
    const reason = "The holder's name does not match the account";
    const failed = await p.call("POST", `/admin/payouts/${payout.id}/fail`, manualAdmin, { reason });
    expect(failed.statusCode, failed.body).toBe(200);
    const detail = await p.detail(c.cookie, payout.id);
    expect(steps(detail).map(([s]) => s)).toEqual(["requested", "held", "failed"]);
    expect(detail.steps.at(-1)?.detail).toEqual({ reason });
    expect(await p.balance(c.id, "available")).toBe(5000);
    const mail = await lastMail(manual, c.email, "payout-failed");
    expect(mail.subject).toMatch(/^Votre virement de 50,00\s€ a échoué$/);
    expect(mail.text).toContain(`Motif donné par notre équipe : ${reason}`);
    expect(mail.text).toContain("vérifiez les coordonnées du compte bancaire");
    // Once: delivering the jobs again sends nothing more.
    expect((await mailsTo(manual, c.email)).filter((m) => m.template === "payout-failed")).toHaveLength(1);
    await p.ledgerHolds();
  });

  it("through Stripe: approved by the rules, sent with its reference, paid", async () => {
    const p = payoutCalls(stripe);
    const c = await p.creator({ balance: 5000, trusted: true });
    const payout = (
      await p.call("POST", "/profile/payout", c.cookie, { bankAccountId: c.bank.id })
    ).json<Payout>();
    expect(payout.status).toBe("processing");
    await stripe.app.services.jobs.worker.runDue();
    const sent = await p.detail(c.cookie, payout.id);
    const reference = `${stripe.config.PLATFORM_NAME} payout ${payout.id}`;
    expect(steps(sent)).toEqual([
      ["requested", {}],
      ["approved", { by: "rules" }],
      ["sent", { bankReference: reference }],
    ]);
    expect((await connectEvent("payout.paid", await remoteOf(payout.id))).statusCode).toBe(200);
    const paid = await p.detail(c.cookie, payout.id);
    expect(paid.status).toBe("paid");
    expect(steps(paid).at(-1)).toEqual(["paid", { bankReference: reference }]);
  });

  it("through Stripe: a bank's refusal fails it with the bank's reason, e-mailed with what to do", async () => {
    const p = payoutCalls(stripe);
    const c = await p.creator({ balance: 5000 });
    const payout = (
      await p.call("POST", "/profile/payout", c.cookie, { bankAccountId: c.bank.id })
    ).json<Payout>();
    expect((await p.call("POST", `/admin/payouts/${payout.id}/approve`, stripeAdmin, {})).statusCode).toBe(
      200,
    );
    await stripe.app.services.jobs.worker.runDue();
    // The bank sent it back: the money is on the connected account again, to be taken back first.
    const remote = await remoteOf(payout.id);
    fake.failPayout(String(remote.id));
    expect((await connectEvent("payout.failed", remote)).statusCode).toBe(200);
    const detail = await p.detail(c.cookie, payout.id);
    expect(steps(detail).map(([s]) => s)).toEqual(["requested", "held", "approved", "sent", "failed"]);
    expect(detail.steps[2]?.detail).toEqual({ by: "admin" });
    expect(detail.steps.at(-1)?.detail.reason).toBe(detail.failureReason);
    const mail = await lastMail(stripe, c.email, "payout-failed");
    expect(mail.text).toContain(`Reason: ${detail.failureReason}`);
    expect(mail.text).toContain("check the bank account's details");
    expect(await p.balance(c.id, "available")).toBe(5000);
  });
});

describe(`a bank account added during a payout (${dbKind})`, () => {
  it("does not redirect it: the payout keeps its account, the next one goes to the new", async () => {
    const p = payoutCalls(stripe);
    const c = await p.creator({ balance: 5000 });
    const payout = (
      await p.call("POST", "/profile/payout", c.cookie, { bankAccountId: c.bank.id })
    ).json<Payout>();
    const newer = await p.addBank(c.cookie, { holderName: "Someone Else", iban: OTHER_IBAN });
    expect((await p.call("POST", `/admin/payouts/${payout.id}/approve`, stripeAdmin, {})).statusCode).toBe(
      200,
    );
    await stripe.app.services.jobs.worker.runDue();
    const detail = await p.detail(c.cookie, payout.id);
    expect(detail.bankAccount).toEqual({
      id: c.bank.id,
      holderName: "Ada Lovelace",
      ibanMasked: "DE•• •••• 3000",
    });
    expect(detail.steps.at(-1)?.step).toBe("sent");
    // What Stripe was asked to pay into: the account of the request (…3000), not the newer one (…2606).
    const remote = await remoteOf(payout.id);
    const destination = fake.externalAccounts.get(String(remote.destination));
    expect(destination?.last4).toBe("3000");
    const [row] = await stripe.database.db.select().from(payouts).where(eq(payouts.id, payout.id));
    expect(row?.bankAccountId).toBe(c.bank.id);
    expect(newer.id).not.toBe(c.bank.id);
  });
});
