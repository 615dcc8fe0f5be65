import { randomBytes, randomUUID } from "node:crypto";
import type { AdminPayout, BankAccount, Payout } from "@salelink/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { ConfigError } from "../../src/config.ts";
import {
  bankAccounts,
  jobs,
  ledgerBalances,
  ledgerTransactions,
  payoutEvents,
  payouts,
  stripeConnectAccounts,
} from "../../src/db/schema/index.ts";
import { submitPayout } from "../../src/modules/payouts/events.ts";
import { auditLedger, post } from "../../src/modules/wallet/ledger.ts";
import { holdReleased, orderPaid, splitSale } from "../../src/modules/wallet/postings.ts";
import { signPayload } from "../../src/providers/payments/signature.ts";
import { WebhookSignatureError } from "../../src/providers/payments/types.ts";
import {
  createPayoutProvider,
  type PayoutProviderStore,
  payoutsEnvSchema,
} from "../../src/providers/payouts/index.ts";
import {
  accountWithSession,
  directSessionCookie,
  insertAccount,
  insertApprovedIdentity,
} from "../support/accounts.ts";
import { dbKind, type TestContext, testApp, testConfig } from "../support/app.ts";
import { SECRET_KEY, startFakeStripe } from "../support/fake-stripe.ts";

const CONNECT_SECRET = "whsec_fake_connect_secret";
const IBAN = "DE89370400440532013000";

let fake: Awaited<ReturnType<typeof startFakeStripe>>;
let ctx: TestContext;
let admin: string;

const call = (method: "GET" | "POST", url: string, cookie?: string, payload?: object) =>
  ctx.app.inject({
    method,
    url,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload ? { payload } : {}),
  });

async function creator(balanceMinor: number) {
  const account = await insertAccount(ctx.database, { onboarded: true });
  await insertApprovedIdentity(ctx.database, account.id);
  const cookie = await directSessionCookie(ctx.database, account.id);
  const bank = (
    await call("POST", "/profile/bank-accounts", cookie, { holderName: "Ada Lovelace", iban: IBAN })
  ).json<BankAccount>();
  const facts = {
    orderId: randomUUID(),
    creatorId: account.id,
    referrerId: null,
    partnerId: null,
    currency: "EUR" as const,
    split: splitSale(balanceMinor, 0, null),
    availableAt: new Date(Date.now() - 1000),
  };
  await ctx.database.db.transaction(async (tx) => {
    await post(tx, orderPaid(facts));
    await post(tx, holdReleased(facts));
  });
  return { id: account.id, cookie, bank };
}

/** A creator's payout, requested and approved; its submission runs with the jobs. */
async function approvedPayout(balanceMinor = 5000) {
  const c = await creator(balanceMinor);
  const res = await call("POST", "/profile/payout", c.cookie, { bankAccountId: c.bank.id });
  expect(res.statusCode, res.body).toBe(201);
  const payout = res.json<Payout>();
  const approved = await call("POST", `/admin/payouts/${payout.id}/approve`, admin);
  expect(approved.statusCode, approved.body).toBe(200);
  return { ...c, payout };
}

async function payoutRow(id: string) {
  const [row] = await ctx.database.db.select().from(payouts).where(eq(payouts.id, id));
  if (!row) throw new Error(`no payout ${id}`);
  return row;
}

async function available(userId: string): Promise<number> {
  const [row] = await ctx.database.db
    .select({ b: ledgerBalances.balanceMinor })
    .from(ledgerBalances)
    .where(and(eq(ledgerBalances.ownerId, userId), eq(ledgerBalances.account, "available")));
  return row?.b ?? 0;
}

async function postings(
  kind: (typeof ledgerTransactions.$inferSelect)["kind"],
  payoutId: string,
): Promise<number> {
  const rows = await ctx.database.db
    .select({ id: ledgerTransactions.id })
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.kind, kind), eq(ledgerTransactions.reference, payoutId)));
  return rows.length;
}

