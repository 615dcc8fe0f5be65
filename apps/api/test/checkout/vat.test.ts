import { type CheckoutResponse, type SandboxPaymentResult, sandboxCards } from "@salelink/contracts";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoices, ledgerEntries, ledgerTransactions, links, orders } from "../../src/db/schema/index.ts";
import { accountWithSession, errorOf, uniqueEmail } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

/*
 * Issue 22: every sale taxed right (decision 039). The billing country the buyer gives and the card's
 * issuing country the provider reports decide the VAT together; a business with a valid VAT number
 * pays none (reverse charge); the VAT is owed to the country, the fee is taken on the rest.
 */

let ctx: TestContext;
let creator: { id: string; cookie: string };
const helpers = checkoutHelpers(() => ctx);
const runJobs = () => ctx.app.services.jobs.worker.runDue();

beforeAll(async () => {
  ctx = await testApp();
  creator = await accountWithSession(ctx.database, { onboarded: true });
});
afterAll(() => ctx?.close());

async function link(priceMinor = 2000, inclusive = true) {
  const made = await helpers.newLink(creator.cookie, { priceMinor });
  if (!inclusive)
    await ctx.database.db.update(links).set({ pricesIncludeVat: false }).where(eq(links.id, made.id));
  return made;
}

const confirm = (paymentId: string, card: string, country?: string) =>
  helpers.call("POST", `/sandbox/payments/${paymentId}/confirm`, {
    card,
    expiry: "12/34",
    cvc: "123",
    ...(country ? { country } : {}),
  });

async function buy(token: string, extra: object, card: string = sandboxCards.success) {
  const res = await helpers.checkout(token, { email: uniqueEmail("vat-buyer"), ...extra });
  expect(res.statusCode, res.body).toBe(201);
  const started = res.json<CheckoutResponse>();
  const paid = await confirm(started.paymentId, card);
  expect(paid.json<SandboxPaymentResult>().status, paid.body).toBe("succeeded");
  await runJobs();
  const [order] = await ctx.database.db.select().from(orders).where(eq(orders.id, started.orderId));
  return { started, order };
}

/** What the order's sale posted on each account. */
async function posted(orderId: string) {
  const rows = await ctx.database.db
    .select({ account: ledgerEntries.account, amount: ledgerEntries.amountMinor })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(and(eq(ledgerTransactions.kind, "order_paid"), eq(ledgerTransactions.reference, orderId)));
  return Object.fromEntries(rows.map((r) => [r.account, r.amount]));
}

