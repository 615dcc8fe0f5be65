import { randomUUID } from "node:crypto";
import type { AdminPayout, BankAccount, Payout, PayoutEligibility, TransferList } from "@salelink/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerBalances, ledgerTransactions, payouts } from "../../src/db/schema/index.ts";
import { auditLedger } from "../../src/modules/wallet/ledger.ts";
import {
  accountWithSession,
  directSessionCookie,
  errorOf,
  insertAccount,
  insertApprovedIdentity,
} from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { creditReleasedSale } from "../support/ledger.ts";

let ctx: TestContext;
let admin: string;

const IBAN = "DE89370400440532013000";
const OTHER_IBAN = "FR1420041010050500013M02606";

type Method = "GET" | "POST" | "DELETE";
const call = (method: Method, url: string, cookie?: string, payload?: object, locale?: string) =>
  ctx.app.inject({
    method,
    url,
    headers: { ...(cookie ? { cookie } : {}), ...(locale ? { "x-locale": locale } : {}) },
    ...(payload ? { payload } : {}),
  });

const credit = (userId: string, grossMinor: number) =>
  creditReleasedSale(ctx.database.db, userId, grossMinor);

async function approveIdentity(userId: string) {
  await insertApprovedIdentity(ctx.database, userId);
}

async function addBank(cookie: string, iban = IBAN): Promise<BankAccount> {
  const res = await call("POST", "/profile/bank-accounts", cookie, { holderName: "Ada Lovelace", iban });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<BankAccount>();
}

/** An onboarded creator with an approved identity and a bank account, unless told otherwise. */
async function creator(options: { onboarded?: boolean; identity?: boolean; balance?: number } = {}) {
  const account = await insertAccount(ctx.database, { onboarded: options.onboarded ?? true });
  if (options.identity ?? true) await approveIdentity(account.id);
  const cookie = await directSessionCookie(ctx.database, account.id);
  const bank = await addBank(cookie);
  if (options.balance) await credit(account.id, options.balance);
  return { id: account.id, cookie, bank };
}

