import { randomUUID } from "node:crypto";
import type { AdminPayoutMismatch, BankAccount, Payout } from "@salelink/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ledgerBalances, payouts, stripeConnectAccounts } from "../../src/db/schema/index.ts";
import { submitPayout } from "../../src/modules/payouts/events.ts";
import { reconcileAccount } from "../../src/modules/payouts/reconcile.ts";
import { auditLedger, post } from "../../src/modules/wallet/ledger.ts";
import { holdReleased, orderPaid, splitSale } from "../../src/modules/wallet/postings.ts";
import {
  accountWithSession,
  directSessionCookie,
  insertAccount,
  insertApprovedIdentity,
} from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { SECRET_KEY, startFakeStripe } from "../support/fake-stripe.ts";

/*
 * Stripe Connect after issue 32: connected accounts pay out only when asked, a transfer whose payout
 * fails is taken back before the creator's balance gets the money again, a payee in debt is paid
 * nothing, and a reconciliation compares each connected account with the payouts in flight.
 */

let fake: Awaited<ReturnType<typeof startFakeStripe>>;
let ctx: TestContext;
let admin: string;
const clean = { unbalancedTransactions: [], balancesNotMatchingEntries: [], negativeBalances: [] };

const call = (method: "GET" | "POST", url: string, cookie?: string, payload?: object) =>
  ctx.app.inject({
    method,
    url,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload ? { payload } : {}),
  });

/** Asks Stripe (the fake) directly, as another system or a person in Stripe's dashboard would. */
const stripe = (method: "GET" | "POST", path: string, form: Record<string, string> = {}, account?: string) =>
  fetch(`${fake.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${SECRET_KEY}`,
      "content-type": "application/x-www-form-urlencoded",
      ...(account ? { "stripe-account": account } : {}),
    },
    ...(method === "POST" ? { body: new URLSearchParams(form).toString() } : {}),
  }).then((r) => r.json() as Promise<Record<string, unknown>>);

