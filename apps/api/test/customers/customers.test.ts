import type {
  AuditEntryView,
  CheckoutResponse,
  CustomerDetail,
  CustomerList,
  CustomerListQuery,
} from "@salelink/contracts";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminAuditLog, customers, orders, purchaseLinks } from "../../src/db/schema/index.ts";
import { TtlCache } from "../../src/lib/ttl-cache.ts";
import { listCustomers } from "../../src/modules/customers/service.ts";
import {
  accountWithSession,
  deletionToken,
  insertAccount,
  signInCookie,
  uniqueEmail,
} from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

/*
 * The creator's customers (issue 21): the list (search, link filter, paging, totals net of
 * refunds), the CSV export (formula-safe, audited), one customer's orders, nobody else's buyers,
 * and a deleted account's address gone from every list.
 */

let ctx: TestContext;
const helpers = checkoutHelpers(() => ctx);
let seller: { id: string; cookie: string };
let linkA: { id: string; token: string };
let linkB: { id: string; token: string };

const get = (url: string, cookie?: string) =>
  ctx.app.inject({ method: "GET", url, ...(cookie ? { headers: { cookie } } : {}) });
const list = async (query: string, cookie = seller.cookie): Promise<CustomerList> => {
  const res = await get(`/customers${query}`, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CustomerList>();
};

/** A paid purchase of `link` by `email`; its order id. */
async function bought(link: { token: string }, email: string): Promise<string> {
  const res = await helpers.checkout(link.token, { email });
  expect(res.statusCode, res.body).toBe(201);
  const started = res.json<CheckoutResponse>();
  await helpers.pay(started);
  return started.orderId;
}

const run = Math.random().toString(36).slice(2, 8);
const addr = (name: string) => `${name}-${run}@example.test`;

beforeAll(async () => {
  // Totals are counted afresh on every read here; their cache has its own test below.
  ctx = await testApp({ RATE_LIMIT_EMAIL_MAX: "1000", CUSTOMERS_COUNT_CACHE_MS: "0" });
  seller = await accountWithSession(ctx.database, { onboarded: true });
  linkA = await helpers.newLink(seller.cookie, { title: "Sunset pack", priceMinor: 2000 });
  linkB = await helpers.newLink(seller.cookie, { title: '=HYPERLINK("x")', priceMinor: 500 });
  // ann: A twice and B once; bob: B; "50_off" and "50xoff": the search's wildcard; "+cmd": a formula.
  await bought(linkA, addr("ann"));
  await bought(linkB, addr("bob"));
  await bought(linkA, addr("ann"));
  await bought(linkB, addr("50_off"));
  await bought(linkB, addr("50xoff"));
  await bought(linkB, addr("ann"));
  await bought(linkB, `+cmd-${run}@example.test`);
  await spreadPaidTimes();
});

/**
 * A payment's time is the provider's, to the second: one minute apart in the order they were made
 * (their customers' rows with them), so that the order of the list is known.
 */
async function spreadPaidTimes() {
  await ctx.database.db.execute(sql`update ${orders} o set paid_at = s.t from (
      select id, now() - interval '1 day' + row_number() over (order by created_at) * interval '1 minute' as t
      from ${orders} where creator_id = ${seller.id}) s where o.id = s.id`);
  await ctx.database.db.execute(sql`update ${customers} c set first_paid_at = s.f, last_paid_at = s.l from (
      select buyer_email, min(paid_at) as f, max(paid_at) as l from ${orders}
      where creator_id = ${seller.id} group by buyer_email) s
    where c.creator_id = ${seller.id} and c.email = s.buyer_email`);
}
afterAll(() => ctx.close());

describe("GET /customers", () => {
  it("lists one row per buyer, last purchase first, with orders and totals per currency", async () => {
    const body = await list("");
    expect(body.total).toBe(5);
    expect(body.nextOffset).toBeNull();
    expect(body.items.map((c) => c.email)).toEqual([
      `+cmd-${run}@example.test`,
      addr("ann"),
      addr("50xoff"),
      addr("50_off"),
      addr("bob"),
    ]);
    const ann = body.items[1];
    expect(ann).toMatchObject({ ordersCount: 3, totals: [{ currency: "EUR", amountMinor: 4500 }] });
    expect(ann?.unsubscribedAt).toBeNull();
    expect(Date.parse(ann?.firstPaidAt ?? "")).toBeLessThan(Date.parse(ann?.lastPaidAt ?? ""));
  });

  it("sorts by most orders and by first purchase", async () => {
    expect((await list("?sort=orders")).items[0]?.email).toBe(addr("ann"));
    expect((await list("?sort=first")).items.at(-1)?.email).toBe(addr("ann"));
  });

  it("searches part of the address, case-insensitively, % and _ taken literally", async () => {
    expect((await list("?q=50_o")).items.map((c) => c.email)).toEqual([addr("50_off")]);
    expect((await list("?q=ANN-")).items.map((c) => c.email)).toEqual([addr("ann")]);
    expect((await list(`?q=${encodeURIComponent("%")}`)).total).toBe(0);
    expect((await list("?q=nobody-here")).items).toEqual([]);
  });

  it("filters by one of the creator's links", async () => {
    const a = await list(`?linkId=${linkA.id}`);
    expect(a.items.map((c) => c.email)).toEqual([addr("ann")]);
    // The row stays the customer's whole history with the creator.
    expect(a.items[0]?.ordersCount).toBe(3);
    expect((await list(`?linkId=${linkB.id}&q=50`)).total).toBe(2);
  });

  it("pages with a total and the next offset", async () => {
    const first = await list("?limit=2");
    expect(first).toMatchObject({ total: 5, nextOffset: 2 });
    expect(first.items).toHaveLength(2);
    const last = await list("?limit=2&offset=4");
    expect(last).toMatchObject({ total: 5, nextOffset: null });
    expect(last.items.map((c) => c.email)).toEqual([addr("bob")]);
  });

  it("counts what refunds took back", async () => {
    const bob = (await list("?q=bob-")).items[0];
    expect(bob?.totals).toEqual([{ currency: "EUR", amountMinor: 500 }]);
    await ctx.database.db
      .update(orders)
      .set({ refundedMinor: 200 })
      .where(and(eq(orders.buyerEmail, addr("bob")), eq(orders.creatorId, seller.id)));
    expect((await list("?q=bob-")).items[0]?.totals).toEqual([{ currency: "EUR", amountMinor: 300 }]);
    await ctx.database.db
      .update(orders)
      .set({ refundedMinor: 500, status: "refunded" })
      .where(and(eq(orders.buyerEmail, addr("bob")), eq(orders.creatorId, seller.id)));
    expect((await list("?q=bob-")).items[0]).toMatchObject({ ordersCount: 1, totals: [] });
  });

  it("shows another creator nothing of these buyers, nor of a link that is not theirs", async () => {
    const other = await accountWithSession(ctx.database, { onboarded: true });
    expect(await list("", other.cookie)).toEqual({ items: [], total: 0, nextOffset: null });
    expect((await list(`?linkId=${linkA.id}`, other.cookie)).total).toBe(0);
    // A buyer of theirs who also bought from the seller: the other creator's link filter finds nothing.
    const own = await helpers.newLink(other.cookie);
    await bought(own, addr("ann"));
    expect((await list(`?linkId=${own.id}`)).total).toBe(0);
    expect((await list("", other.cookie)).items.map((c) => c.email)).toEqual([addr("ann")]);
    const annOfSeller = (await list("?q=ann-")).items[0];
    expect((await get(`/customers/${annOfSeller?.id}`, other.cookie)).statusCode).toBe(404);
  });

  it("needs a session", async () => {
    expect((await get("/customers")).statusCode).toBe(401);
    expect((await get("/customers/export.csv")).statusCode).toBe(401);
  });
});

describe("GET /customers/:id", () => {
  it("gives the customer's orders of this creator, newest first, with the link's title", async () => {
    const ann = (await list("?q=ann-")).items[0];
    const res = await get(`/customers/${ann?.id}`, seller.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<CustomerDetail>();
    expect(body.customer.email).toBe(addr("ann"));
    expect(body.orders.map((o) => o.linkTitle)).toEqual(['=HYPERLINK("x")', "Sunset pack", "Sunset pack"]);
    expect(body.orders[0]).toMatchObject({
      status: "paid",
      currency: "EUR",
      totalMinor: 500,
      refundedMinor: 0,
    });
  });

  it("answers 404 for an unknown id", async () => {
    const res = await get("/customers/00000000-0000-4000-8000-000000000000", seller.cookie);
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toBe("This customer was not found.");
  });
});

describe("GET /customers/export.csv", () => {
  it("streams every matching customer, formula-safe, and records the download", async () => {
    const res = await get(`/customers/export.csv?linkId=${linkB.id}`, seller.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="customers-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = res.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe("email,first_purchase,last_purchase,orders,total_paid,unsubscribed");
    expect(lines).toHaveLength(6);
    expect(lines[1]).toMatch(new RegExp(`^'\\+cmd-${run}@example\\.test,`));
    expect(lines.find((l) => l.startsWith(addr("ann")))).toMatch(/,3,45\.00 EUR,$/);
    const audits = await ctx.database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.action, "customers.export"), eq(adminAuditLog.actorId, seller.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ targetType: "account", targetId: seller.id });
    expect(audits[0]?.details).toEqual({ customers: 5, linkId: linkB.id, searched: false });
    expect(JSON.stringify(audits[0]?.details)).not.toContain("@");
  });

  it("the audit screen shows the export", async () => {
    const admin = await insertAccount(ctx.database, { role: "admin" });
    const cookie = await signInCookie(ctx, admin.email);
    const res = await get("/admin/audit?action=customers.export", cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ items: AuditEntryView[] }>().items.some((e) => e.actor.id === seller.id)).toBe(true);
  });
});