async function balance(userId: string, account: "available" | "in_transit"): Promise<number> {
  const [row] = await ctx.database.db
    .select({ b: ledgerBalances.balanceMinor })
    .from(ledgerBalances)
    .where(
      and(
        eq(ledgerBalances.ownerId, userId),
        eq(ledgerBalances.account, account),
        eq(ledgerBalances.currency, "EUR"),
      ),
    );
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

const withdraw = (cookie: string, body: object) => call("POST", "/profile/payout", cookie, body);

beforeAll(async () => {
  ctx = await testApp();
  admin = (await accountWithSession(ctx.database, { onboarded: true, role: "admin" })).cookie;
});
afterAll(() => ctx.close());

describe(`withdrawals (${dbKind})`, () => {
  it("50 concurrent withdrawals of the whole balance create exactly one payout; the ledger holds", async () => {
    const c = await creator({ balance: 5000 });
    const second = await addBank(c.cookie, OTHER_IBAN);
    // Half to each bank account: the bank row's lock orders the requests to one account, and the
    // one-open-payout index decides between the two.
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        withdraw(c.cookie, { bankAccountId: i % 2 === 0 ? c.bank.id : second.id }),
      ),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((s) => s === 201)).toHaveLength(1);
    expect(codes.filter((s) => s === 409)).toHaveLength(49);
    const created = answers.find((r) => r.statusCode === 201)?.json<Payout>();
    expect(created).toMatchObject({
      status: "requested",
      amount: 5000,
      currency: "EUR",
      failureReason: null,
    });
    const rows = await ctx.database.db.select().from(payouts).where(eq(payouts.userId, c.id));
    expect(rows).toHaveLength(1);
    expect(await balance(c.id, "available")).toBe(0);
    expect(await balance(c.id, "in_transit")).toBe(5000);
    expect(await auditLedger(ctx.database.db)).toEqual({
      unbalancedTransactions: [],
      balancesNotMatchingEntries: [],
      negativeBalances: [],
    });
  });

  it("tells what stands in the way, in order, and the limits", async () => {
    const account = await insertAccount(ctx.database, { onboarded: false });
    const cookie = await directSessionCookie(ctx.database, account.id);
    const fresh = (await call("GET", "/profile/payout", cookie)).json<PayoutEligibility>();
    expect(fresh).toEqual({
      minimum: 1000,
      available: [{ currency: "EUR", amount: 0 }],
      blockers: ["onboarding", "identity", "bank_account", "below_minimum"],
      openPayout: null,
      perCurrency: [
        { currency: "EUR", available: 0, blockers: ["bank_account", "below_minimum"], openPayout: null },
      ],
      provider: "manual",
      suspension: null,
      debts: [],
    });
    const c = await creator({ balance: 2500 });
    const ready = (await call("GET", "/profile/payout", c.cookie)).json<PayoutEligibility>();
    expect(ready.blockers).toEqual([]);
    expect(ready.available).toEqual([{ currency: "EUR", amount: 2500 }]);
    const payout = (await withdraw(c.cookie, { bankAccountId: c.bank.id, amount: 1000 })).json<Payout>();
    const open = (await call("GET", "/profile/payout", c.cookie)).json<PayoutEligibility>();
    expect(open.blockers).toEqual(["open_payout"]);
    expect(open.openPayout?.id).toBe(payout.id);
    expect(open.available).toEqual([{ currency: "EUR", amount: 1500 }]);
  });

  it("needs completed onboarding and an approved identity, saying what to do next", async () => {
    const notOnboarded = await creator({ onboarded: false, balance: 5000 });
    const res = await withdraw(notOnboarded.cookie, { bankAccountId: notOnboarded.bank.id });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).message).toBe("Finish setting up your account before withdrawing.");

    const unverified = await creator({ identity: false, balance: 5000 });
    const refused = await withdraw(unverified.cookie, { bankAccountId: unverified.bank.id });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).message).toMatch(/^Verify your identity/);
    const french = await call(
      "POST",
      "/profile/payout",
      unverified.cookie,
      { bankAccountId: unverified.bank.id },
      "fr",
    );
    expect(errorOf(french).message).toMatch(/^Vérifiez votre identité/);
    expect(await balance(unverified.id, "available")).toBe(5000);
  });

  it("refuses another account's bank account (404), below the minimum and above the balance (400)", async () => {
    const c = await creator({ balance: 5000 });
    const other = await creator();
    expect((await withdraw(c.cookie, { bankAccountId: other.bank.id })).statusCode).toBe(404);

    const small = await withdraw(c.cookie, { bankAccountId: c.bank.id, amount: 999 });
    expect(small.statusCode).toBe(400);
    expect(errorOf(small).errors).toEqual({ amount: ["The minimum withdrawal is €10.00."] });
    const tooMuch = await withdraw(c.cookie, { bankAccountId: c.bank.id, amount: 5001 });
    expect(tooMuch.statusCode).toBe(400);
    expect(errorOf(tooMuch).errors).toEqual({ amount: ["You can withdraw at most €50.00."] });
    const poor = await creator({ balance: 999 });
    const whole = await withdraw(poor.cookie, { bankAccountId: poor.bank.id });
    expect(whole.statusCode).toBe(400);
    expect(errorOf(whole).errors?.amount).toHaveLength(1);
    expect(await ctx.database.db.select().from(payouts).where(eq(payouts.userId, c.id))).toEqual([]);

    const part = await withdraw(c.cookie, { bankAccountId: c.bank.id, amount: 1500 });
    expect(part.statusCode, part.body).toBe(201);
    expect(part.json<Payout>().bankAccount).toEqual({
      id: c.bank.id,
      holderName: "Ada Lovelace",
      ibanMasked: "DE•• •••• 3000",
    });
    expect(await balance(c.id, "available")).toBe(3500);
    const again = await withdraw(c.cookie, { bankAccountId: c.bank.id, amount: 1000 });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(
      "You already have a withdrawal in progress: wait until it is paid or failed.",
    );
  });

  it("keeps a bank account with a withdrawal in progress; deletes it once the payout is over", async () => {
    const c = await creator({ balance: 5000 });
    const payout = (await withdraw(c.cookie, { bankAccountId: c.bank.id })).json<Payout>();
    const refused = await call("DELETE", `/profile/bank-accounts/${c.bank.id}`, c.cookie);
    expect(refused.statusCode).toBe(409);
    expect((await call("POST", `/admin/payouts/${payout.id}/approve`, admin)).statusCode).toBe(200);
    expect((await call("DELETE", `/profile/bank-accounts/${c.bank.id}`, c.cookie)).statusCode).toBe(409);
    expect((await call("POST", `/admin/payouts/${payout.id}/paid`, admin)).statusCode).toBe(200);
    expect((await call("DELETE", `/profile/bank-accounts/${c.bank.id}`, c.cookie)).statusCode).toBe(200);
    // The history keeps the account as it was.
    const [kept] = (await call("GET", "/profile/transfers", c.cookie)).json<TransferList>().items;
    expect(kept?.bankAccount).toEqual({ id: null, holderName: "Ada Lovelace", ibanMasked: "DE•• •••• 3000" });
  });

  it("a delete racing a withdrawal: either the payout or the deletion, never a payout to nowhere", async () => {
    const c = await creator({ balance: 5000 });
    const [payout, deletion] = await Promise.all([
      withdraw(c.cookie, { bankAccountId: c.bank.id }),
      call("DELETE", `/profile/bank-accounts/${c.bank.id}`, c.cookie),
    ]);
    const outcome = [payout.statusCode, deletion.statusCode].sort();
    expect([
      [201, 409],
      [200, 404],
    ]).toContainEqual(outcome);
    const rows = await ctx.database.db.select().from(payouts).where(eq(payouts.userId, c.id));
    if (payout.statusCode === 201) expect(rows[0]?.bankAccountId).toBe(c.bank.id);
    else expect(rows).toEqual([]);
  });
});

