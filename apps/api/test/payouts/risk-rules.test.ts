import type { AdminPayout, Payout, PayoutEligibility } from "@salelink/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithSession, errorOf, lastMail } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { GB_ACCOUNT, payoutCalls } from "./payout-fixtures.ts";

/* Issue 23: one open payout per currency, and the risk rules that hold a payout or let it go on. */

let ctx: TestContext;
let admin: string;
let p: ReturnType<typeof payoutCalls>;

beforeAll(async () => {
  ctx = await testApp();
  p = payoutCalls(ctx);
  admin = (await accountWithSession(ctx.database, { onboarded: true, role: "admin" })).cookie;
});
afterAll(() => ctx.close());

const withdraw = (cookie: string, body: object) => p.call("POST", "/profile/payout", cookie, body);

describe(`payouts per currency (${dbKind})`, () => {
  it("pays each currency to an account that takes it, one open payout per currency", async () => {
    const c = await p.creator({ balance: 5000 });
    await p.credit(c.id, 4000, "GBP");
    const gb = await p.addBank(c.cookie, GB_ACCOUNT);

    const wrong = await withdraw(c.cookie, { bankAccountId: c.bank.id, currency: "GBP" });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong).errors).toEqual({
      bankAccountId: ["This bank account is paid in EUR: choose one that takes GBP."],
    });
    const alsoWrong = await withdraw(c.cookie, { bankAccountId: gb.id, currency: "EUR" });
    expect(errorOf(alsoWrong).errors?.bankAccountId).toHaveLength(1);

    const eur = await withdraw(c.cookie, { bankAccountId: c.bank.id, currency: "EUR" });
    expect(eur.statusCode, eur.body).toBe(201);
    const gbp = await withdraw(c.cookie, { bankAccountId: gb.id, currency: "GBP" });
    expect(gbp.statusCode, gbp.body).toBe(201);
    expect(gbp.json<Payout>()).toMatchObject({ currency: "GBP", amount: 4000 });
    const again = await withdraw(c.cookie, { bankAccountId: c.bank.id, currency: "EUR" });
    expect(again.statusCode).toBe(409);

    const eligibility = (await p.call("GET", "/profile/payout", c.cookie)).json<PayoutEligibility>();
    expect(eligibility.blockers).toEqual(["open_payout", "below_minimum"]);
    expect(eligibility.perCurrency.map((x) => [x.currency, x.available, x.blockers])).toEqual([
      ["EUR", 0, ["open_payout", "below_minimum"]],
      ["GBP", 0, ["open_payout", "below_minimum"]],
    ]);
    expect(await p.balance(c.id, "in_transit", "GBP")).toBe(4000);
    await p.ledgerHolds();
  });

  it("tells, per currency, which one lacks an account", async () => {
    const c = await p.creator({ balance: 5000 });
    await p.credit(c.id, 4000, "GBP");
    const eligibility = (await p.call("GET", "/profile/payout", c.cookie)).json<PayoutEligibility>();
    expect(eligibility.blockers).toEqual([]);
    expect(eligibility.perCurrency).toEqual([
      { currency: "EUR", available: 5000, blockers: [], openPayout: null },
      { currency: "GBP", available: 4000, blockers: ["bank_account"], openPayout: null },
    ]);
  });
});

