import { randomBytes, randomUUID } from "node:crypto";
import type {
  AdminAccountDetail,
  AdminAccountList,
  AdminAccountSummary,
  AdminIdentityList,
  AdminOverview,
  AuditEntryView,
  BankAccount,
  CheckoutResponse,
  Payout,
} from "@salelink/contracts";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminAuditLog, onboardingProfiles } from "../../src/db/schema/index.ts";
import { post } from "../../src/modules/wallet/ledger.ts";
import { holdReleased, orderPaid, splitSale } from "../../src/modules/wallet/postings.ts";
import {
  accountWithSession,
  directSessionCookie,
  errorOf,
  insertAccount,
  insertApprovedIdentity,
  uniqueEmail,
} from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

let ctx: TestContext;
let adminId: string;
let admin: string;
const shop = checkoutHelpers(() => ctx);

type Method = "GET" | "POST" | "PUT";
const call = (method: Method, url: string, cookie?: string, payload?: object) =>
  ctx.app.inject({
    method,
    url,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload ? { payload } : {}),
  });

async function auditRows(targetId: string) {
  return ctx.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, targetId));
}

/** A creator with an approved identity, a bank account and 50 € available: ready to withdraw. */
async function creator() {
  const account = await insertAccount(ctx.database, { onboarded: true });
  const cookie = await directSessionCookie(ctx.database, account.id);
  await insertApprovedIdentity(ctx.database, account.id);
  const bank = await call("POST", "/profile/bank-accounts", cookie, {
    holderName: "Ada Lovelace",
    iban: "DE89370400440532013000",
  });
  expect(bank.statusCode, bank.body).toBe(201);
  const facts = {
    orderId: randomUUID(),
    creatorId: account.id,
    referrerId: null,
    partnerId: null,
    currency: "EUR" as const,
    split: splitSale(6000, 0, null),
    availableAt: new Date(Date.now() - 1000),
  };
  await ctx.database.db.transaction(async (tx) => {
    await post(tx, orderPaid(facts));
    await post(tx, holdReleased(facts));
  });
  return { ...account, cookie, bankAccountId: bank.json<BankAccount>().id };
}

beforeAll(async () => {
  ctx = await testApp();
  const account = await accountWithSession(ctx.database, { onboarded: true, role: "admin" });
  adminId = account.id;
  admin = account.cookie;
});
afterAll(() => ctx.close());