/** A Connect event as Stripe sends it: on the connected account, signed with the Connect secret. */
function connectEvent(
  type: "payout.paid" | "payout.failed",
  remote: Record<string, unknown>,
  options: { secret?: string; overrides?: Record<string, unknown> } = {},
) {
  const event = {
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
        ...options.overrides,
      },
    },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
  return deliveryOf(JSON.stringify(event), options.secret);
}

function deliveryOf(body: string, secret = CONNECT_SECRET) {
  const header = signPayload(Buffer.from(body), secret, Math.floor(Date.now() / 1000));
  return (extra: Record<string, string> = {}) =>
    ctx.app.inject({
      method: "POST",
      url: "/webhooks/payouts/stripe",
      headers: { "content-type": "application/json", "stripe-signature": header, ...extra },
      payload: body,
    });
}

function remotePayoutOf(providerPayoutId: string | null): Record<string, unknown> {
  const remote = fake.payouts.get(providerPayoutId ?? "");
  if (!remote) throw new Error(`no remote payout ${providerPayoutId}`);
  return remote;
}

const stripeEnv = () => ({
  PAYOUT_PROVIDER: "stripe",
  STRIPE_SECRET_KEY: SECRET_KEY,
  STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET,
  STRIPE_API_URL: fake.url,
});

