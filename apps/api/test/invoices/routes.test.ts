import type { AddressInfo } from "node:net";
import {
  type CheckoutResponse,
  type Library,
  type OrderView,
  quarterOf,
  sandboxCards,
  type VatOssReport,
} from "@salelink/contracts";
import { and, asc, eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { adminAuditLog, invoices, mailOutbox, orders } from "../../src/db/schema/index.ts";
import { orderAccessToken } from "../../src/modules/checkout/order-access.ts";
import { creatorStatementPdf } from "../../src/modules/invoices/statements.ts";
import { SmtpMailProvider } from "../../src/providers/mail/index.ts";
import { accountWithSession, uniqueEmail } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

/*
 * Issue 22: the invoices as PDFs behind the order's token, the creator's monthly statement, the
 * receipt carrying the invoice, and the One-Stop Shop figures equal to the ledger.
 */

let ctx: TestContext;
let creator: { id: string; cookie: string };
let other: { id: string; cookie: string };
let admin: { id: string; cookie: string };
const helpers = checkoutHelpers(() => ctx);
const runJobs = () => ctx.app.services.jobs.worker.runDue();

interface Sale {
  started: CheckoutResponse;
  token: string;
  email: string;
}
let fr: Sale;
let hu: Sale;
let plain: Sale;

async function taxedSale(country: "FR" | "HU" | null, card: string, email = uniqueEmail("vat-buyer")) {
  const link = await helpers.newLink(creator.cookie, {
    title: `Pack ${country ?? "plain"}`,
    priceMinor: 2000,
  });
  const res = await helpers.checkout(link.token, { email, ...(country ? { billingCountry: country } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  const started = res.json<CheckoutResponse>();
  await helpers.pay(started, card);
  await runJobs();
  return { started, token: orderAccessToken(ctx.config, started.orderId), email };
}

const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: "GET", url, headers: { ...headers, ...(cookie ? { cookie } : {}) } });

const invoicesOf = (orderId: string) =>
  ctx.database.db
    .select()
    .from(invoices)
    .where(eq(invoices.orderId, orderId))
    .orderBy(asc(invoices.issuedAt));

beforeAll(async () => {
  ctx = await testApp();
  creator = await accountWithSession(ctx.database, { onboarded: true });
  other = await accountWithSession(ctx.database, { onboarded: true });
  admin = await accountWithSession(ctx.database, { onboarded: true, role: "admin" });
  fr = await taxedSale("FR", sandboxCards.successFR);
  hu = await taxedSale("HU", sandboxCards.successHU);
  plain = await taxedSale(null, sandboxCards.success);
});
afterAll(() => ctx?.close());

describe(`invoice downloads (${dbKind})`, () => {
  it("lists the invoice and the VAT on the order page", async () => {
    const view = (await get(`/orders/${fr.token}`)).json<OrderView>();
    const [invoice] = await invoicesOf(fr.started.orderId);
    expect(view.vat).toMatchObject({ scheme: "standard", country: "FR", rateBps: 2000 });
    expect(view.vat?.vatMinor).toBe(invoice?.vatMinor);
    expect(view.vat?.netMinor).toBe(2000 - (invoice?.vatMinor ?? 0));
    expect(view.invoices).toEqual([
      {
        id: invoice?.id,
        kind: "invoice",
        number: `${invoice?.series}-${String(invoice?.number).padStart(6, "0")}`,
        issuedAt: invoice?.issuedAt.toISOString(),
        totalMinor: 2000,
      },
    ]);
  });

  it("serves the invoice as a PDF to the order's token, and to nobody else", async () => {
    const [invoice] = await invoicesOf(fr.started.orderId);
    const number = `${invoice?.series}-${String(invoice?.number).padStart(6, "0")}`;
    const res = await get(`/orders/${fr.token}/invoices/${invoice?.id}.pdf`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="invoice-${number}.pdf"`);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");

    // Another order's token, a made-up one, a malformed one: the same 404.
    for (const token of [hu.token, "x".repeat(43), "short"]) {
      const refused = await get(`/orders/${token}/invoices/${invoice?.id}.pdf`);
      expect(refused.statusCode, token).toBe(404);
    }
    const unknown = await get(`/orders/${fr.token}/invoices/00000000-0000-4000-8000-000000000000.pdf`);
    expect(unknown.statusCode).toBe(404);
  });

  it("lists the same invoices in the buyer's library, whose order tokens open the PDFs", async () => {
    const buyer = await accountWithSession(ctx.database, { email: hu.email });
    const library = (await get("/purchases", buyer.cookie)).json<Library>();
    const [order] = library.orders;
    const [invoice] = await invoicesOf(hu.started.orderId);
    expect(order?.invoices.map((i) => i.id)).toEqual([invoice?.id]);
    expect(order?.vat).toMatchObject({ scheme: "standard", country: "HU", rateBps: 2700 });
    const pdf = await get(`/orders/${order?.orderToken}/invoices/${invoice?.id}.pdf`);
    expect(pdf.statusCode).toBe(200);
  });

  it("attaches the invoice to the receipt in the outbox", async () => {
    const [invoice] = await invoicesOf(fr.started.orderId);
    const [receipt, ...more] = await ctx.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, fr.email), eq(mailOutbox.template, "order-receipt")));
    expect(more).toEqual([]);
    expect(receipt?.attachments).toEqual([
      {
        filename: `invoice-${invoice?.series}-${String(invoice?.number).padStart(6, "0")}.pdf`,
        contentType: "application/pdf",
        sizeBytes: expect.any(Number),
      },
    ]);
    expect(receipt?.attachments?.[0]?.sizeBytes).toBeGreaterThan(1000);
  });
});

describe(`monthly statements (${dbKind})`, () => {
  const month = new Date().toISOString().slice(0, 7);

  it("serves the signed-in creator's statement as a PDF, and refuses a bad or future month", async () => {
    const res = await get(`/statements/${month}.pdf`, creator.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="statement-${month}.pdf"`);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect((await get(`/statements/${month}.pdf`)).statusCode).toBe(401);
    const next = new Date();
    next.setUTCDate(1);
    next.setUTCMonth(next.getUTCMonth() + 1);
    expect((await get(`/statements/${next.toISOString().slice(0, 7)}.pdf`, creator.cookie)).statusCode).toBe(
      400,
    );
    expect((await get("/statements/2026-13.pdf", creator.cookie)).statusCode).toBe(400);
    expect((await get("/statements/26-01.pdf", creator.cookie)).statusCode).toBe(400);
  });

  it("totals the month's sales per currency, net of refunds, and adds up", async () => {
    const refund = await helpers.call(
      "POST",
      `/sales/${plain.started.orderId}/refunds`,
      { amountMinor: 500, reason: "Part of it" },
      creator.cookie,
    );
    expect(refund.statusCode, refund.body).toBe(202);
    await runJobs();
    const now = new Date();
    const { statement } = await creatorStatementPdf(ctx.database.db, ctx.config, {
      creatorId: creator.id,
      month,
      locale: "en",
      now,
    });
    const rows = await ctx.database.db.select().from(orders).where(eq(orders.creatorId, creator.id));
    const sum = (f: (o: (typeof rows)[number]) => number) => rows.reduce((a, o) => a + f(o), 0);
    expect(statement.totals).toEqual([
      {
        currency: "EUR",
        salesCount: 3,
        grossMinor: 6000,
        refundsMinor: 500,
        vatMinor: sum((o) => o.vatMinor - o.refundedVatMinor),
        feesMinor: sum((o) => (o.feeMinor ?? 0) - o.refundedFeeMinor - o.refundedCommissionMinor),
        commissionsMinor: 0,
        netMinor: sum((o) => (o.netMinor ?? 0) - o.refundedNetMinor),
      },
    ]);
    const [t] = statement.totals;
    expect(t && t.grossMinor - t.refundsMinor - t.vatMinor - t.feesMinor - t.commissionsMinor).toBe(
      t?.netMinor,
    );
    expect(t?.vatMinor).toBeGreaterThan(0);
    expect(statement.sales.map((s) => s.link)).toEqual(["Pack FR", "Pack HU", "Pack plain"]);

    // Another creator's statement of the same month holds none of these sales.
    const theirs = await creatorStatementPdf(ctx.database.db, ctx.config, {
      creatorId: other.id,
      month,
      locale: "en",
      now,
    });
    expect(theirs.statement.totals).toEqual([]);
    expect(theirs.statement.sales).toEqual([]);
  });
});

describe(`the One-Stop Shop report (${dbKind})`, () => {
  const quarter = quarterOf(new Date());

  it("gives per member state and rate the taxable amount and VAT of invoices and credit notes, equal to the ledger", async () => {
    const refund = await helpers.call(
      "POST",
      `/sales/${fr.started.orderId}/refunds`,
      { amountMinor: 1000, reason: "Half of it" },
      creator.cookie,
    );
    expect(refund.statusCode, refund.body).toBe(202);
    await runJobs();
    const [frInvoice, frCredit] = await invoicesOf(fr.started.orderId);
    const [huInvoice] = await invoicesOf(hu.started.orderId);
    expect(frCredit?.kind).toBe("credit-note");

    const res = await get(`/admin/vat/oss?quarter=${quarter}`, admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<VatOssReport>();
    expect(report.quarter).toBe(quarter);
    expect(report.rows).toEqual([
      {
        country: "FR",
        rateBps: 2000,
        currency: "EUR",
        taxableMinor: (frInvoice?.netMinor ?? 0) + (frCredit?.netMinor ?? 0),
        vatMinor: (frInvoice?.vatMinor ?? 0) + (frCredit?.vatMinor ?? 0),
        documents: 2,
      },
      {
        country: "HU",
        rateBps: 2700,
        currency: "EUR",
        taxableMinor: huInvoice?.netMinor,
        vatMinor: huInvoice?.vatMinor,
        documents: 1,
      },
    ]);
    expect(report.ledger).toEqual([
      {
        country: "FR",
        currency: "EUR",
        invoicedVatMinor: report.rows[0]?.vatMinor,
        ledgerVatMinor: report.rows[0]?.vatMinor,
        matches: true,
      },
      {
        country: "HU",
        currency: "EUR",
        invoicedVatMinor: huInvoice?.vatMinor,
        ledgerVatMinor: huInvoice?.vatMinor,
        matches: true,
      },
    ]);
    expect(report.matches).toBe(true);
    // The current quarter by default.
    expect((await get("/admin/vat/oss", admin.cookie)).json<VatOssReport>().quarter).toBe(quarter);
  });

  it("refuses a quarter not started or badly written, and anyone but an admin", async () => {
    const [year] = quarter.split("-");
    expect((await get(`/admin/vat/oss?quarter=${Number(year) + 1}-Q1`, admin.cookie)).statusCode).toBe(400);
    expect((await get("/admin/vat/oss?quarter=2026-Q5", admin.cookie)).statusCode).toBe(400);
    expect((await get("/admin/vat/oss", creator.cookie)).statusCode).toBe(403);
    expect((await get("/admin/vat/oss.csv", creator.cookie)).statusCode).toBe(403);
    expect((await get("/admin/vat/oss.csv")).statusCode).toBe(401);
  });

  it("exports the same figures as a formula-safe CSV, and audits the download", async () => {
    const report = (await get(`/admin/vat/oss?quarter=${quarter}`, admin.cookie)).json<VatOssReport>();
    const res = await get(`/admin/vat/oss.csv?quarter=${quarter}`, admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="vat-oss-${quarter}.csv"`);
    const lines = res.body.split("\r\n");
    expect(lines[0]).toBe(
      "quarter,country,rate_percent,currency,taxable_amount,vat,documents,ledger_vat,matches",
    );
    const fr = report.rows[0];
    const euros = (minor = 0) =>
      `${minor < 0 ? "-" : ""}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, "0")}`;
    expect(lines[1]).toBe(
      `${quarter},FR,20.00,EUR,${euros(fr?.taxableMinor)},${euros(fr?.vatMinor)},2,${euros(fr?.vatMinor)},yes`,
    );
    expect(lines).toHaveLength(report.rows.length + 2);
    // No cell a spreadsheet would run: only plain numbers may start with a minus.
    for (const cell of lines.flatMap((l) => l.split(","))) {
      expect(/^[=+@\t\r]/.test(cell) || (/^-/.test(cell) && !/^-\d+(\.\d+)?$/.test(cell))).toBe(false);
    }
    const [entry] = await ctx.database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.action, "vat.export"), eq(adminAuditLog.actorId, admin.id)));
    expect(entry).toMatchObject({ targetType: "vat", targetId: quarter });
  });
});

describe(`the receipt over SMTP (${dbKind})`, () => {
  it("carries the invoice as a PDF attachment", async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      logger: false,
      disabledCommands: ["STARTTLS", "AUTH"],
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          received.push(Buffer.concat(chunks).toString("utf8"));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const mail = new SmtpMailProvider({
      host: "127.0.0.1",
      port: (server.server.address() as AddressInfo).port,
      secure: false,
      from: "Salelink <no-reply@salelink.test>",
    });
    const smtp = await testApp({}, undefined, { mail });
    onTestFinished(() => smtp.close());
    const seller = await accountWithSession(smtp.database, { onboarded: true });
    const shop = checkoutHelpers(() => smtp);
    const started = await shop.sale(seller.cookie);
    await smtp.app.services.jobs.worker.runDue();
    const [invoice] = await smtp.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, started.orderId));
    const filename = `invoice-${invoice?.series}-${String(invoice?.number).padStart(6, "0")}.pdf`;
    const receipt = received.find((raw) => raw.includes(`filename=${filename}`));
    expect(receipt, received.join("\n----\n").slice(0, 2000)).toBeDefined();
    expect(receipt).toMatch(/^Content-Type: application\/pdf; name=invoice-\d{4}-\d{6}\.pdf\r$/m);
    expect(receipt).toMatch(/^Content-Disposition: attachment; filename=invoice-\d{4}-\d{6}\.pdf\r$/m);
    expect(receipt).toContain(Buffer.from("%PDF-").toString("base64").slice(0, 6));
  });
});
