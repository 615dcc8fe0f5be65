import {
  type AdminDisputeList,
  type BankAccount,
  type CheckoutResponse,
  type CheckoutStatus,
  type DisputeView,
  type Link,
  type SaleView,
  sandboxCards,
  type Wallet,
} from "@salelink/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disputes, invoices, jobs, ledgerEntries, ledgerTransactions } from "../../src/db/schema/index.ts";
import { releaseHoldsAsOf } from "../../src/modules/orders/service.ts";
import { auditLedger } from "../../src/modules/wallet/ledger.ts";
import { sandboxDisputeEvent } from "../../src/providers/payments/index.ts";
import { testIban } from "../money/model-world.ts";
import { accountWithSession, insertApprovedIdentity, lastMail, mailsTo } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers, deliverSandboxEvent } from "../support/checkout.ts";

/*
 * Chargebacks through the sandbox's card issuer (issue 32): the disputed share and the fee held from
 * the creator at once (into debt where the money left), the evidence assembled with the creator's
 * note and sent, won (everything back) or lost (kept as a refund, a credit note, the VAT owed
 * corrected), every event applied once in any order.
 */

const DAY = 86_400_000;
const FEE = 1500;
const clean = { unbalancedTransactions: [], balancesNotMatchingEntries: [], negativeBalances: [] };
let ctx: TestContext;
let admin: string;
const helpers = checkoutHelpers(() => ctx);

beforeAll(async () => {
  ctx = await testApp({ PAYOUT_REVIEW_RULES: "none", SANDBOX_DISPUTE_FEE_MINOR: String(FEE) });
  admin = (await accountWithSession(ctx.database, { onboarded: true, role: "admin" })).cookie;
});
afterAll(() => ctx?.close());