beforeAll(async () => {
  fake = await startFakeStripe();
  ctx = await testApp(stripeEnv());
  admin = (await accountWithSession(ctx.database, { onboarded: true, role: "admin" })).cookie;
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
beforeEach(() => fake.reset());

describe(`Stripe Connect payouts (${dbKind})`, () => {
  it("creates the account, the IBAN, the transfer and the payout once each, even submitted twice", async () => {
    const { id: userId, bank, payout } = await approvedPayout(5000);
    const config = ctx.config;
    const provider = ctx.app.services.payouts;
    expect(provider.kind).toBe("stripe");
    // Submitted again (a retried job, a second worker): the second run finds it already submitted.
    await ctx.database.db.transaction((tx) => submitPayout(tx, config, provider, payout.id));
    expect(await ctx.database.db.transaction((tx) => submitPayout(tx, config, provider, payout.id))).toBe(
      "skipped",
    );
    // The queued job too finds nothing left to do.
    await ctx.app.services.jobs.worker.runDue();
    expect(fake.accounts.size).toBe(1);
    expect(fake.externalAccounts.size).toBe(1);
    expect(fake.transfers.size).toBe(1);
    expect(fake.payouts.size).toBe(1);

    const [account] = [...fake.accounts.values()];
    expect(account).toMatchObject({ type: "custom", country: "DE", metadata: { userId } });
    const [external] = [...fake.externalAccounts.values()];
    expect(external).toMatchObject({ account: account?.id, last4: "3000", currency: "eur" });
    const [transfer] = [...fake.transfers.values()];
    expect(transfer).toMatchObject({
      amount: 5000,
      currency: "eur",
      destination: account?.id,
      metadata: { payoutId: payout.id },
    });
    const row = await payoutRow(payout.id);
    expect(remotePayoutOf(row.providerPayoutId)).toMatchObject({
      account: account?.id,
      destination: external?.id,
      amount: 5000,
      metadata: { payoutId: payout.id },
    });
    expect(row.status).toBe("processing");
    const [connected] = await ctx.database.db
      .select()
      .from(stripeConnectAccounts)
      .where(eq(stripeConnectAccounts.userId, userId));
    expect(connected?.accountId).toBe(account?.id);
    const [saved] = await ctx.database.db.select().from(bankAccounts).where(eq(bankAccounts.id, bank.id));
    expect(saved?.stripeExternalAccountId).toBe(external?.id);
    // Every call carried a key derived from our ids; the payout was made on the connected account.
    const calls = fake.requests.filter((r) => r.method === "POST");
    expect(calls.every((r) => r.idempotencyKey?.startsWith("salelink-"))).toBe(true);
    expect(calls.find((r) => r.path === "/v1/payouts")?.stripeAccount).toBe(account?.id);
  });

  it("replays Stripe's first answers when a submission is repeated after its effects were lost", async () => {
    const provider = createPayoutProvider(payoutsEnvSchema.parse(stripeEnv()));
    const saved: string[] = [];
    // A store that forgets, as a rolled-back job transaction would.
    const forgetful: PayoutProviderStore = {
      connectAccountOf: async () => null,
      saveConnectAccount: async (_user, id) => void saved.push(id),
      saveExternalAccount: async (_bank, id) => void saved.push(id),
      manualPayoutsSet: async () => false,
      markManualPayouts: async () => undefined,
      bankAnswersLater: async () => {
        throw new Error("only the sandbox's bank answers later");
      },
    };
    const payout = {
      payoutId: randomUUID(),
      userId: randomUUID(),
      amountMinor: 1200,
      currency: "EUR" as const,
    };
    const destination = {
      kind: "iban" as const,
      bankAccountId: randomUUID(),
      holderName: "Ada Lovelace",
      iban: IBAN,
      bic: null,
      country: "DE",
      currency: "EUR" as const,
      stripeExternalAccountId: null,
    };
    const first = await provider.submit(payout, destination, forgetful);
    const second = await provider.submit(payout, destination, forgetful);
    expect(second).toEqual(first);
    expect([fake.accounts.size, fake.externalAccounts.size, fake.transfers.size, fake.payouts.size]).toEqual([
      1, 1, 1, 1,
    ]);
    expect(new Set(saved).size).toBe(2);
  });

  it("applies payout.paid once, however often it is delivered", async () => {
    const { id: userId, payout } = await approvedPayout(3000);
    await ctx.app.services.jobs.worker.runDue();
    const row = await payoutRow(payout.id);
    const deliver = connectEvent("payout.paid", remotePayoutOf(row.providerPayoutId));
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => deliver()));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((r) => r.json<{ result: string }>().result).sort()).toEqual([
      "applied",
      "duplicate",
      "duplicate",
      "duplicate",
      "duplicate",
    ]);
    expect((await payoutRow(payout.id)).status).toBe("paid");
    expect(await postings("payout_paid", payout.id)).toBe(1);
    expect(await available(userId)).toBe(0);
    // Another event saying the same thing changes nothing either.
    const again = await connectEvent("payout.paid", remotePayoutOf(row.providerPayoutId))();
    expect(again.json<{ result: string }>().result).toBe("ignored");
    // A failure after it while the money is not back on the connected account: refused (Stripe
    // delivers it again), nothing moves (a return once it is back: the test below).
    const late = await connectEvent("payout.failed", remotePayoutOf(row.providerPayoutId))();
    expect(late.statusCode).toBeGreaterThanOrEqual(500);
    expect(await postings("payout_failed", payout.id)).toBe(0);
    expect(await postings("payout_returned", payout.id)).toBe(0);
    expect((await payoutRow(payout.id)).status).toBe("paid");
    // An operator cannot fail or pay it by hand: Stripe reports its outcome.
    expect(
      (await call("POST", `/admin/payouts/${payout.id}/fail`, admin, { reason: "Manual fail" })).statusCode,
    ).toBe(409);
  });

  it("refuses a delivery with a bad signature and records nothing", async () => {
    const { payout } = await approvedPayout(2000);
    await ctx.app.services.jobs.worker.runDue();
    const row = await payoutRow(payout.id);
    const forged = await connectEvent("payout.paid", remotePayoutOf(row.providerPayoutId), {
      secret: "whsec_someone_else",
    })();
    expect(forged.statusCode).toBe(400);
    expect(forged.json<{ message: string }>().message).toBe("The signature is not valid.");
    const unsigned = await ctx.app.inject({
      method: "POST",
      url: "/webhooks/payouts/stripe",
      headers: { "content-type": "application/json" },
      payload: "{}",
    });
    expect(unsigned.statusCode).toBe(400);
    expect((await payoutRow(payout.id)).status).toBe("processing");
    expect(
      await ctx.database.db.select().from(payoutEvents).where(eq(payoutEvents.payoutId, payout.id)),
    ).toEqual([]);
    const provider = ctx.app.services.payouts;
    expect(() => provider.parseWebhook(Buffer.from("{}"), { "stripe-signature": "t=1,v1=abc" })).toThrow(
      WebhookSignatureError,
    );
  });

  it("payout.failed takes the transfer back, then returns the money once, with the bank's reason", async () => {
    const { id: userId, cookie, payout } = await approvedPayout(2500);
    await ctx.app.services.jobs.worker.runDue();
    const row = await payoutRow(payout.id);
    const deliver = connectEvent("payout.failed", remotePayoutOf(row.providerPayoutId));
    // Delivered before Stripe has the money back on the connected account: refused, nothing
    // recorded, so Stripe's next delivery applies it (issue 32: never returned while it sits there).
    const early = await deliver();
    expect(early.statusCode).toBeGreaterThanOrEqual(500);
    expect(await postings("payout_failed", payout.id)).toBe(0);
    expect((await payoutRow(payout.id)).status).toBe("processing");
    fake.failPayout(row.providerPayoutId ?? "");
    expect((await deliver()).json<{ result: string }>().result).toBe("applied");
    const [transfer] = [...fake.transfers.values()];
    expect(transfer).toMatchObject({ amount: 2500, amount_reversed: 2500, reversed: true });
    expect((await deliver()).json<{ result: string }>().result).toBe("duplicate");
    const failed = await payoutRow(payout.id);
    expect(failed).toMatchObject({ status: "failed", failureReason: "The bank account has been closed." });
    expect(await postings("payout_failed", payout.id)).toBe(1);
    expect(await available(userId)).toBe(2500);
    const history = (await call("GET", "/profile/transfers", cookie)).json<{ items: Payout[] }>();
    expect(history.items[0]).toMatchObject({
      status: "failed",
      failureReason: "The bank account has been closed.",
    });
  });

  it("a paid payout the bank sends back later: its transfer is taken back, the money returns once", async () => {
    const { id: userId, payout } = await approvedPayout(3000);
    await ctx.app.services.jobs.worker.runDue();
    const row = await payoutRow(payout.id);
    fake.payPayout(row.providerPayoutId ?? "");
    expect((await connectEvent("payout.paid", remotePayoutOf(row.providerPayoutId))()).json()).toMatchObject({
      result: "applied",
    });
    expect(await available(userId)).toBe(0);
    fake.returnPaidPayout(row.providerPayoutId ?? "");
    const returned = connectEvent("payout.failed", remotePayoutOf(row.providerPayoutId));
    expect((await returned()).json()).toMatchObject({ result: "applied" });
    expect((await returned()).json()).toMatchObject({ result: "duplicate" });
    expect(await payoutRow(payout.id)).toMatchObject({
      status: "failed",
      failureReason: "The bank account has been closed.",
    });
    expect(await postings("payout_paid", payout.id)).toBe(1);
    expect(await postings("payout_returned", payout.id)).toBe(1);
    expect(await postings("payout_failed", payout.id)).toBe(0);
    expect(await available(userId)).toBe(3000);
    const [transfer] = [...fake.transfers.values()];
    expect(transfer).toMatchObject({ amount: 3000, amount_reversed: 3000 });
    expect(await auditLedger(ctx.database.db)).toEqual({
      unbalancedTransactions: [],
      balancesNotMatchingEntries: [],
      negativeBalances: [],
    });
  });

  it("ignores an event from another connected account than the payee's", async () => {
    const { payout } = await approvedPayout(2000);
    await ctx.app.services.jobs.worker.runDue();
    const remote = remotePayoutOf((await payoutRow(payout.id)).providerPayoutId);
    const res = await connectEvent("payout.paid", { ...remote, account: "acct_someone_else" })();
    expect(res.json<{ result: string }>().result).toBe("ignored");
    expect((await payoutRow(payout.id)).status).toBe("processing");
  });

  it("fails the payout when Stripe refuses it for good; retries when Stripe is down", async () => {
    const refused = await approvedPayout(2000);
    fake.failures.push({
      status: 400,
      error: {
        type: "invalid_request_error",
        code: "invalid_bank_account_iban",
        message: "The IBAN is invalid.",
      },
    });
    await ctx.app.services.jobs.worker.runDue();
    const failed = await payoutRow(refused.payout.id);
    expect(failed.status).toBe("failed");
    expect(failed.failureReason).toContain("invalid_bank_account_iban");
    expect(failed.failureReason).not.toContain(SECRET_KEY);
    expect(await available(refused.id)).toBe(2000);
    expect(await postings("payout_failed", refused.payout.id)).toBe(1);

    const retried = await approvedPayout(2000);
    // Two answers: the SDK's own retry with the same key, then the job's attempt fails.
    fake.failures.push(
      { status: 503, error: { type: "api_error", message: "Stripe is down" } },
      { status: 503, error: { type: "api_error", message: "Stripe is down" } },
    );
    await ctx.app.services.jobs.worker.runDue();
    expect(await payoutRow(retried.payout.id)).toMatchObject({
      status: "processing",
      providerPayoutId: null,
    });
    const [job] = await ctx.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `payouts.submit:${retried.payout.id}`));
    expect(job).toMatchObject({ status: "queued", attempts: 1 });
    await ctx.database.db
      .update(jobs)
      .set({ runAt: new Date() })
      .where(eq(jobs.id, job?.id ?? ""));
    await ctx.app.services.jobs.worker.runDue();
    const sent = await payoutRow(retried.payout.id);
    expect(sent.status).toBe("processing");
    expect(sent.providerPayoutId).toMatch(/^po_/);
    expect(fake.payouts.size).toBe(1);
    expect(await auditLedger(ctx.database.db)).toEqual({
      unbalancedTransactions: [],
      balancesNotMatchingEntries: [],
      negativeBalances: [],
    });
  });

  it("marks paid by hand only with the manual provider", async () => {
    const { payout } = await approvedPayout(2000);
    const res = await call("POST", `/admin/payouts/${payout.id}/paid`, admin);
    expect(res.statusCode).toBe(409);
    expect(
      (await call("GET", `/admin/payouts?status=processing`, admin))
        .json<{ items: AdminPayout[] }>()
        .items.map((p) => p.id),
    ).toContain(payout.id);
  });
});