describe(`admin payout queue (manual provider, ${dbKind})`, () => {
  it("approve then paid pays once: a second time changes nothing (409)", async () => {
    const c = await creator({ balance: 5000 });
    const payout = (await withdraw(c.cookie, { bankAccountId: c.bank.id })).json<Payout>();
    expect((await call("POST", `/admin/payouts/${payout.id}/paid`, admin)).statusCode).toBe(409);
    const approved = await call("POST", `/admin/payouts/${payout.id}/approve`, admin);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<AdminPayout>()).toMatchObject({ status: "processing", provider: "manual" });
    expect((await call("POST", `/admin/payouts/${payout.id}/approve`, admin)).statusCode).toBe(409);

    const answers = await Promise.all(
      [1, 2, 3].map(() => call("POST", `/admin/payouts/${payout.id}/paid`, admin)),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const paid = answers.find((r) => r.statusCode === 200)?.json<AdminPayout>();
    expect(paid?.status).toBe("paid");
    expect(paid?.paidAt).not.toBeNull();
    expect(await postings("payout_paid", payout.id)).toBe(1);
    expect(await balance(c.id, "in_transit")).toBe(0);
    expect(await balance(c.id, "available")).toBe(0);

    const failAfterPaid = await call("POST", `/admin/payouts/${payout.id}/fail`, admin, {
      reason: "Bank refused",
    });
    expect(failAfterPaid.statusCode).toBe(409);
    expect(await postings("payout_failed", payout.id)).toBe(0);
    expect((await call("GET", "/profile/transfers", c.cookie)).json<TransferList>().items[0]?.status).toBe(
      "paid",
    );
  });

  it("a failed payout returns the money once, with its reason", async () => {
    const c = await creator({ balance: 4000 });
    const payout = (await withdraw(c.cookie, { bankAccountId: c.bank.id })).json<Payout>();
    await call("POST", `/admin/payouts/${payout.id}/approve`, admin);
    const reason = { reason: "The IBAN belongs to a closed account." };
    const answers = await Promise.all(
      [1, 2].map(() => call("POST", `/admin/payouts/${payout.id}/fail`, admin, reason)),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await postings("payout_failed", payout.id)).toBe(1);
    expect(await balance(c.id, "available")).toBe(4000);
    expect(await balance(c.id, "in_transit")).toBe(0);
    expect((await call("POST", `/admin/payouts/${payout.id}/paid`, admin)).statusCode).toBe(409);
    const [seen] = (await call("GET", "/profile/transfers", c.cookie)).json<TransferList>().items;
    expect(seen).toMatchObject({ status: "failed", failureReason: reason.reason });
    // The money is back: a new withdrawal of it is possible at once.
    expect((await withdraw(c.cookie, { bankAccountId: c.bank.id })).statusCode).toBe(201);
    expect(await auditLedger(ctx.database.db)).toEqual({
      unbalancedTransactions: [],
      balancesNotMatchingEntries: [],
      negativeBalances: [],
    });
  });

  it("fails a requested payout too; the reason is required", async () => {
    const c = await creator({ balance: 2000 });
    const payout = (await withdraw(c.cookie, { bankAccountId: c.bank.id })).json<Payout>();
    expect((await call("POST", `/admin/payouts/${payout.id}/fail`, admin, { reason: "" })).statusCode).toBe(
      400,
    );
    const failed = await call("POST", `/admin/payouts/${payout.id}/fail`, admin, {
      reason: "Holder name mismatch",
    });
    expect(failed.json<AdminPayout>()).toMatchObject({
      status: "failed",
      failureReason: "Holder name mismatch",
    });
    expect(await balance(c.id, "available")).toBe(2000);
    expect((await call("POST", `/admin/payouts/${randomUUID()}/approve`, admin)).statusCode).toBe(404);
  });

  it("lists the queue with the checks an operator looks at, by status, page by page", async () => {
    const c = await creator({ balance: 3000 });
    const payout = (await withdraw(c.cookie, { bankAccountId: c.bank.id })).json<Payout>();
    const list = (await call("GET", "/admin/payouts?status=requested&limit=100", admin)).json<{
      items: AdminPayout[];
    }>();
    expect(list.items.every((p) => p.status === "requested")).toBe(true);
    expect(list.items.find((p) => p.id === payout.id)).toMatchObject({
      user: { id: c.id },
      identityApproved: true,
      onboardingCompleted: true,
      bankAccountOnFile: true,
      provider: "manual",
      providerPayoutId: null,
    });
    const first = (await call("GET", "/admin/payouts?limit=1", admin)).json<{
      items: AdminPayout[];
      nextCursor: string | null;
    }>();
    expect(first.items).toHaveLength(1);
    expect(first.nextCursor).toBe(first.items[0]?.id);
    const next = (await call("GET", `/admin/payouts?limit=1&cursor=${first.nextCursor}`, admin)).json<{
      items: AdminPayout[];
    }>();
    expect(next.items[0]?.id).not.toBe(first.items[0]?.id);
  });

  it("refuses anonymous callers (401) and non-admins (403)", async () => {
    const c = await creator();
    const id = randomUUID();
    const routes: [Method, string, object?][] = [
      ["GET", "/admin/payouts"],
      ["POST", `/admin/payouts/${id}/approve`],
      ["POST", `/admin/payouts/${id}/paid`],
      ["POST", `/admin/payouts/${id}/fail`, { reason: "Nope nope" }],
    ];
    for (const [method, url, body] of routes) {
      expect((await call(method, url, undefined, body)).statusCode, url).toBe(401);
      expect((await call(method, url, c.cookie, body)).statusCode, url).toBe(403);
    }
    expect((await call("GET", "/profile/payout")).statusCode).toBe(401);
    expect((await call("GET", "/profile/transfers")).statusCode).toBe(401);
  });

  it("has no webhook for the manual provider", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/webhooks/payouts/stripe",
      headers: { "content-type": "application/json" },
      payload: "{}",
    });
    expect(res.statusCode).toBe(404);
  });
});