const call = (method: "GET" | "POST" | "PUT", url: string, cookie?: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
const ok = (res: LightMyRequestResponse, status: number) => {
  expect(res.statusCode, res.body).toBe(status);
  return res;
};
const runJobs = () => ctx.app.services.jobs.worker.runDue();

async function seller(locale: "en" | "fr" = "en") {
  const account = await accountWithSession(ctx.database, { onboarded: true, locale });
  await insertApprovedIdentity(ctx.database, account.id);
  const bank = ok(
    await call("POST", "/profile/bank-accounts", account.cookie, {
      holderName: "Ada Lovelace",
      iban: testIban(),
    }),
    201,
  ).json<BankAccount>();
  return { ...account, bankId: bank.id };
}

/** A paid sale of a new €50 link (VAT of France in the price when a French buyer), and its order token. */
async function sale(cookie: string, extra: { billingCountry?: string; card?: string } = {}) {
  const link: Link = await helpers.newLink(cookie, { priceMinor: 5000 });
  const started = ok(
    await helpers.checkout(link.token, extra.billingCountry ? { billingCountry: extra.billingCountry } : {}),
    201,
  ).json<CheckoutResponse>();
  await helpers.pay(
    started,
    extra.card ?? (extra.billingCountry === "FR" ? sandboxCards.successFR : undefined),
  );
  const status = ok(
    await call("GET", `/checkout/${started.orderId}?secret=${started.checkoutSecret}`),
    200,
  ).json<CheckoutStatus>();
  return { ...started, token: status.orderToken ?? "" };
}

const dispute = async (token: string) =>
  ok(
    await call("POST", `/sandbox/orders/${token}/dispute`, undefined, { reason: "product_not_received" }),
    201,
  );
const saleView = async (cookie: string, orderId: string) =>
  ok(await call("GET", `/sales/${orderId}`, cookie), 200).json<SaleView>();
const eur = async (cookie: string) =>
  ok(await call("GET", "/wallet", cookie), 200)
    .json<Wallet>()
    .balances.find((b) => b.currency === "EUR") ?? { pending: 0, available: 0, debt: 0 };
async function decide(orderId: string, outcome: "won" | "lost") {
  const [row] = await ctx.database.db.select().from(disputes).where(eq(disputes.orderId, orderId));
  ok(await call("POST", `/admin/sandbox/disputes/${row?.providerDisputeId}/decide`, admin, { outcome }), 204);
  await runJobs();
}

/** A platform account's movements for one dispute's postings (their reference is the dispute's id). */
async function platformMoves(disputeId: string, account: string) {
  const [row] = await ctx.database.db
    .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amountMinor}), 0)` })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(and(eq(ledgerTransactions.reference, disputeId), sql`${ledgerEntries.account} = ${account}`));
  return Number(row?.total ?? 0);
}

describe(`chargebacks through the sandbox's card issuer (${dbKind})`, () => {
  it("holds a held sale's share and the fee at once, takes a note, sends the evidence, and keeps it all when lost", async () => {
    const creator = await seller("fr");
    // A first sale, released: what the bank's fee is taken from.
    const first = await sale(creator.cookie);
    await releaseHoldsAsOf(ctx.database.db, new Date(Date.now() + 8 * DAY), [first.orderId]);
    const sold = await sale(creator.cookie, { billingCountry: "FR" });
    expect(await eur(creator.cookie)).toMatchObject({ pending: 3750, available: 4500 });
    // The buyer opened what they bought, twice: the delivery evidence.
    for (let i = 0; i < 2; i++) ok(await call("GET", `/orders/${sold.token}`), 200);

    await dispute(sold.token);
    await runJobs();
    // The sale's net (37.50 of the 41.67 net of VAT, less the 10 % fee) and the bank's 15.00 fee.
    expect(await eur(creator.cookie)).toMatchObject({ pending: 0, available: 3000, debt: 0 });
    let view = await saleView(creator.cookie, sold.orderId);
    expect(view).toMatchObject({ disputedMinor: 5000, refundableMinor: 0, refundWindowDays: 30 });
    const [opened] = view.disputes;
    expect(opened).toMatchObject({
      status: "needs_response",
      reason: "product_not_received",
      amountMinor: 5000,
      feeMinor: FEE,
      feeBorneBy: "creator",
      held: { netMinor: 3750, vatMinor: 833, feeMinor: 417, partnerCommissionMinor: 0, commissionMinor: 0 },
      debtMinor: 0,
      noteOpen: true,
      evidenceSubmittedAt: null,
    });
    expect(opened?.evidence?.refundPolicyDisclosure).toContain("30 days");
    expect(opened?.evidence?.accessActivityLog).toMatch(
      /The buyer opened the order page, the content unlocked; opened 2 times in all, last at /,
    );
    expect(opened?.evidence?.uncategorizedText).toContain(
      "Card issuing country reported by the card network: FR",
    );
    // The creator is told, in French, with the deadline and the page.
    const notice = await lastMail(ctx, creator.email, "dispute-opened");
    expect(notice.subject).toContain("conteste votre vente");
    expect(notice.text).toContain(`/account/sales/${sold.orderId}`);
    // The sale cannot be refunded while the bank decides.
    const refused = await call("POST", `/sales/${sold.orderId}/refunds`, creator.cookie, {
      amountMinor: 100,
      reason: "x",
    });
    expect(refused.statusCode).toBe(409);

    // The creator's note goes with the evidence; once it has left, no more notes.
    const noted = ok(
      await call("PUT", `/sales/${sold.orderId}/disputes/${opened?.id}/note`, creator.cookie, {
        note: "The buyer downloaded the pack twice.",
      }),
      200,
    ).json<DisputeView>();
    expect(noted.evidence?.uncategorizedText).toContain("The buyer downloaded the pack twice.");
    expect(
      (await call("PUT", `/sales/${sold.orderId}/disputes/${opened?.id}/note`, admin, { note: "x" }))
        .statusCode,
    ).toBe(404);
    await ctx.database.db
      .update(jobs)
      .set({ runAt: new Date() })
      .where(eq(jobs.dedupeKey, `dispute-evidence:${opened?.id}`));
    await runJobs();
    view = await saleView(creator.cookie, sold.orderId);
    expect(view.disputes[0]).toMatchObject({ status: "under_review", noteOpen: false });
    expect(view.disputes[0]?.evidenceSubmittedAt).not.toBeNull();
    expect(
      (
        await call("PUT", `/sales/${sold.orderId}/disputes/${opened?.id}/note`, creator.cookie, {
          note: "late",
        })
      ).statusCode,
    ).toBe(409);

    // Meanwhile the VAT owed and the fees are untouched: parked in disputes_held.
    const id = opened?.id ?? "";
    expect(await platformMoves(id, "vat_FR")).toBe(0);
    expect(await platformMoves(id, "platform_fees")).toBe(0);
    expect(await platformMoves(id, "disputes_held")).toBe(-(833 + 417));

    await decide(sold.orderId, "lost");
    view = await saleView(creator.cookie, sold.orderId);
    expect(view).toMatchObject({ status: "refunded", disputedMinor: 5000 });
    expect(view.disputes[0]).toMatchObject({ status: "lost" });
    expect(await eur(creator.cookie)).toMatchObject({ pending: 0, available: 3000, debt: 0 });
    // Lost: the VAT owed and the fee leave with a credit note, in the same transaction.
    expect(await platformMoves(id, "vat_FR")).toBe(-833);
    expect(await platformMoves(id, "platform_fees")).toBe(-417);
    expect(await platformMoves(id, "disputes_held")).toBe(0);
    const notes = await ctx.database.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, sold.orderId), eq(invoices.kind, "credit-note")));
    expect(notes).toEqual([
      expect.objectContaining({ totalMinor: -5000, vatMinor: -833, refundReference: `dispute:${id}` }),
    ]);
    expect(await auditLedger(ctx.database.db)).toEqual(clean);

    // The admin sees the dispute and the creator's rate.
    const list = ok(await call("GET", "/admin/disputes", admin), 200).json<AdminDisputeList>();
    expect(list.items.find((d) => d.id === id)).toMatchObject({
      status: "lost",
      creator: { id: creator.id },
    });
    expect(list.rates.find((r) => r.creatorId === creator.id)).toMatchObject({
      sales: 2,
      disputes: 1,
      rateBps: 5000,
    });
  });

  it("after the money was withdrawn, the share and the fee are the creator's debt; won gives everything back", async () => {
    const creator = await seller();
    const sold = await sale(creator.cookie);
    await releaseHoldsAsOf(ctx.database.db, new Date(Date.now() + 8 * DAY), [sold.orderId]);
    ok(
      await call("POST", "/profile/payout", creator.cookie, {
        bankAccountId: creator.bankId,
        currency: "EUR",
      }),
      201,
    );
    await runJobs();
    await dispute(sold.token);
    await runJobs();
    expect(await eur(creator.cookie)).toMatchObject({ available: 0, debt: -(4500 + FEE) });
    expect((await saleView(creator.cookie, sold.orderId)).disputes[0]).toMatchObject({
      debtMinor: 4500 + FEE,
    });
    expect((await mailsTo(ctx, creator.email)).map((m) => m.template)).toContain("debt-incurred");

    await decide(sold.orderId, "won");
    // The amount and the bank's fee come back; they repay the debt first, and nothing is left of it.
    expect(await eur(creator.cookie)).toMatchObject({ available: 0, debt: 0 });
    const view = await saleView(creator.cookie, sold.orderId);
    expect(view).toMatchObject({ status: "paid", disputedMinor: 0 });
    expect(view.disputes[0]).toMatchObject({
      status: "won",
      feeMinor: 0,
      held: { netMinor: 0, vatMinor: 0, feeMinor: 0 },
    });
    expect(await auditLedger(ctx.database.db)).toEqual(clean);
  });

  it("applies each event once, in any order, and waits for the payment of a dispute that comes first", async () => {
    const creator = await seller();
    const sold = await sale(creator.cookie);
    const base = {
      disputeId: "sbx_dp_replayed0001",
      paymentId: sold.paymentId,
      orderId: sold.orderId,
      amountMinor: 5000,
      currency: "EUR" as const,
      reason: "fraudulent",
      evidenceDueBy: new Date(Date.now() + 7 * DAY).toISOString(),
      fundsWithdrawn: true,
      feeMinor: FEE,
    };
    const lost = sandboxDisputeEvent({ ...base, status: "lost", evidenceDueBy: null });
    const opened = sandboxDisputeEvent({ ...base, status: "needs_response" });
    // The outcome arrives first: held and lost at once; the older event changes nothing.
    expect((await deliverSandboxEvent(ctx, lost)).json()).toMatchObject({ result: "applied" });
    expect((await deliverSandboxEvent(ctx, lost)).json()).toMatchObject({ result: "duplicate" });
    expect((await deliverSandboxEvent(ctx, opened)).json()).toMatchObject({ result: "applied" });
    const view = await saleView(creator.cookie, sold.orderId);
    expect(view.disputes).toHaveLength(1);
    expect(view.disputes[0]).toMatchObject({ status: "lost", feeMinor: FEE });
    expect(view).toMatchObject({ status: "refunded" });
    expect(await eur(creator.cookie)).toMatchObject({ pending: 0, debt: -FEE });

    // A dispute of a payment not applied yet is refused (the provider delivers it again).
    const unpaid = ok(
      await helpers.checkout((await helpers.newLink(creator.cookie)).token),
      201,
    ).json<CheckoutResponse>();
    const early = sandboxDisputeEvent({
      ...base,
      disputeId: "sbx_dp_early000001",
      paymentId: unpaid.paymentId,
      orderId: unpaid.orderId,
      amountMinor: 2000,
      status: "needs_response",
    });
    expect((await deliverSandboxEvent(ctx, early)).statusCode).toBeGreaterThanOrEqual(500);
    await helpers.pay(unpaid);
    expect((await deliverSandboxEvent(ctx, early)).json()).toMatchObject({ result: "applied" });
    expect(await auditLedger(ctx.database.db)).toEqual(clean);
  });

  it("the dispute test card's payment is disputed a moment after it succeeds", async () => {
    const creator = await seller();
    const sold = await sale(creator.cookie, { card: sandboxCards.disputed });
    await ctx.database.db
      .update(jobs)
      .set({ runAt: new Date() })
      .where(eq(jobs.dedupeKey, `sandbox-dispute:${sold.paymentId}`));
    await runJobs();
    await runJobs();
    expect((await saleView(creator.cookie, sold.orderId)).disputes[0]).toMatchObject({
      status: "needs_response",
      reason: "fraudulent",
    });
    // Once is all: the order page's control refuses a second dispute of the same payment.
    expect(
      (await call("POST", `/sandbox/orders/${sold.token}/dispute`, undefined, { reason: "general" }))
        .statusCode,
    ).toBe(409);
  });
});