describe(`risk rules (${dbKind})`, () => {
  it("approves at once what no rule holds: processing, approved by the rules, with its reference", async () => {
    const c = await p.creator({ balance: 5000, trusted: true });
    const res = await withdraw(c.cookie, { bankAccountId: c.bank.id });
    expect(res.statusCode, res.body).toBe(201);
    const payout = res.json<Payout>();
    expect(payout).toMatchObject({ status: "processing", heldRules: [], origin: "request" });
    expect(payout.bankReference).toBe(`${ctx.config.PLATFORM_NAME} payout ${payout.id}`);
    const detail = await p.detail(c.cookie, payout.id);
    expect(detail.steps.map((s) => [s.step, s.detail])).toEqual([
      ["requested", {}],
      ["approved", { by: "rules" }],
    ]);
    expect(
      (await p.call("GET", "/admin/payouts?status=processing", admin))
        .json<{ items: AdminPayout[] }>()
        .items.some((x) => x.id === payout.id),
    ).toBe(true);
  });

  it("holds a new account's first payout to a new bank account, says why, and the operator approves it", async () => {
    const c = await p.creator({ balance: 5000 });
    const payout = (await withdraw(c.cookie, { bankAccountId: c.bank.id })).json<Payout>();
    expect(payout.status).toBe("requested");
    expect(payout.heldRules).toEqual(["first_payout", "young_account", "bank_account_changed"]);
    const held = await p.detail(c.cookie, payout.id);
    expect(held.steps.map((s) => [s.step, s.detail])).toEqual([
      ["requested", {}],
      ["held", { rules: ["first_payout", "young_account", "bank_account_changed"] }],
    ]);
    const mail = await lastMail(ctx, c.email, "payout-held");
    expect(mail.subject).toBe("Your payout of €50.00 waits for a review");
    expect(mail.text).toContain("it is the first payout of your account;");
    expect(mail.text).toContain("its bank account was added recently.");
    expect(mail.text).toContain(`/account/payouts/${payout.id}`);

    const queue = (await p.call("GET", "/admin/payouts?status=requested", admin)).json<{
      items: AdminPayout[];
    }>();
    expect(queue.items.find((x) => x.id === payout.id)?.heldRules).toEqual(held.heldRules);
    const approved = await p.call("POST", `/admin/payouts/${payout.id}/approve`, admin, {});
    expect(approved.statusCode, approved.body).toBe(200);
    const after = await p.detail(c.cookie, payout.id);
    expect(after.status).toBe("processing");
    expect(after.steps.at(-1)).toMatchObject({ step: "approved", detail: { by: "admin" } });
  });

  it("holds above the amount threshold, after refunds and after reports", async () => {
    const big = await p.creator({ balance: 250_000, trusted: true });
    const above = (await withdraw(big.cookie, { bankAccountId: big.bank.id })).json<Payout>();
    expect(above.heldRules).toEqual(["above_threshold"]);

    const refunded = await p.creator({ balance: 5000, trusted: true });
    await p.refundedSale(refunded.id);
    const afterRefund = (await withdraw(refunded.cookie, { bankAccountId: refunded.bank.id })).json<Payout>();
    expect(afterRefund.heldRules).toEqual(["recent_refunds"]);

    const reported = await p.creator({ balance: 5000, trusted: true });
    await p.reportedLink(reported.id);
    const afterReport = (await withdraw(reported.cookie, { bankAccountId: reported.bank.id })).json<Payout>();
    expect(afterReport.heldRules).toEqual(["recent_reports"]);
  });
});

describe(`risk rules as settings (${dbKind})`, () => {
  it("lets every payout go on with PAYOUT_REVIEW_RULES=none; thresholds are settings", async () => {
    const open = await testApp({ PAYOUT_REVIEW_RULES: "none" });
    const strict = await testApp({
      PAYOUT_REVIEW_RULES: "above_threshold",
      PAYOUT_REVIEW_ABOVE_MINOR: "1000",
    });
    try {
      const o = payoutCalls(open);
      const fresh = await o.creator({ balance: 5000 });
      const res = await o.call("POST", "/profile/payout", fresh.cookie, { bankAccountId: fresh.bank.id });
      expect(res.json<Payout>()).toMatchObject({ status: "processing", heldRules: [] });

      const s = payoutCalls(strict);
      const other = await s.creator({ balance: 5000 });
      const held = await s.call("POST", "/profile/payout", other.cookie, { bankAccountId: other.bank.id });
      expect(held.json<Payout>()).toMatchObject({ status: "requested", heldRules: ["above_threshold"] });
    } finally {
      await open.close();
      await strict.close();
    }
  });
});