describe(`transfers (${dbKind})`, () => {
  it("shows only one's own payouts, newest first, page by page", async () => {
    const c = await creator({ balance: 9000 });
    const other = await creator({ balance: 2000 });
    const theirs = (await withdraw(other.cookie, { bankAccountId: other.bank.id })).json<Payout>();
    const ids: string[] = [];
    for (const amount of [1000, 1100, 1200]) {
      const p = (await withdraw(c.cookie, { bankAccountId: c.bank.id, amount })).json<Payout>();
      ids.unshift(p.id);
      await call("POST", `/admin/payouts/${p.id}/fail`, admin, { reason: "Test: returned" });
    }
    const page1 = (await call("GET", "/profile/transfers?limit=2", c.cookie)).json<TransferList>();
    expect(page1.items.map((p) => p.id)).toEqual(ids.slice(0, 2));
    const page2 = (
      await call("GET", `/profile/transfers?limit=2&cursor=${page1.nextCursor}`, c.cookie)
    ).json<TransferList>();
    expect(page2).toEqual({ items: [expect.objectContaining({ id: ids[2] })], nextCursor: null });
    const all = (await call("GET", "/profile/transfers?limit=100", c.cookie)).json<TransferList>();
    expect(all.items.map((p) => p.id)).not.toContain(theirs.id);
    // Another's payout as a cursor leads nowhere.
    const foreign = (
      await call("GET", `/profile/transfers?cursor=${theirs.id}`, c.cookie)
    ).json<TransferList>();
    expect(foreign.items).toEqual([]);
  });
});
