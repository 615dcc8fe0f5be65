import { randomUUID } from "node:crypto";
import type { BankAccount, Currency, PayoutDetail } from "@salelink/contracts";
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import {
  bankAccounts,
  ledgerBalances,
  links,
  orders,
  payouts,
  reports,
  users,
} from "../../src/db/schema/index.ts";
import { auditLedger, post } from "../../src/modules/wallet/ledger.ts";
import { holdReleased, orderPaid, orderRefunded, splitSale } from "../../src/modules/wallet/postings.ts";
import { directSessionCookie, insertAccount, insertApprovedIdentity } from "../support/accounts.ts";
import type { TestContext } from "../support/app.ts";
import { creditReleasedSale } from "../support/ledger.ts";

/* Shared set-up of the issue 23 payout suites: creators, balances in any currency, bank accounts. */

export const IBAN = "DE89370400440532013000";
export const OTHER_IBAN = "FR1420041010050500013M02606";
export const GB_ACCOUNT = {
  kind: "gb",
  holderName: "Ada Lovelace",
  sortCode: "200000",
  accountNumber: "55779911",
};

const DAY_MS = 86_400_000;

export function payoutCalls(ctx: TestContext) {
  const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, cookie?: string, payload?: object) =>
    ctx.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload ? { payload } : {}),
    });

  /** A sale's net, held then released: what a creator can withdraw. */
  const credit = (userId: string, grossMinor: number, currency: Currency = "EUR") =>
    creditReleasedSale(ctx.database.db, userId, grossMinor, currency);

  /** A released sale of which a part was refunded just now: the order and its ledger. */
  async function refundedSale(userId: string, grossMinor = 2000) {
    const link = await insertLink(userId);
    const now = new Date();
    const [order] = await ctx.database.db
      .insert(orders)
      .values({
        linkId: link,
        creatorId: userId,
        buyerEmail: "buyer@example.test",
        locale: "en",
        status: "paid",
        currency: "EUR",
        priceMinor: grossMinor,
        totalMinor: grossMinor,
        provider: "sandbox",
        checkoutSecretHash: randomUUID(),
        feeMinor: 0,
        netMinor: grossMinor,
        paidAt: now,
        availableAt: now,
        releasedAt: now,
        refundedMinor: grossMinor / 2,
        refundedNetMinor: grossMinor / 2,
        lastRefundedAt: now,
      })
      .returning({ id: orders.id });
    if (!order) throw new Error("order not inserted");
    const facts = {
      orderId: order.id,
      creatorId: userId,
      referrerId: null,
      partnerId: null,
      currency: "EUR" as const,
      split: splitSale(grossMinor, 0, null),
      availableAt: new Date(Date.now() - 1000),
    };
    await ctx.database.db.transaction(async (tx) => {
      await post(tx, orderPaid(facts));
      await post(tx, holdReleased(facts));
      await post(tx, orderRefunded(facts, true, { amountMinor: grossMinor / 2 }));
    });
  }

  async function insertLink(userId: string): Promise<string> {
    const [link] = await ctx.database.db
      .insert(links)
      .values({
        ownerId: userId,
        title: "Sunset pack",
        priceMinor: 1500,
        currency: "EUR",
        token: randomUUID(),
      })
      .returning({ id: links.id });
    if (!link) throw new Error("link not inserted");
    return link.id;
  }

  /** A link of the creator's, reported just now (open). */
  async function reportedLink(userId: string) {
    const link = await insertLink(userId);
    await ctx.database.db
      .insert(reports)
      .values({ linkId: link, reason: "other", message: "Suspicious", reporterKey: randomUUID() });
  }

  async function addBank(cookie: string, body: object = { holderName: "Ada Lovelace", iban: IBAN }) {
    const res = await call("POST", "/profile/bank-accounts", cookie, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<BankAccount>();
  }

  /** Backdates the account and its bank accounts: neither young nor newly changed. */
  async function age(userId: string, days = 365) {
    const then = new Date(Date.now() - days * DAY_MS);
    await ctx.database.db.update(users).set({ createdAt: then }).where(eq(users.id, userId));
    await ctx.database.db
      .update(bankAccounts)
      .set({ createdAt: then })
      .where(eq(bankAccounts.ownerId, userId));
  }

  /** A payout of the account marked paid long ago: its next one is not its first. */
  async function pastPaidPayout(userId: string, bankAccountId: string) {
    await ctx.database.db.insert(payouts).values({
      userId,
      bankAccountId,
      holderName: "Ada Lovelace",
      ibanCountry: "DE",
      ibanLast4: "3000",
      amountMinor: 0,
      currency: "EUR",
      provider: "manual",
      status: "paid",
      requestedAt: new Date(Date.now() - 90 * DAY_MS),
      paidAt: new Date(Date.now() - 89 * DAY_MS),
    });
  }

  /**
   * An onboarded creator with an approved identity and a euro IBAN; `trusted`: an old account with
   * an old bank account and a paid payout behind it, which no risk rule holds.
   */
  async function creator(
    options: {
      onboarded?: boolean;
      identity?: boolean;
      balance?: number;
      trusted?: boolean;
      locale?: "en" | "fr";
    } = {},
  ) {
    const account = await insertAccount(ctx.database, {
      onboarded: options.onboarded ?? true,
      ...(options.locale ? { locale: options.locale } : {}),
    });
    if (options.identity ?? true) await insertApprovedIdentity(ctx.database, account.id);
    const cookie = await directSessionCookie(ctx.database, account.id);
    const bank = await addBank(cookie);
    if (options.trusted) {
      await age(account.id);
      await pastPaidPayout(account.id, bank.id);
    }
    if (options.balance) await credit(account.id, options.balance);
    return { id: account.id, email: account.email, cookie, bank };
  }

  async function balance(userId: string, account: "available" | "in_transit", currency: Currency = "EUR") {
    const [row] = await ctx.database.db
      .select({ b: ledgerBalances.balanceMinor })
      .from(ledgerBalances)
      .where(
        and(
          eq(ledgerBalances.ownerId, userId),
          eq(ledgerBalances.account, account),
          eq(ledgerBalances.currency, currency),
        ),
      );
    return row?.b ?? 0;
  }

  const payoutsOf = (userId: string) =>
    ctx.database.db.select().from(payouts).where(eq(payouts.userId, userId));

  async function detail(cookie: string, id: string): Promise<PayoutDetail> {
    const res = await call("GET", `/profile/payouts/${id}`, cookie);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PayoutDetail>();
  }

  async function ledgerHolds() {
    expect(await auditLedger(ctx.database.db)).toEqual({
      unbalancedTransactions: [],
      balancesNotMatchingEntries: [],
      negativeBalances: [],
    });
  }

  return {
    call,
    credit,
    refundedSale,
    reportedLink,
    addBank,
    age,
    creator,
    balance,
    payoutsOf,
    detail,
    ledgerHolds,
    pastPaidPayout,
  };
}