describe(`suspension (${dbKind})`, () => {
  it("stops sales and payouts, and reinstating restores them; each action is audited once", async () => {
    const c = await creator();
    const link = await shop.newLink(c.cookie);
    expect((await call("GET", `/public/links/${link.token}`)).statusCode).toBe(200);
    const withdraw = () => call("POST", "/profile/payout", c.cookie, { bankAccountId: c.bankAccountId });
    const requested = await withdraw();
    expect(requested.statusCode, requested.body).toBe(201);
    const payout = requested.json<Payout>();

    const suspend = await call("POST", `/admin/accounts/${c.id}/suspend`, admin, { reason: "Fraud report" });
    expect(suspend.statusCode, suspend.body).toBe(200);
    expect(suspend.json<AdminAccountSummary>().suspendedAt).not.toBeNull();
    // Read right after: the cached page was dropped with the suspension.
    expect((await call("GET", `/public/links/${link.token}`)).statusCode).toBe(404);
    const checkout = await shop.checkout(link.token);
    expect(checkout.statusCode).toBe(409);
    expect(errorOf(checkout).message).toBe("This link is not on sale.");
    const refused = await withdraw();
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).message).toContain("suspended");
    const approve = await call("POST", `/admin/payouts/${payout.id}/approve`, admin, {});
    expect(approve.statusCode).toBe(409);
    // The owner still signs in and sees their wallet.
    expect((await call("GET", "/wallet", c.cookie)).statusCode).toBe(200);
    expect(
      (await call("POST", `/admin/accounts/${c.id}/suspend`, admin, { reason: "Again" })).statusCode,
    ).toBe(409);

    const reinstate = await call("POST", `/admin/accounts/${c.id}/reinstate`, admin, { reason: "Cleared" });
    expect(reinstate.statusCode, reinstate.body).toBe(200);
    expect(reinstate.json<AdminAccountSummary>().suspendedAt).toBeNull();
    expect((await call("GET", `/public/links/${link.token}`)).statusCode).toBe(200);
    expect((await shop.checkout(link.token)).statusCode).toBe(201);
    const approved = await call("POST", `/admin/payouts/${payout.id}/approve`, admin);
    expect(approved.statusCode, approved.body).toBe(200);
    const paid = await call("POST", `/admin/payouts/${payout.id}/paid`, admin, { reason: "Sent on Monday" });
    expect(paid.statusCode, paid.body).toBe(200);

    const accountAudit = await auditRows(c.id);
    expect(accountAudit.map((r) => [r.action, r.actorId, r.targetType, r.reason]).sort()).toEqual(
      [
        ["account.reinstate", adminId, "account", "Cleared"],
        ["account.suspend", adminId, "account", "Fraud report"],
      ].sort(),
    );
    const payoutAudit = await auditRows(payout.id);
    expect(payoutAudit.map((r) => [r.action, r.actorId, r.targetType, r.reason]).sort()).toEqual(
      [
        ["payout.approve", adminId, "payout", "Approved after checks"],
        ["payout.paid", adminId, "payout", "Sent on Monday"],
      ].sort(),
    );
  });

  it("hides a suspended creator's page", async () => {
    const c = await creator();
    const link = await shop.newLink(c.cookie);
    const profileId = (await call("GET", `/public/links/${link.token}`)).json<{ creator: { id: string } }>()
      .creator.id;
    expect((await call("GET", `/creators/${profileId}`)).statusCode).toBe(200);
    await call("POST", `/admin/accounts/${c.id}/suspend`, admin, { reason: "Fraud report" });
    expect((await call("GET", `/creators/${profileId}`)).statusCode).toBe(404);
  });

  it("records a payout failed by an operator with its reason", async () => {
    const c = await creator();
    const payout = (
      await call("POST", "/profile/payout", c.cookie, { bankAccountId: c.bankAccountId })
    ).json<Payout>();
    const fail = await call("POST", `/admin/payouts/${payout.id}/fail`, admin, { reason: "IBAN closed" });
    expect(fail.statusCode, fail.body).toBe(200);
    const rows = await auditRows(payout.id);
    expect(rows.map((r) => [r.action, r.actorId, r.reason])).toEqual([
      ["payout.fail", adminId, "IBAN closed"],
    ]);
  });

  it("refuses an admin suspending or demoting themself, and a missing reason", async () => {
    const self = await call("POST", `/admin/accounts/${adminId}/suspend`, admin, { reason: "Testing" });
    expect(self.statusCode).toBe(409);
    const demote = await call("POST", `/admin/accounts/${adminId}/role`, admin, {
      role: "user",
      reason: "Testing",
    });
    expect(demote.statusCode).toBe(409);
    const other = await insertAccount(ctx.database);
    expect((await call("POST", `/admin/accounts/${other.id}/suspend`, admin, {})).statusCode).toBe(400);
    expect(await auditRows(adminId)).toHaveLength(0);
    expect(await auditRows(other.id)).toHaveLength(0);
  });
});