describe("account deletion", () => {
  it("erases the buyer's address from every creator's customers and from the orders", async () => {
    const email = uniqueEmail("deleted-buyer");
    await bought(linkA, email);
    expect((await list(`?q=${encodeURIComponent(email)}`)).total).toBe(1);
    // The buyer asked for their library by e-mail once: that link names the address too.
    const asked = await ctx.app.inject({
      method: "POST",
      url: "/purchases/link",
      payload: { email, locale: "en" },
    });
    expect(asked.statusCode).toBe(202);
    expect(
      await ctx.database.db.select().from(purchaseLinks).where(eq(purchaseLinks.email, email)),
    ).toHaveLength(1);
    const account = await insertAccount(ctx.database, { email });
    const cookie = await signInCookie(ctx, email);
    expect(
      (await ctx.app.inject({ method: "POST", url: "/profile/delete", headers: { cookie } })).statusCode,
    ).toBe(200);
    const token = await deletionToken(ctx, email);
    const res = await ctx.app.inject({ method: "DELETE", url: `/profile/delete/${token}` });
    expect(res.statusCode, res.body).toBe(200);

    expect((await list(`?q=${encodeURIComponent(email)}`)).total).toBe(0);
    expect(await ctx.database.db.select().from(customers).where(eq(customers.email, email))).toEqual([]);
    expect(await ctx.database.db.select().from(purchaseLinks).where(eq(purchaseLinks.email, email))).toEqual(
      [],
    );
    expect(await ctx.database.db.select().from(orders).where(eq(orders.buyerEmail, email))).toEqual([]);
    const erased = await ctx.database.db
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.buyerEmail, `deleted-${account.id}@deleted.invalid`));
    expect(erased).toHaveLength(1);
    const csv = (await get("/customers/export.csv", seller.cookie)).body;
    expect(csv).not.toContain(email);
  });
});

describe("the totals' cache", () => {
  it("keeps a filter's total a while, but never hides rows or the next page", async () => {
    const deps = { db: ctx.database.db, counts: new TtlCache<number>({ ttlMs: 60_000, maxEntries: 10 }) };
    const q = `cachetest${run}`;
    const read = (offset: number) =>
      listCustomers(deps, seller.id, { q, offset, limit: 1, sort: "last" } as CustomerListQuery);
    await bought(linkA, `${q}a@example.test`);
    expect(await read(0)).toMatchObject({ total: 1, nextOffset: null });

    // A second buyer: the cached count says 1, the rows say more.
    await bought(linkA, `${q}b@example.test`);
    const first = await read(0);
    expect(first).toMatchObject({ total: 2, nextOffset: 1 });
    const second = await read(1);
    expect(second).toMatchObject({ total: 2, nextOffset: null });
    // (Paid in the same second, the two may come in either order.)
    expect([...first.items, ...second.items].map((c) => c.email).sort()).toEqual([
      `${q}a@example.test`,
      `${q}b@example.test`,
    ]);
  });
});