async function creator(balanceMinor: number) {
  const account = await insertAccount(ctx.database, { onboarded: true });
  await insertApprovedIdentity(ctx.database, account.id);
  const cookie = await directSessionCookie(ctx.database, account.id);
  const bank = (
    await call("POST", "/profile/bank-accounts", cookie, {
      holderName: "Ada Lovelace",
      iban: "DE89370400440532013000",
    })
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

async function requested(c: { cookie: string; bank: BankAccount }) {
  const res = await call("POST", "/profile/payout", c.cookie, { bankAccountId: c.bank.id });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Payout>();
}

async function approve(payoutId: string) {
  const res = await call("POST", `/admin/payouts/${payoutId}/approve`, admin);
  expect(res.statusCode, res.body).toBe(200);
}

async function balance(userId: string, account: "available" | "debt") {
  const [row] = await ctx.database.db
    .select({ b: ledgerBalances.balanceMinor })
    .from(ledgerBalances)
    .where(and(eq(ledgerBalances.ownerId, userId), eq(ledgerBalances.account, account)));
  return row?.b ?? 0;
}

async function payoutRow(id: string) {
  const [row] = await ctx.database.db.select().from(payouts).where(eq(payouts.id, id));
  if (!row) throw new Error(`no payout ${id}`);
  return row;
}

const connectedBalance = async (account: string) => {
  const body = await stripe("GET", "/v1/balance", {}, account);
  const available = (body.available as { amount: number; currency: string }[]) ?? [];
  return available.reduce((sum, b) => sum + b.amount, 0);
};

const mismatches = async () =>
  (await call("GET", "/admin/payouts/mismatches", admin)).json<{ items: AdminPayoutMismatch[] }>().items;

beforeAll(async () => {
  fake = await startFakeStripe();
  ctx = await testApp({
    PAYOUT_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_fake_connect_secret",
    STRIPE_API_URL: fake.url,
  });
  admin = (await accountWithSession(ctx.database, { onboarded: true, role: "admin" })).cookie;
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
beforeEach(() => fake.reset());

describe(`Stripe Connect, money that already left (issue 32, ${dbKind})`, () => {
  it("creates connected accounts that pay out only when asked, and moves an existing one to that once", async () => {
    const fresh = await creator(3000);
    await approve((await requested(fresh)).id);
    await ctx.app.services.jobs.worker.runDue();
    const [created] = [...fake.accounts.values()];
    expect(created).toMatchObject({ settings: { payouts: { schedule: { interval: "manual" } } } });

    // An account made before the rule, on Stripe's default daily schedule.
    const old = await creator(3000);
    const legacy = await stripe("POST", "/v1/accounts", { type: "custom", country: "DE" });
    expect(legacy).toMatchObject({ settings: { payouts: { schedule: { interval: "daily" } } } });
    await ctx.database.db
      .insert(stripeConnectAccounts)
      .values({ userId: old.id, accountId: String(legacy.id) });
    await approve((await requested(old)).id);
    await ctx.app.services.jobs.worker.runDue();
    expect(fake.accounts.get(String(legacy.id))).toMatchObject({
      settings: { payouts: { schedule: { interval: "manual" } } },
    });
    const [marked] = await ctx.database.db
      .select({ at: stripeConnectAccounts.manualPayoutsAt })
      .from(stripeConnectAccounts)
      .where(eq(stripeConnectAccounts.userId, old.id));
    expect(marked?.at).toBeInstanceOf(Date);
    const updates = fake.requests.filter(
      (r) => r.method === "POST" && r.path === `/v1/accounts/${legacy.id}`,
    );
    expect(updates).toHaveLength(1);
    // The next payout to it asks nothing more.
    await creatorPaysAgain(old);
    expect(
      fake.requests.filter((r) => r.method === "POST" && r.path === `/v1/accounts/${legacy.id}`),
    ).toHaveLength(1);
  });

  async function creatorPaysAgain(c: { id: string; cookie: string; bank: BankAccount }) {
    const facts = {
      orderId: randomUUID(),
      creatorId: c.id,
      referrerId: null,
      partnerId: null,
      currency: "EUR" as const,
      split: splitSale(2000, 0, null),
      availableAt: new Date(Date.now() - 1000),
    };
    await ctx.database.db.transaction(async (tx) => {
      await post(tx, orderPaid(facts));
      await post(tx, holdReleased(facts));
    });
    const [open] = await ctx.database.db.select().from(payouts).where(eq(payouts.userId, c.id));
    if (open) fake.payPayout(open.providerPayoutId ?? "");
    await ctx.database.db.update(payouts).set({ status: "paid" }).where(eq(payouts.userId, c.id));
    await approve((await requested(c)).id);
    await ctx.app.services.jobs.worker.runDue();
  }

  it("a payout refused after its transfer takes the transfer back before the money returns", async () => {
    const c = await creator(4000);
    const payout = await requested(c);
    fake.failures.push({
      route: "POST /v1/payouts",
      status: 400,
      error: { type: "invalid_request_error", code: "bank_account_unusable", message: "The bank refuses." },
    });
    await approve(payout.id);
    await ctx.app.services.jobs.worker.runDue();
    expect(await payoutRow(payout.id)).toMatchObject({ status: "failed" });
    const [transfer] = [...fake.transfers.values()];
    expect(transfer).toMatchObject({ amount: 4000, reversed: true });
    const account = String(transfer?.destination);
    expect(await connectedBalance(account)).toBe(0);
    expect(await balance(c.id, "available")).toBe(4000);
    expect(await auditLedger(ctx.database.db)).toEqual(clean);
  });

  it("pays nothing to a payee who came to owe money after the approval: the amount repays the debt", async () => {
    const c = await creator(5000);
    const payout = await requested(c);
    // Approved, its submission not run yet; then a refund finds money already gone: a debt of 12.00.
    const { db } = ctx.database;
    await db.update(payouts).set({ status: "processing" }).where(eq(payouts.id, payout.id));
    await db.transaction((tx) =>
      post(tx, {
        kind: "refund",
        reference: randomUUID(),
        entries: [
          { account: "debt", ownerId: c.id, currency: "EUR", amountMinor: -1200 },
          { account: "provider", ownerId: null, currency: "EUR", amountMinor: 1200 },
        ],
      }),
    );
    await db.transaction(async (tx) => {
      expect(await submitPayout(tx, ctx.config, ctx.app.services.payouts, payout.id)).toBe("failed");
    });
    expect(fake.transfers.size).toBe(0);
    expect(await payoutRow(payout.id)).toMatchObject({ status: "failed" });
    expect(await balance(c.id, "available")).toBe(3800);
    expect(await balance(c.id, "debt")).toBe(0);
    expect(await auditLedger(ctx.database.db)).toEqual(clean);
  });

  it("reports a connected account holding money no payout in flight explains, until it is explained", async () => {
    const c = await creator(2500);
    await approve((await requested(c)).id);
    await ctx.app.services.jobs.worker.runDue();
    const [row] = await ctx.database.db
      .select()
      .from(stripeConnectAccounts)
      .where(eq(stripeConnectAccounts.userId, c.id));
    const account = { userId: c.id, accountId: row?.accountId ?? "" };
    const reconcile = () =>
      ctx.database.db.transaction((tx) => reconcileAccount(tx, ctx.app.services.payouts, account));

    // The payout took all that was transferred: nothing to report.
    await reconcile();
    expect((await mismatches()).filter((m) => m.accountId === account.accountId)).toEqual([]);

    // Someone transfers 7.00 there by hand (Stripe's dashboard): no payout explains it.
    const stray = await stripe("POST", "/v1/transfers", {
      amount: "700",
      currency: "eur",
      destination: account.accountId,
    });
    await reconcile();
    const found = (await mismatches()).filter((m) => m.accountId === account.accountId);
    expect(found).toEqual([
      expect.objectContaining({
        userId: c.id,
        currency: "EUR",
        expectedMinor: 0,
        actualMinor: 700,
        reason: null,
      }),
    ]);
    // Checked again, still one report; once the money is taken back, it is closed.
    await reconcile();
    expect((await mismatches()).filter((m) => m.accountId === account.accountId)).toHaveLength(1);
    await stripe("POST", `/v1/transfers/${String(stray.id)}/reversals`);
    await reconcile();
    expect((await mismatches()).filter((m) => m.accountId === account.accountId)).toEqual([]);
    // Only operators read it.
    expect((await call("GET", "/admin/payouts/mismatches", c.cookie)).statusCode).toBe(403);
  });
});