describe(`roles, search, detail and lists (${dbKind})`, () => {
  it("changes a role, audited with the change; the new admin gets in at once", async () => {
    const other = await insertAccount(ctx.database, { onboarded: true });
    const cookie = await directSessionCookie(ctx.database, other.id);
    expect((await call("GET", "/admin/accounts", cookie)).statusCode).toBe(403);
    const res = await call("POST", `/admin/accounts/${other.id}/role`, admin, {
      role: "admin",
      reason: "New ops",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AdminAccountSummary>().role).toBe("admin");
    expect((await call("GET", "/admin/accounts", cookie)).statusCode).toBe(200);
    const rows = await auditRows(other.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: "account.role",
      actorId: adminId,
      reason: "New ops",
      details: { from: "user", to: "admin" },
    });
    const audit = await call("GET", `/admin/audit?targetId=${other.id}`, admin);
    expect(audit.json<{ items: AuditEntryView[] }>().items.map((i) => i.action)).toEqual(["account.role"]);
  });

  it("searches by e-mail and by onboarding or creator name, case-insensitively", async () => {
    const tag = randomBytes(4).toString("hex");
    const byEmail = await insertAccount(ctx.database, { email: uniqueEmail(`zed${tag}`) });
    const byName = await insertAccount(ctx.database);
    await ctx.database.db.insert(onboardingProfiles).values({
      userId: byName.id,
      kind: "individual",
      firstName: `Grace${tag}`,
      lastName: "Hopper",
      addressLine1: "1 Main St",
      city: "Paris",
      postalCode: "75001",
      country: "FR",
    });
    const search = async (q: string) =>
      (await call("GET", `/admin/accounts?q=${encodeURIComponent(q)}`, admin)).json<AdminAccountList>().items;
    expect((await search(`ZED${tag}`)).map((a) => a.id)).toEqual([byEmail.id]);
    expect((await search(`grace${tag.toUpperCase()}`)).map((a) => a.id)).toEqual([byName.id]);
    const c = await creator();
    const link = await shop.newLink(c.cookie);
    expect(link.id).toBeDefined();
    // checkoutHelpers names every profile "Ada"; the account is found among them by that name.
    expect((await search("ada")).map((a) => a.id)).toContain(c.id);
    expect(await search(`nobody-${tag}`)).toEqual([]);
    // A wildcard typed by an admin is a character, not "anything".
    expect(await search("%")).toEqual([]);
  });

  it("pages the list newest first", async () => {
    const first = (await call("GET", "/admin/accounts?limit=2", admin)).json<AdminAccountList>();
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const next = (
      await call("GET", `/admin/accounts?limit=2&cursor=${first.nextCursor}`, admin)
    ).json<AdminAccountList>();
    const ids = [...first.items, ...next.items].map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    const dates = [...first.items, ...next.items].map((a) => a.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it("shows an account's detail: identity, balances, links, orders with a masked buyer, payouts", async () => {
    const c = await creator();
    const started = await shop.sale(c.cookie);
    expect(started).toBeDefined();
    await call("POST", "/profile/payout", c.cookie, { bankAccountId: c.bankAccountId });
    const res = await call("GET", `/admin/accounts/${c.id}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json<AdminAccountDetail>();
    expect(detail.identityStatus).toBe("approved");
    expect(detail.identitySessions).toHaveLength(1);
    expect(detail.links).toHaveLength(1);
    expect(detail.orders).toHaveLength(1);
    expect(detail.orders[0]?.buyer).not.toContain("buyer@");
    expect(detail.payouts).toHaveLength(1);
    expect(detail.balances.find((b) => b.account === "in_transit")?.amount).toBeGreaterThan(0);
    expect((await call("GET", `/admin/accounts/${randomUUID()}`, admin)).statusCode).toBe(404);
  });

  it("lists identity sessions with the account's e-mail, filtered by status", async () => {
    const c = await creator();
    const list = (
      await call("GET", "/admin/identity?status=approved&limit=100", admin)
    ).json<AdminIdentityList>();
    const mine = list.items.find((i) => i.account.id === c.id);
    expect(mine).toMatchObject({ status: "approved", provider: "sandbox", account: { email: c.email } });
    const declined = (await call("GET", "/admin/identity?status=declined", admin)).json<AdminIdentityList>();
    expect(declined.items.some((i) => i.account.id === c.id)).toBe(false);
  });

  it("sums sales, fees, new accounts and pending payouts over the period", async () => {
    const before = (await call("GET", "/admin/overview?days=7", admin)).json<AdminOverview>();
    const c = await creator();
    const sale: CheckoutResponse = await shop.sale(c.cookie);
    expect(sale).toBeDefined();
    await call("POST", "/profile/payout", c.cookie, { bankAccountId: c.bankAccountId });
    const res = await call("GET", "/admin/overview?days=7", admin);
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json<AdminOverview>();
    expect(after.daily).toHaveLength(7);
    const eur = (o: AdminOverview) =>
      o.totals.sales.find((s) => s.currency === "EUR") ?? { count: 0, gross: 0 };
    expect(eur(after).count - eur(before).count).toBe(1);
    expect(eur(after).gross - eur(before).gross).toBe(2000);
    const fee = (o: AdminOverview) => o.totals.fees.find((f) => f.currency === "EUR")?.amount ?? 0;
    expect(fee(after)).toBeGreaterThan(fee(before));
    expect(after.totals.newAccounts - before.totals.newAccounts).toBe(1);
    const pending = (o: AdminOverview) =>
      o.totals.pendingPayouts.find((p) => p.currency === "EUR")?.count ?? 0;
    expect(pending(after) - pending(before)).toBe(1);
    expect(after.daily.at(-1)?.newAccounts).toBeGreaterThanOrEqual(1);
  });
});

describe(`the audit log (${dbKind})`, () => {
  it("refuses UPDATE and DELETE in the database itself", async () => {
    const other = await insertAccount(ctx.database);
    await call("POST", `/admin/accounts/${other.id}/suspend`, admin, { reason: "Fraud report" });
    const db = ctx.database.db;
    await expect(
      db.execute(sql`update admin_audit_log set reason = 'rewritten' where target_id = ${other.id}`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`delete from admin_audit_log where target_id = ${other.id}`),
    ).rejects.toThrow();
    const rows = await db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, other.id), eq(adminAuditLog.reason, "Fraud report")));
    expect(rows).toHaveLength(1);
  });

  it("records a maintenance switch with its reason or the fixed text", async () => {
    const on = await call("PUT", "/admin/maintenance", admin, {
      maintenance: true,
      reason: "Database upgrade",
    });
    expect(on.statusCode, on.body).toBe(200);
    const off = await call("PUT", "/admin/maintenance", admin, { maintenance: false });
    expect(off.statusCode, off.body).toBe(200);
    const list = (await call("GET", "/admin/audit?targetId=platform&limit=2", admin)).json<{
      items: AuditEntryView[];
    }>();
    expect(list.items.map((i) => [i.action, i.reason, i.actor.id])).toEqual([
      ["maintenance.off", "Maintenance switched off", adminId],
      ["maintenance.on", "Database upgrade", adminId],
    ]);
  });
});