describe(`VAT at checkout (${dbKind})`, () => {
  it("a French consumer whose card is French pays the price shown, 20 % VAT in it, owed to France", async () => {
    const { started, order } = await buy(
      (await link()).token,
      { billingCountry: "FR" },
      sandboxCards.successFR,
    );
    expect(started.total).toBe(2000);
    expect(started.vat).toMatchObject({ scheme: "standard", country: "FR", rateBps: 2000, vatMinor: 333 });
    expect(order).toMatchObject({ status: "paid", vatScheme: "standard", vatCountry: "FR", vatMinor: 333 });
    expect(order?.vatEvidence).toMatchObject({ billingCountry: "FR", cardCountry: "FR", decision: "agree" });
    // The fee is 10 % of the 1,667 net of VAT.
    expect(order?.feeMinor).toBe(167);
    expect(await posted(started.orderId)).toMatchObject({
      provider: -2000,
      vat_FR: 333,
      platform_fees: 167,
      pending: 1500,
    });
    const [invoice] = await ctx.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, started.orderId));
    expect(invoice).toMatchObject({
      vatMinor: 333,
      netMinor: 1667,
      totalMinor: 2000,
      vatRateBps: 2000,
      vatCountry: "FR",
      scheme: "standard",
    });
  });

  it("a German consumer whose card reports no country: the billing country alone, 19 %", async () => {
    const { order } = await buy((await link()).token, { billingCountry: "DE" });
    expect(order).toMatchObject({ vatCountry: "DE", vatRateBps: 1900, vatMinor: 319 });
    expect(order?.vatEvidence).toMatchObject({ decision: "billing-only", cardCountry: null });
  });

  it("a Hungarian consumer of a price without VAT pays 27 % on top", async () => {
    const { started, order } = await buy(
      (await link(2000, false)).token,
      { billingCountry: "HU" },
      sandboxCards.successHU,
    );
    expect(started.total).toBe(2540);
    expect(order).toMatchObject({
      totalMinor: 2540,
      vatMinor: 540,
      vatCountry: "HU",
      pricesIncludeVat: false,
    });
    expect(order?.feeMinor).toBe(200);
  });

  it("asks the buyer when the card's country contradicts the billing one, and keeps why", async () => {
    const res = await helpers.checkout((await link()).token, {
      email: uniqueEmail("contradiction"),
      billingCountry: "FR",
    });
    const started = res.json<CheckoutResponse>();
    const asked = await confirm(started.paymentId, sandboxCards.successDE);
    expect(asked.json()).toEqual({ status: "needs_country", countries: { billing: "FR", card: "DE" } });
    // Nothing is charged until the buyer says; a country that was not offered is refused.
    const [pending] = await ctx.database.db.select().from(orders).where(eq(orders.id, started.orderId));
    expect(pending?.status).toBe("pending");
    expect((await confirm(started.paymentId, sandboxCards.successDE, "IT")).statusCode).toBe(400);
    const paid = await confirm(started.paymentId, sandboxCards.successDE, "DE");
    expect(paid.json<SandboxPaymentResult>().status).toBe("succeeded");
    await runJobs();
    const [order] = await ctx.database.db.select().from(orders).where(eq(orders.id, started.orderId));
    expect(order).toMatchObject({ status: "paid", vatCountry: "DE", vatMinor: 319, totalMinor: 2000 });
    expect(order?.vatEvidence).toMatchObject({
      billingCountry: "FR",
      cardCountry: "DE",
      decidedCountry: "DE",
      decision: "buyer-confirmed",
      confirmedBy: "buyer",
    });
  });

  it("re-prices a price without VAT when the buyer confirms the card's country", async () => {
    const res = await helpers.checkout((await link(1000, false)).token, {
      email: uniqueEmail("reprice"),
      billingCountry: "DE",
    });
    const started = res.json<CheckoutResponse>();
    expect(started.total).toBe(1190);
    expect((await confirm(started.paymentId, sandboxCards.successHU)).json()).toMatchObject({
      status: "needs_country",
    });
    expect((await confirm(started.paymentId, sandboxCards.successHU, "HU")).json()).toMatchObject({
      status: "succeeded",
    });
    await runJobs();
    const [order] = await ctx.database.db.select().from(orders).where(eq(orders.id, started.orderId));
    // The provider took what the order says: its event matched and the sale was recorded.
    expect(order).toMatchObject({ status: "paid", totalMinor: 1270, vatMinor: 270, vatCountry: "HU" });
  });

  it("a business with a valid VAT number pays no VAT: reverse charge, kept on the invoice", async () => {
    const business = {
      vatNumber: "DE 136 695 976",
      name: "Muster GmbH",
      address: "Hauptstraße 1\n10115 Berlin",
    };
    const { started, order } = await buy(
      (await link()).token,
      { billingCountry: "DE", business },
      sandboxCards.successDE,
    );
    expect(started.vat).toMatchObject({ scheme: "reverse-charge", vatMinor: 0 });
    expect(order).toMatchObject({
      vatScheme: "reverse-charge",
      vatMinor: 0,
      buyerVatNumber: "DE136695976",
      buyerName: "Muster GmbH",
    });
    expect(order?.feeMinor).toBe(200);
    const [invoice] = await ctx.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, started.orderId));
    expect(invoice).toMatchObject({
      scheme: "reverse-charge",
      vatMinor: 0,
      buyer: { vatNumber: "DE136695976", name: "Muster GmbH" },
    });
  });

  it("refuses a malformed or unregistered VAT number on its field; VIES down, the buyer pays VAT", async () => {
    const token = (await link()).token;
    const ask = (vatNumber: string) =>
      helpers.checkout(token, {
        email: uniqueEmail("vat-number"),
        billingCountry: "DE",
        business: { vatNumber, name: "X GmbH" },
      });
    const malformed = await ask("DE12");
    expect(malformed.statusCode).toBe(400);
    expect(errorOf(malformed).errors?.["business.vatNumber"]?.[0]).toBe("This is not a valid VAT number.");
    // The sandbox's VIES: a number ending in 0000 is not registered, in 9999 gets no answer.
    const unknown = await ask("DE111110000");
    expect(errorOf(unknown).errors?.["business.vatNumber"]?.[0]).toBe(
      "This VAT number is not registered (VIES).",
    );
    const down = await ask("DE111139999");
    expect(down.statusCode, down.body).toBe(201);
    expect(down.json<CheckoutResponse>().vat).toMatchObject({ scheme: "standard", vatMinor: 319 });
  });

  it("charges no VAT outside the countries covered, and says why", async () => {
    const { order } = await buy((await link()).token, { billingCountry: "US" }, sandboxCards.successUS);
    expect(order).toMatchObject({ vatScheme: "outside", vatMinor: 0, vatCountry: null });
    expect(order?.vatEvidence).toMatchObject({ billingCountry: "US", cardCountry: "US", decision: "agree" });
    // A price without VAT needs the country first.
    const missing = await helpers.checkout((await link(2000, false)).token, {
      email: uniqueEmail("no-country"),
    });
    expect(errorOf(missing).errors?.billingCountry).toBeDefined();
  });

  it("reverses the VAT in proportion on a refund, and the ledger owes each country its invoices' VAT", async () => {
    const { started } = await buy((await link()).token, { billingCountry: "FR" }, sandboxCards.successFR);
    expect(
      (
        await helpers.call(
          "POST",
          `/sales/${started.orderId}/refunds`,
          { amountMinor: 1000, reason: "Half" },
          creator.cookie,
        )
      ).statusCode,
    ).toBe(202);
    await runJobs();
    const [order] = await ctx.database.db.select().from(orders).where(eq(orders.id, started.orderId));
    // Half of 333 is 166.5: the largest-remainder rounding gives the unit to the fee (posted after).
    expect(order).toMatchObject({ refundedMinor: 1000, refundedVatMinor: 166 });
    const [credit] = await ctx.database.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, started.orderId), eq(invoices.kind, "credit-note")));
    expect(credit).toMatchObject({ totalMinor: -1000, vatMinor: -166, netMinor: -834 });
    // Every country's VAT account holds what its invoices and credit notes say.
    const ledger = await ctx.database.db
      .select({
        account: ledgerEntries.account,
        amount: sql<number>`sum(${ledgerEntries.amountMinor})`.mapWith(Number),
      })
      .from(ledgerEntries)
      .where(inArray(ledgerEntries.account, ["vat_FR", "vat_DE", "vat_HU"]))
      .groupBy(ledgerEntries.account);
    const issued = await ctx.database.db
      .select({
        country: invoices.vatCountry,
        amount: sql<number>`sum(${invoices.vatMinor})`.mapWith(Number),
      })
      .from(invoices)
      .where(inArray(invoices.vatCountry, ["FR", "DE", "HU"]))
      .groupBy(invoices.vatCountry);
    expect(Object.fromEntries(ledger.map((r) => [r.account.slice(4), r.amount]))).toEqual(
      Object.fromEntries(issued.filter((r) => r.amount !== 0).map((r) => [r.country, r.amount])),
    );
  });
});
