import type { CheckoutResponse } from "@salelink/contracts";
import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoices } from "../../src/db/schema/index.ts";
import { invoiceNumber } from "../../src/modules/invoices/service.ts";
import { accountWithSession, uniqueEmail } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

/*
 * Issue 22: every paid order gets an invoice and every refund a credit note, numbered without gaps
 * per series in the payment's own transaction (decision 039).
 */

let ctx: TestContext;
let creator: { id: string; cookie: string };
let admin: { id: string; cookie: string };
const helpers = checkoutHelpers(() => ctx);
const runJobs = () => ctx.app.services.jobs.worker.runDue();

beforeAll(async () => {
  ctx = await testApp();
  creator = await accountWithSession(ctx.database, { onboarded: true });
  admin = await accountWithSession(ctx.database, { onboarded: true, role: "admin" });
});
afterAll(() => ctx?.close());

const invoicesOf = (orderIds: string[]) =>
  ctx.database.db
    .select()
    .from(invoices)
    .where(inArray(invoices.orderId, orderIds))
    .orderBy(asc(invoices.series), asc(invoices.number));

describe(`invoices and credit notes (${dbKind})`, () => {
  it("issues one invoice per paid order, in its series, with the supplier and the buyer", async () => {
    const link = await helpers.newLink(creator.cookie, { title: "Invoiced pack", priceMinor: 2000 });
    const buyer = uniqueEmail("invoice-buyer");
    const started = (await helpers.checkout(link.token, { email: buyer })).json<CheckoutResponse>();
    await helpers.pay(started);
    const [invoice, ...rest] = await invoicesOf([started.orderId]);
    expect(rest).toEqual([]);
    const year = new Date().getUTCFullYear();
    expect(invoice).toMatchObject({
      kind: "invoice",
      series: String(year),
      currency: "EUR",
      totalMinor: 2000,
      description: "Invoiced pack",
      locale: "fr",
      seller: { name: "Salelink Test SAS", address: ["1 rue de l'Exemple", "75001 Paris", "France"] },
      buyer: { email: buyer },
    });
    expect(invoice?.netMinor).toBe(2000 - (invoice?.vatMinor ?? 0));
    expect(invoiceNumber(String(year), 7)).toBe(`${year}-000007`);
  });

  it("never shares or skips a number, however many payments go through at once", async () => {
    const link = await helpers.newLink(creator.cookie, { priceMinor: 1500 });
    const started = await Promise.all(
      Array.from({ length: 12 }, async () =>
        (await helpers.checkout(link.token, { email: uniqueEmail("concurrent") })).json<CheckoutResponse>(),
      ),
    );
    await Promise.all(
      started.map((s) =>
        helpers.call("POST", `/sandbox/payments/${s.paymentId}/confirm`, {
          card: "4242424242424242",
          expiry: "12/34",
          cvc: "123",
        }),
      ),
    );
    await runJobs();
    const all = await ctx.database.db
      .select({ number: invoices.number })
      .from(invoices)
      .where(eq(invoices.series, String(new Date().getUTCFullYear())))
      .orderBy(asc(invoices.number));
    const numbers = all.map((r) => r.number);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    expect((await invoicesOf(started.map((s) => s.orderId))).length).toBe(12);
  });

  it("issues a credit note per refund, negative, referring to the invoice", async () => {
    const link = await helpers.newLink(creator.cookie, { priceMinor: 3000 });
    const started = (
      await helpers.checkout(link.token, { email: uniqueEmail("refunded") })
    ).json<CheckoutResponse>();
    await helpers.pay(started);
    const half = await helpers.call(
      "POST",
      `/sales/${started.orderId}/refunds`,
      { amountMinor: 1000, reason: "Half" },
      creator.cookie,
    );
    expect(half.statusCode, half.body).toBe(202);
    await runJobs();
    const rest = await helpers.call(
      "POST",
      `/admin/orders/${started.orderId}/refund`,
      { reason: "The rest" },
      admin.cookie,
    );
    expect(rest.statusCode, rest.body).toBe(202);
    await runJobs();
    await runJobs();
    const [invoice, first, second, ...more] = await ctx.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, started.orderId))
      .orderBy(asc(invoices.issuedAt));
    expect(more).toEqual([]);
    expect(invoice?.kind).toBe("invoice");
    expect(first).toMatchObject({ kind: "credit-note", totalMinor: -1000, refersToId: invoice?.id });
    expect(second).toMatchObject({ kind: "credit-note", totalMinor: -2000, refersToId: invoice?.id });
    expect(first?.series).toBe(`CN-${new Date().getUTCFullYear()}`);
    expect((second?.number ?? 0) - (first?.number ?? 0)).toBe(1);
  });
});
