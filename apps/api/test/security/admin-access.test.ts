import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithSession, directSessionCookie, insertAccount } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { appRoutes, routeKey as key, type Route, routesOf } from "./route-catalogue.ts";

/*
 * Every admin route refuses anonymous callers (401) and users (403), and lets an admin through.
 * The routes come from the app itself (its printed route tree), not from a list kept here: a new
 * /admin route is tested the day it is added, and a route the table below does not expect fails.
 */

let ctx: TestContext;
let userCookie: string;
let adminCookie: string;

/**
 * One row per admin route, with a request that passes validation: the role check runs after it
 * (a preHandler), so an invalid body would answer 400 before the 401/403 this test is about.
 * A route missing here, or a row whose route is gone, fails the first test.
 */
const reason = { reason: "Checked by the access test" };
const table: Record<string, { payload?: object; query?: string }> = {
  "GET /admin/accounts": {},
  "GET /admin/accounts/:id": {},
  "POST /admin/accounts/:id/suspend": { payload: reason },
  "POST /admin/accounts/:id/reinstate": { payload: reason },
  "POST /admin/accounts/:id/role": { payload: { role: "user", ...reason } },
  "GET /admin/audit": {},
  "GET /admin/identity": {},
  "GET /admin/overview": { query: "?days=7" },
  "PUT /admin/maintenance": { payload: { maintenance: false, ...reason } },
  "GET /admin/payouts": {},
  "POST /admin/payouts/:id/approve": { payload: reason },
  "POST /admin/payouts/:id/paid": { payload: reason },
  "POST /admin/payouts/:id/fail": { payload: reason },
  "GET /admin/orders": {},
  "POST /admin/orders/:id/refund": { payload: reason },
  "GET /admin/payouts/export": {},
  "GET /admin/referral-flags": {},
  "GET /admin/reports": {},
  "POST /admin/reports/:id/dismiss": { payload: reason },
  "POST /admin/reports/:id/takedown": { payload: reason },
  "GET /admin/vat/oss": {},
  "GET /admin/vat/oss.csv": {},
  // Issue 32: debts, disputes, Stripe Connect's reconciliation, the sandbox bank's decision.
  "GET /admin/debts": {},
  "POST /admin/debts/write-off": { payload: { userId: randomUUID(), currency: "EUR", ...reason } },
  "GET /admin/disputes": {},
  "GET /admin/payouts/mismatches": {},
  "POST /admin/sandbox/disputes/:id/decide": { payload: { outcome: "won" } },
};

let adminRoutes: Route[] = [];

beforeAll(async () => {
  ctx = await testApp();
  const user = await insertAccount(ctx.database, { onboarded: true });
  userCookie = await directSessionCookie(ctx.database, user.id);
  adminCookie = (await accountWithSession(ctx.database, { onboarded: true, role: "admin" })).cookie;
  adminRoutes = appRoutes(ctx.app).filter((r) => r.url.startsWith("/admin"));
});
afterAll(() => ctx.close());

const call = (route: Route, cookie?: string) => {
  const row = table[key(route)] ?? {};
  return ctx.app.inject({
    method: route.method,
    // Any id: the role check comes before the route looks anything up.
    url: `${route.url.replace(/:[A-Za-z]+/g, randomUUID())}${row.query ?? ""}`,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(row.payload ? { payload: row.payload } : {}),
  });
};

describe(`admin routes × roles (${dbKind})`, () => {
  it("reads the admin routes from the app, and each has a row in this test", () => {
    // The parser is checked on a known route, or an empty list would pass everything below.
    expect(routesOf(ctx.app.printRoutes())).toContainEqual({
      method: "GET",
      url: "/admin/accounts/:id",
    });
    const found = adminRoutes.map(key).sort();
    expect(found).toEqual(Object.keys(table).sort());
    // Nothing edits or deletes the audit log: its only route reads it.
    expect(adminRoutes.filter((r) => r.url.startsWith("/admin/audit"))).toEqual([
      { method: "GET", url: "/admin/audit" },
    ]);
  });

  it("anonymous callers get 401 from every admin route", async () => {
    for (const route of adminRoutes) {
      const res = await call(route);
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it("signed-in users get 403 from every admin route", async () => {
    for (const route of adminRoutes) {
      const res = await call(route, userCookie);
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
    }
  });

  it("admins get through every admin route", async () => {
    for (const route of adminRoutes) {
      const res = await call(route, adminCookie);
      expect([401, 403], `${route.method} ${route.url}: ${res.body}`).not.toContain(res.statusCode);
    }
  });
});
