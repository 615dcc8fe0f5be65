import {
  type AdminDebtList,
  type BankAccount,
  type CheckoutResponse,
  type Link,
  type Locale,
  type MembershipResult,
  type Payout,
  type PayoutEligibility,
  type Wallet,
  walletSchema,
} from "@salelink/contracts";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerEntries, ledgerTransactions, orders } from "../../src/db/schema/index.ts";
import { releaseHoldsAsOf } from "../../src/modules/orders/service.ts";
import { auditLedger } from "../../src/modules/wallet/ledger.ts";
import { accountWithSession, insertApprovedIdentity, lastMail } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";
import { testIban } from "./model-world.ts";

/*
 * Issue 32, "what was seen": money that already left (withdrawn, claimed) is never paid back by the
 * platform. Each scenario of the penetration test, through the API as the attacker played it; each
 * failed on the code before decision 042 (the platform's fees bore what the user had withdrawn).
 */

const DAY = 86_400_000;
const clean = { unbalancedTransactions: [], balancesNotMatchingEntries: [], negativeBalances: [] };

interface Person {
  id: string;
  email: string;
  cookie: string;
  bankId: string;
}

function suite(name: string, settings: Record<string, string>, body: (ctx: () => TestContext) => void) {
  describe(name, () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await testApp({ PAYOUT_REVIEW_RULES: "none", ...settings });
    });
    afterAll(() => ctx?.close());
    body(() => ctx);
  });
}

function calls(context: () => TestContext) {
  const helpers = checkoutHelpers(context);
  const call = (method: "GET" | "POST" | "PUT" | "PATCH", url: string, cookie?: string, payload?: object) =>
    context().app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload ? { payload } : {}),
    });
  const ok = (res: LightMyRequestResponse, status: number) => {
    expect(res.statusCode, res.body).toBe(status);
    return res;
  };
  const runJobs = () => context().app.services.jobs.worker.runDue();

  /** An onboarded account with an approved identity and a euro IBAN: it can withdraw. */
  async function person(locale: Locale = "en"): Promise<Person> {
    const account = await accountWithSession(context().database, { onboarded: true, locale });
    await insertApprovedIdentity(context().database, account.id);
    const bank = ok(
      await call("POST", "/profile/bank-accounts", account.cookie, {
        holderName: "Ada Lovelace",
        // Each its own: a partner sharing the creator's IBAN earns nothing (self-dealing).
        iban: testIban(),
      }),
      201,
    ).json<BankAccount>();
    return { id: account.id, email: account.email, cookie: account.cookie, bankId: bank.id };
  }

  /** `creator` opens a programme at `rateBps` that `partner` joins: the partner's `?via=` code. */
  async function programme(creator: Person, partner: Person, rateBps: number): Promise<string> {
    ok(
      await call("PUT", "/partner-programme", creator.cookie, {
        enabled: true,
        defaultRateBps: rateBps,
        windowDays: 30,
        joinMode: "open",
      }),
      200,
    );
    return ok(
      await call("POST", `/programmes/${creator.id}/join`, partner.cookie),
      201,
    ).json<MembershipResult>().code;
  }

  /** A €100 sale of a new link of the creator's, through a partner's code when given. */
  async function sale(creator: Person, via?: string, extra: object = {}): Promise<CheckoutResponse> {
    const link: Link = await helpers.newLink(creator.cookie, { priceMinor: 10_000, ...extra });
    const started = ok(
      await helpers.checkout(link.token, {
        email: "buyer@example.test",
        ...(via ? { via: [{ code: via, at: Date.now() - 60_000 }] } : {}),
      }),
      201,
    ).json<CheckoutResponse>();
    await helpers.pay(started);
    return started;
  }

  const release = async (orderId: string) => {
    await releaseHoldsAsOf(context().database.db, new Date(Date.now() + 8 * DAY), [orderId]);
  };
  const wallet = async (who: Person): Promise<Wallet> =>
    walletSchema.parse(ok(await call("GET", "/wallet", who.cookie), 200).json());
  const eur = async (who: Person) =>
    (await wallet(who)).balances.find((b) => b.currency === "EUR") ?? { available: 0, debt: 0, inTransit: 0 };
  const withdraw = async (who: Person, amount: number) =>
    ok(
      await call("POST", "/profile/payout", who.cookie, {
        bankAccountId: who.bankId,
        currency: "EUR",
        amount,
      }),
      201,
    ).json<Payout>();

  /** What the platform's fees account moved for one order (sale, refunds, disputes): its own fee only. */
  async function platformFeesOf(orderId: string): Promise<number> {
    const [row] = await context()
      .database.db.select({ total: sql<string>`coalesce(sum(${ledgerEntries.amountMinor}), 0)` })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(
        and(
          eq(ledgerEntries.account, "platform_fees"),
          sql`split_part(${ledgerTransactions.reference}, ':', 1) = ${orderId}`,
        ),
      );
    return Number(row?.total ?? 0);
  }

  /** The fee the order keeps now: what the platform's fees should hold of it. */
  async function feeKept(orderId: string): Promise<number> {
    const [row] = await context()
      .database.db.select({
        fee: orders.feeMinor,
        refunded: orders.refundedFeeMinor,
        commission: orders.commissionMinor,
        refundedCommission: orders.refundedCommissionMinor,
      })
      .from(orders)
      .where(inArray(orders.id, [orderId]));
    return (row?.fee ?? 0) - (row?.refunded ?? 0) - ((row?.commission ?? 0) - (row?.refundedCommission ?? 0));
  }

  return {
    ...helpers,
    call,
    ok,
    runJobs,
    person,
    programme,
    sale,
    release,
    wallet,
    eur,
    withdraw,
    platformFeesOf,
    feeKept,
  };
}