describe("payout configuration", () => {
  it("needs the Connect webhook secret and the key for Stripe; manual is the default", () => {
    expect(testConfig().payouts.PAYOUT_PROVIDER).toBe("manual");
    expect(() => testConfig({ PAYOUT_PROVIDER: "stripe", STRIPE_SECRET_KEY: SECRET_KEY })).toThrow(
      ConfigError,
    );
    expect(() => testConfig({ PAYOUT_PROVIDER: "stripe", STRIPE_SECRET_KEY: SECRET_KEY })).toThrow(
      /STRIPE_CONNECT_WEBHOOK_SECRET: required when PAYOUT_PROVIDER is stripe/,
    );
    expect(() => testConfig({ PAYOUT_PROVIDER: "paypal" })).toThrow(/PAYOUT_PROVIDER/);
  });

  it("lets production pay by hand: the manual provider is not a sandbox", async () => {
    const config = testConfig({ NODE_ENV: "production", APP_SECRET: "a".repeat(32) });
    expect(config.payouts.PAYOUT_PROVIDER).toBe("manual");
    const refusal = await buildApp({ config, db: ctx.database.db }).then(
      () => "started",
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    // The sandbox payments are refused, naming each offender; the payouts are not among them.
    expect(refusal).toMatch(/payments \(sandbox\)/);
    expect(refusal).not.toMatch(/payouts/);
  });
});
