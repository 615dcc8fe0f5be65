import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type {
  AdminOrderList,
  AdminReport,
  AdminReportList,
  CheckoutResponse,
  CheckoutStatus,
  Link,
  OrderView,
} from "@salelink/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminAuditLog, jobs, ledgerTransactions, links } from "../../src/db/schema/index.ts";
import { auditLedger } from "../../src/modules/wallet/ledger.ts";
import {
  accountWithSession,
  directSessionCookie,
  errorOf,
  insertAccount,
  lastMail,
  uniqueEmail,
} from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";
import { multipart } from "../support/uploads.ts";

let ctx: TestContext;
let uploadsDir: string;
let admin: { id: string; cookie: string };
let creator: { id: string; email: string; cookie: string };

const helpers = checkoutHelpers(() => ctx);
const { call, checkout, pay } = helpers;
const runJobs = () => ctx.app.services.jobs.worker.runDue();
const reason = { reason: "Checked against the report's evidence." };

async function adminAccount() {
  return accountWithSession(ctx.database, { onboarded: true, role: "admin" });
}

/** A link with a sold file, paid by a buyer of its own: answers the link, the order and its token. */
async function paidOrder(title = "Sunset pack") {
  const photo = readFileSync(path.resolve(import.meta.dirname, "../fixtures/files/photo.jpg"));
  const { body, contentType } = multipart([{ filename: "photo.jpg", data: photo }]);
  const uploaded = await ctx.app.inject({
    method: "POST",
    url: "/upload?use=content",
    headers: { cookie: creator.cookie, "content-type": contentType },
    payload: body,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const link: Link = await helpers.newLink(creator.cookie, {
    title,
    fileId: uploaded.json<{ id: string }>().id,
  });
  const buyer = uniqueEmail("buyer");
  const started = (await checkout(link.token, { email: buyer })).json<CheckoutResponse>();
  await pay(started);
  const outcome = (
    await call("GET", `/checkout/${started.orderId}?secret=${started.checkoutSecret}`)
  ).json<CheckoutStatus>();
  expect(outcome.status).toBe("paid");
  return { link, buyer, orderId: started.orderId, token: outcome.orderToken ?? "" };
}

const report = (token: string, message = "The files are not the ones shown.") =>
  call("POST", "/report", { token, reason: "copyright", message });

const reports = async (status = "open") =>
  (
    await call("GET", `/admin/reports?status=${status}&limit=100`, undefined, admin.cookie)
  ).json<AdminReportList>().items;

beforeAll(async () => {
  uploadsDir = mkdtempSync(path.join(os.tmpdir(), "salelink-admin-ops-test-"));
  ctx = await testApp({
    UPLOADS_DIR: uploadsDir,
    // Refused at once: the revalidation job is queued, and fails harmlessly when the worker runs it.
    WEB_REVALIDATE_URL: "http://127.0.0.1:9/api/revalidate",
    WEB_REVALIDATE_SECRET: "r".repeat(32),
    PUBLIC_READ_CACHE_MS: "60000",
  });
  admin = await adminAccount();
  const account = await insertAccount(ctx.database, { onboarded: true, locale: "fr" });
  creator = { ...account, cookie: await directSessionCookie(ctx.database, account.id) };
});
afterAll(async () => {
  await ctx.close();
  rmSync(uploadsDir, { recursive: true, force: true });
});

describe(`admin routes for reports, orders and the export refuse others (${dbKind})`, () => {
  it.each([
    ["GET", "/admin/reports"],
    ["POST", `/admin/reports/${randomUUID()}/dismiss`],
    ["POST", `/admin/reports/${randomUUID()}/takedown`],
    ["GET", "/admin/orders"],
    ["POST", `/admin/orders/${randomUUID()}/refund`],
    ["GET", "/admin/payouts/export"],
    ["GET", "/admin/payouts/export?format=pain001"],
  ] as const)("%s %s: 401 anonymous, 403 for a user", async (method, url) => {
    const payload = method === "POST" ? reason : undefined;
    expect((await call(method, url, payload)).statusCode).toBe(401);
    expect((await call(method, url, payload, creator.cookie)).statusCode).toBe(403);
  });
});

describe(`the reports queue (${dbKind})`, () => {
  it("takes a link down: no more sales, 404 page, buyers keep access, reports actioned, creator told", async () => {
    const sold = await paidOrder("Stolen pack");
    expect((await report(sold.token)).statusCode).toBe(201);
    expect((await report(sold.link.token, "Copied from my portfolio without consent.")).statusCode).toBe(201);
    // The page is read (and cached by this instance) before the takedown.
    expect((await call("GET", `/public/links/${sold.link.token}`)).statusCode).toBe(200);

    const open = (await reports()).filter((r) => r.link.id === sold.link.id);
    expect(open).toHaveLength(2);
    const [first, second] = open as [AdminReport, AdminReport];
    // The queue is oldest first: the order's report came first.
    expect(first.order).toMatchObject({ id: sold.orderId, status: "paid", total: 2000, currency: "EUR" });
    expect(second.order).toBeNull();
    expect(first).toMatchObject({
      status: "open",
      reason: "copyright",
      message: "The files are not the ones shown.",
      link: {
        id: sold.link.id,
        title: "Stolen pack",
        token: sold.link.token,
        status: "active",
        creator: { id: creator.id, email: creator.email },
      },
      content: { title: "Stolen pack", description: "", coverUrl: null },
      handled: null,
    });
    // The sold file's public, blurred preview, as the link page shows it; never the file itself.
    expect(first.content.previewUrl).toMatch(/^\/media\/previews\//);

    const noReason = await call("POST", `/admin/reports/${first.id}/takedown`, {}, admin.cookie);
    expect(noReason.statusCode).toBe(400);
    const res = await call("POST", `/admin/reports/${first.id}/takedown`, reason, admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AdminReport>()).toMatchObject({
      status: "actioned",
      link: { status: "removed" },
      handled: { by: { id: admin.id }, note: reason.reason },
    });
    // The link's other open report is actioned with the same note.
    const handled = (await reports("actioned")).find((r) => r.id === second.id);
    expect(handled?.handled).toMatchObject({ by: { id: admin.id }, note: reason.reason });

    // Gone from the public pages at once (this instance's cache dropped), and from sale.
    expect((await call("GET", `/public/links/${sold.link.token}`)).statusCode).toBe(404);
    const late = await checkout(sold.link.token, { email: uniqueEmail("late") });
    expect(late.statusCode).toBe(409);
    expect(late.json()).not.toHaveProperty("orderId");
    // The buyer who paid keeps the order and its file.
    const order = await call("GET", `/orders/${sold.token}`);
    expect(order.statusCode).toBe(200);
    expect(order.json<OrderView>()).toMatchObject({ status: "paid", title: "Stolen pack" });
    expect(order.json<OrderView>().files).toHaveLength(1);
    // The creator cannot put it back on sale.
    const resume = await call("POST", `/links/${sold.link.id}/resume`, undefined, creator.cookie);
    expect(resume.statusCode).toBe(409);

    // The web app is asked to drop the page, in the takedown's transaction.
    const queued = await ctx.database.db.select().from(jobs).where(eq(jobs.kind, "web.revalidate"));
    expect(queued.some((j) => JSON.stringify(j.payload).includes(`link:${sold.link.token}`))).toBe(true);

    // The creator is told in their language (French), with the reason.
    const mail = await lastMail(ctx, creator.email, "link-removed");
    expect(mail.locale).toBe("fr");
    expect(mail.subject).toBe("Votre lien a été retiré : Stolen pack");

    const [entry] = await ctx.database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.action, "report.takedown"), eq(adminAuditLog.targetId, first.id)));
    expect(entry).toMatchObject({ actorId: admin.id, targetType: "report", reason: reason.reason });
    expect(entry?.details).toMatchObject({ linkId: sold.link.id });
    expect(JSON.stringify(entry?.details)).not.toContain("@");

    // Already handled: 409, and nothing more is written.
    for (const action of ["takedown", "dismiss"]) {
      const again = await call("POST", `/admin/reports/${second.id}/${action}`, reason, admin.cookie);
      expect(again.statusCode).toBe(409);
      expect(errorOf(again).message).toBe("This report was already handled.");
    }
    const entries = await ctx.database.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.action, "report.takedown"));
    expect(entries.filter((e) => e.targetId === second.id)).toHaveLength(0);
  });

  it("dismisses a report with a note; the link stays on sale; two admins at once: one wins", async () => {
    const link = await helpers.newLink(creator.cookie, { title: "Fine pack" });
    expect((await report(link.token)).statusCode).toBe(201);
    const target = (await reports()).find((r) => r.link.id === link.id);
    if (!target) throw new Error("report not listed");
    const both = await Promise.all([
      call("POST", `/admin/reports/${target.id}/dismiss`, reason, admin.cookie),
      call("POST", `/admin/reports/${target.id}/takedown`, reason, admin.cookie),
    ]);
    const codes = both.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409]);
    const [row] = await ctx.database.db.select().from(links).where(eq(links.id, link.id));
    const winner = both.find((r) => r.statusCode === 200)?.json<AdminReport>();
    // Whichever won, the link's status matches it.
    expect(row?.status).toBe(winner?.status === "dismissed" ? "active" : "removed");
    expect(winner?.handled?.note).toBe(reason.reason);
    expect(
      (await call("GET", `/admin/reports/${randomUUID()}/dismiss`, undefined, admin.cookie)).statusCode,
    ).toBe(404);
    expect(
      (await call("POST", `/admin/reports/${randomUUID()}/dismiss`, reason, admin.cookie)).statusCode,
    ).toBe(404);
  });

  it("pages through the queue with the cursor", async () => {
    const link = await helpers.newLink(creator.cookie, { title: "Paged pack" });
    for (let i = 0; i < 3; i++) {
      const res = await call("POST", "/report", {
        token: link.token,
        reason: "other",
        message: `Report number ${i} on this link.`,
      });
      // One reporter may keep three reports open on a link.
      expect(res.statusCode).toBe(201);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: AdminReportList = (
        await call(
          "GET",
          `/admin/reports?limit=1${cursor ? `&cursor=${cursor}` : ""}`,
          undefined,
          admin.cookie,
        )
      ).json<AdminReportList>();
      seen.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
    } while (cursor);
    const all = (await reports()).map((r) => r.id);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe(`orders: search and refund (${dbKind})`, () => {
  it("finds orders by id, buyer e-mail, link title and creator e-mail, newest first", async () => {
    const title = `Findable ${randomBytes(3).toString("hex")}`;
    const a = await paidOrder(title);
    const b = await paidOrder(title);
    const search = async (query: string) =>
      (await call("GET", `/admin/orders?${query}`, undefined, admin.cookie)).json<AdminOrderList>().items;
    expect((await search(`q=${encodeURIComponent(title)}`)).map((o) => o.id)).toEqual([b.orderId, a.orderId]);
    const [byBuyer] = await search(`q=${encodeURIComponent(a.buyer)}`);
    expect(byBuyer).toMatchObject({
      id: a.orderId,
      status: "paid",
      total: 2000,
      currency: "EUR",
      buyerEmail: a.buyer,
      linkTitle: title,
      creator: { id: creator.id, email: creator.email },
      provider: "sandbox",
      refundedAt: null,
    });
    expect(byBuyer?.paidAt).not.toBeNull();
    expect((await search(`q=${a.orderId}`)).map((o) => o.id)).toEqual([a.orderId]);
    expect((await search(`q=${encodeURIComponent(creator.email)}`)).length).toBeGreaterThanOrEqual(2);
    expect(await search(`q=${encodeURIComponent(title)}&status=refunded`)).toEqual([]);
    // A LIKE wildcard in the search is taken literally.
    expect(await search("q=%25%25%25")).toEqual([]);
    const first = (
      await call("GET", `/admin/orders?q=${encodeURIComponent(title)}&limit=1`, undefined, admin.cookie)
    ).json<AdminOrderList>();
    expect(first.items.map((o) => o.id)).toEqual([b.orderId]);
    const next = (
      await call(
        "GET",
        `/admin/orders?q=${encodeURIComponent(title)}&limit=1&cursor=${first.nextCursor}`,
        undefined,
        admin.cookie,
      )
    ).json<AdminOrderList>();
    expect(next).toEqual({ items: [expect.objectContaining({ id: a.orderId })], nextCursor: null });
  });

  it("refunds once, with a reason, however often it is asked; the buyer is told and loses access", async () => {
    const sold = await paidOrder("Refunded pack");
    const url = `/admin/orders/${sold.orderId}/refund`;
    expect((await call("POST", url, {}, admin.cookie)).statusCode).toBe(400);
    const other = await adminAccount();
    const asks = await Promise.all([
      call("POST", url, reason, admin.cookie),
      call("POST", url, reason, other.cookie),
      call("POST", url, reason, admin.cookie),
    ]);
    expect(asks.map((r) => r.statusCode).sort()).toEqual([202, 409, 409]);
    await runJobs();
    await runJobs();
    // Asked again once the provider confirmed: the order is refunded, nothing more happens.
    expect((await call("POST", url, reason, admin.cookie)).statusCode).toBe(409);
    await runJobs();

    const reversals = await ctx.database.db
      .select()
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.kind, "refund"), eq(ledgerTransactions.reference, sold.orderId)));
    expect(reversals).toHaveLength(1);
    expect(await auditLedger(ctx.database.db)).toEqual({
      unbalancedTransactions: [],
      balancesNotMatchingEntries: [],
      negativeBalances: [],
    });
    const audits = await ctx.database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.action, "order.refund"), eq(adminAuditLog.targetId, sold.orderId)));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ targetType: "order", reason: reason.reason });

    // The buyer is e-mailed (in the checkout's language) and the order page no longer gives the file.
    const mail = await lastMail(ctx, sold.buyer, "order-refunded");
    expect(mail.locale).toBe("fr");
    const page = await call("GET", `/orders/${sold.token}`);
    expect(page.statusCode).toBe(200);
    expect(page.json<OrderView>()).toMatchObject({ status: "refunded", files: [] });
    const [found] = (
      await call("GET", `/admin/orders?q=${sold.orderId}`, undefined, admin.cookie)
    ).json<AdminOrderList>().items;
    expect(found?.status).toBe("refunded");
    expect(found?.refundedAt).not.toBeNull();
  });
});