suite("scenario 1: a refund after the money was withdrawn (default: no debt allowed to creators)", {}, (context) => {
  const c = calls(context);

  it("a creator's refund that would leave their sock-puppet partner in debt is refused; an operator's puts the partner in debt, never the platform", async () => {
    const [creator, partner] = [await c.person(), await c.person()];
    const code = await c.programme(creator, partner, 9000);
    const sold = await c.sale(creator, code);
    await c.release(sold.orderId);
    c.ok(await c.call("POST", "/programmes/claim", partner.cookie), 200);
    expect((await c.eur(partner)).available).toBe(9000);
    await c.withdraw(partner, 7500);
    await c.runJobs();

    const refused = await c.call("POST", `/sales/${sold.orderId}/refunds`, creator.cookie, {
      amountMinor: 10_000,
      reason: "Changed my mind",
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toContain("€75.00");

    const admin = await accountWithSession(context().database, { onboarded: true, role: "admin" });
    c.ok(
      await c.call("POST", `/admin/orders/${sold.orderId}/refund`, admin.cookie, { reason: "Buyer asked" }),
      202,
    );
    await c.runJobs();
    // The partner gives back what they still hold and owes the rest; the creator's net was 0.
    expect(await c.eur(partner)).toMatchObject({ available: 0, debt: -7500 });
    expect(await c.eur(creator)).toMatchObject({ available: 0, debt: 0 });
    // The platform gave back its own fee and nothing more.
    expect(await c.platformFeesOf(sold.orderId)).toBe(0);
    expect(await c.feeKept(sold.orderId)).toBe(0);
    expect(await auditLedger(context().database.db)).toEqual(clean);

    // Visible to the admin, with its cause, and to the partner, whose payouts now wait.
    const debts = c.ok(await c.call("GET", "/admin/debts", admin.cookie), 200).json<AdminDebtList>();
    const theirs = debts.items.find((d) => d.user.id === partner.id);
    expect(theirs).toMatchObject({ currency: "EUR", amount: 7500 });
    expect(theirs?.sources).toEqual([
      expect.objectContaining({ cause: "refund", orderId: sold.orderId, amount: 7500 }),
    ]);
    expect(debts.totals.find((t) => t.currency === "EUR")?.amount).toBeGreaterThanOrEqual(7500);
    const eligibility = c
      .ok(await c.call("GET", "/profile/payout", partner.cookie), 200)
      .json<PayoutEligibility>();
    expect(eligibility.blockers).toContain("debt");
    expect(eligibility.debts).toEqual([
      expect.objectContaining({ currency: "EUR", amount: 7500, causes: ["refund"] }),
    ]);
  });

  it("a creator alone (buy from yourself, withdraw, refund) is refused, and an operator's refund is the creator's debt", async () => {
    const creator = await c.person();
    const sold = await c.sale(creator);
    await c.release(sold.orderId);
    await c.withdraw(creator, 9000);
    await c.runJobs();
    const refused = await c.call("POST", `/sales/${sold.orderId}/refunds`, creator.cookie, {
      amountMinor: 10_000,
      reason: "Test",
    });
    expect(refused.statusCode).toBe(409);
    const admin = await accountWithSession(context().database, { onboarded: true, role: "admin" });
    c.ok(
      await c.call("POST", `/admin/orders/${sold.orderId}/refund`, admin.cookie, {
        reason: "Chargeback risk",
      }),
      202,
    );
    await c.runJobs();
    expect(await c.eur(creator)).toMatchObject({ available: 0, debt: -9000 });
    expect(await c.platformFeesOf(sold.orderId)).toBe(0);

    // A payout is refused while the debt lasts, in any currency, with what is owed.
    const another = await c.sale(creator);
    const blocked = await c.call("POST", "/profile/payout", creator.cookie, {
      bankAccountId: creator.bankId,
      currency: "EUR",
    });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json<{ message: string }>().message).toContain("€90.00");

    // The next sale's release repays the debt first: nothing of it becomes available until then.
    await c.release(another.orderId);
    expect(await c.eur(creator)).toMatchObject({ available: 0, debt: 0 });
    const third = await c.sale(creator);
    await c.release(third.orderId);
    expect(await c.eur(creator)).toMatchObject({ available: 9000, debt: 0 });
    expect(await auditLedger(context().database.db)).toEqual(clean);
  });

  it("an operator writes a debt off, audited, against the platform's write-offs", async () => {
    const creator = await c.person("fr");
    const sold = await c.sale(creator);
    await c.release(sold.orderId);
    await c.withdraw(creator, 4000);
    await c.runJobs();
    const admin = await accountWithSession(context().database, { onboarded: true, role: "admin" });
    c.ok(
      await c.call("POST", `/admin/orders/${sold.orderId}/refund`, admin.cookie, { reason: "Fraud" }),
      202,
    );
    await c.runJobs();
    expect(await c.eur(creator)).toMatchObject({ available: 0, debt: -4000 });
    // The debtor is told, in their language, how much and why.
    const notice = await lastMail(context(), creator.email, "debt-incurred");
    expect(notice.subject).toBe("Vous devez 40,00\u00a0€ : vos virements attendent son remboursement");
    expect(notice.text).toContain("Une vente dont l'argent vous avait déjà été versé");
    const before = c.ok(await c.call("GET", "/admin/debts", admin.cookie), 200).json<AdminDebtList>();
    const writtenBefore = before.writtenOff.find((w) => w.currency === "EUR")?.amount ?? 0;

    expect(
      (
        await c.call("POST", "/admin/debts/write-off", admin.cookie, {
          userId: creator.id,
          currency: "EUR",
          reason: "x",
        })
      ).statusCode,
    ).toBe(400);
    const done = c.ok(
      await c.call("POST", "/admin/debts/write-off", admin.cookie, {
        userId: creator.id,
        currency: "EUR",
        reason: "Account closed by the bank",
      }),
      200,
    );
    expect(done.json()).toEqual({ amount: 4000 });
    expect(await c.eur(creator)).toMatchObject({ debt: 0 });
    const after = c.ok(await c.call("GET", "/admin/debts", admin.cookie), 200).json<AdminDebtList>();
    expect(after.items.some((d) => d.user.id === creator.id)).toBe(false);
    expect(after.writtenOff.find((w) => w.currency === "EUR")?.amount).toBe(writtenBefore + 4000);
    // Nothing left to write off; a buyer's account cannot reach the route.
    const again = await c.call("POST", "/admin/debts/write-off", admin.cookie, {
      userId: creator.id,
      currency: "EUR",
      reason: "Account closed by the bank",
    });
    expect(again.statusCode).toBe(409);
    expect((await c.call("GET", "/admin/debts", creator.cookie)).statusCode).toBe(403);
    expect(await auditLedger(context().database.db)).toEqual(clean);
  });
});

suite("scenarios 1 and 2 replayed with creators allowed to leave debts (REFUND_DEBT_LIMIT_MINOR)", {
  REFUND_DEBT_LIMIT_MINOR: "1000000",
}, (context) => {
  const c = calls(context);

  it("the attacker's refund leaves the platform's fees untouched and the sock puppet owing what it withdrew", async () => {
    const [creator, partner] = [await c.person(), await c.person()];
    const code = await c.programme(creator, partner, 9000);
    const fees: number[] = [];
    for (let run = 0; run < 3; run++) {
      const sold = await c.sale(creator, code);
      await c.release(sold.orderId);
      c.ok(await c.call("POST", "/programmes/claim", partner.cookie), 200);
      // Repaid first: what the claim brought in covers earlier debts before it can be withdrawn.
      const available = (await c.eur(partner)).available;
      if (available >= 7500) await c.withdraw(partner, 7500);
      await c.runJobs();
      c.ok(
        await c.call("POST", `/sales/${sold.orderId}/refunds`, creator.cookie, {
          amountMinor: 10_000,
          reason: "Refund",
        }),
        202,
      );
      await c.runJobs();
      fees.push(await c.platformFeesOf(sold.orderId));
    }
    expect(fees).toEqual([0, 0, 0]);
    expect((await c.eur(partner)).debt).toBe(-7500);
    expect(await auditLedger(context().database.db)).toEqual(clean);
  });

  it("scenario 2: a commission claimed before the rest is refunded is clawed back from the partner", async () => {
    const [creator, partner] = [await c.person(), await c.person()];
    const code = await c.programme(creator, partner, 7500);
    const sold = await c.sale(creator, code);
    c.ok(
      await c.call("POST", `/sales/${sold.orderId}/refunds`, creator.cookie, {
        amountMinor: 3000,
        reason: "Part",
      }),
      202,
    );
    await c.runJobs();
    await c.release(sold.orderId);
    c.ok(await c.call("POST", "/programmes/claim", partner.cookie), 200);
    expect((await c.eur(partner)).available).toBe(5250);
    const creatorBefore = await c.eur(creator);
    c.ok(
      await c.call("POST", `/sales/${sold.orderId}/refunds`, creator.cookie, {
        amountMinor: 7000,
        reason: "Rest",
      }),
      202,
    );
    await c.runJobs();
    // The sale is refunded in full and the partner keeps nothing of it; the creator paid only their own part.
    expect(await c.eur(partner)).toMatchObject({ available: 0, debt: 0 });
    const creatorAfter = await c.eur(creator);
    expect(creatorBefore.available - creatorAfter.available).toBe(1050);
    expect(await c.platformFeesOf(sold.orderId)).toBe(0);
    expect(await auditLedger(context().database.db)).toEqual(clean);
  });
});

suite("scenario 3: the refund window is the one the buyer was shown", {}, (context) => {
  const c = calls(context);

  it("a sale made with no refunds stays without them after the link's window is changed", async () => {
    const creator = await c.person();
    const link: Link = await c.newLink(creator.cookie, { priceMinor: 10_000, refundWindowDays: 0 });
    const started = c.ok(await c.checkout(link.token), 201).json<CheckoutResponse>();
    await c.pay(started);
    const ask = () =>
      c.call("POST", `/sales/${started.orderId}/refunds`, creator.cookie, { amountMinor: 1000, reason: "x" });
    expect((await ask()).statusCode).toBe(409);
    c.ok(await c.call("PATCH", `/links/${link.id}`, creator.cookie, { refundWindowDays: 60 }), 200);
    expect((await ask()).statusCode).toBe(409);
    // A sale made after the change has the new window.
    const later = c.ok(await c.checkout(link.token), 201).json<CheckoutResponse>();
    await c.pay(later);
    c.ok(
      await c.call("POST", `/sales/${later.orderId}/refunds`, creator.cookie, {
        amountMinor: 1000,
        reason: "ok",
      }),
      202,
    );
  });
});

suite("scenario 4: the recent-refunds rule sees every refund of the creator's sales", {
  PAYOUT_REVIEW_RULES: "recent_refunds",
}, (context) => {
  const c = calls(context);

  it("holds the next payout after a refund that took nothing from the creator's own balance", async () => {
    const [creator, partner] = [await c.person(), await c.person()];
    const code = await c.programme(creator, partner, 9000);
    const sold = await c.sale(creator, code);
    // The creator's net is 0 at 90 %: the refund moves none of their own money.
    c.ok(
      await c.call("POST", `/sales/${sold.orderId}/refunds`, creator.cookie, {
        amountMinor: 10_000,
        reason: "x",
      }),
      202,
    );
    await c.runJobs();
    const own = await c.sale(creator);
    await c.release(own.orderId);
    const payout = await c.withdraw(creator, 9000);
    expect(payout).toMatchObject({ status: "requested", heldRules: ["recent_refunds"] });
  });
});
