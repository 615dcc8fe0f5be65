import type { SalesSummary, TransactionList, Wallet } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, orders } from "../../src/db/schema/index.ts";
import { accountWithSession, directSessionCookie, insertAccount } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

let ctx: TestContext;
let creator: { id: string; cookie: string };
let other: string;
const { call, sale } = checkoutHelpers(() => ctx);

beforeAll(async () => {
  ctx = await testApp({ HOLD_DAYS: "7" });
  creator = await accountWithSession(ctx.database, { onboarded: true });
  other = await directSessionCookie(
    ctx.database,
    (await insertAccount(ctx.database, { onboarded: true })).id,
  );

  // Three sales of 20.00 (18.00 net each); the first one's hold is over.
  const first = await sale(creator.cookie);
  await sale(creator.cookie);
  await sale(creator.cookie, { title: '=HYPERLINK("http://evil")' });
  await ctx.database.db
    .update(orders)
    .set({ availableAt: new Date(Date.now() - 1000) })
    .where(eq(orders.id, first.orderId));
  await ctx.database.db
    .update(jobs)
    .set({ runAt: new Date(Date.now() - 1000) })
    .where(eq(jobs.dedupeKey, `release:${first.orderId}`));
  await ctx.app.services.jobs.worker.runDue();
});
afterAll(() => ctx.close());

describe("the wallet", () => {
  it("shows pending and available balances, and each held sale with its release date", async () => {
    const wallet = (await call("GET", "/wallet", undefined, creator.cookie)).json<Wallet>();
    expect(wallet.balances).toEqual([
      {
        currency: "EUR",
        pending: 3600,
        available: 1800,
        inTransit: 0,
        affiliatePending: 0,
        affiliateClaimable: 0,
        partnerPending: 0,
        partnerClaimable: 0,
        debt: 0,
      },
    ]);
    expect(wallet.held).toHaveLength(2);
    expect(wallet.held[0]).toMatchObject({ amount: 1800, currency: "EUR" });
    const releaseIn = new Date(wallet.held[0]?.availableAt ?? 0).getTime() - Date.now();
    expect(releaseIn).toBeGreaterThan(6.9 * 86_400_000);
    expect(wallet.holdDays).toBe(7);
    expect((await call("GET", "/wallet", undefined, other)).json<Wallet>()).toEqual({
      balances: [],
      held: [],
      holdDays: 7,
    });
    expect((await call("GET", "/wallet")).statusCode).toBe(401);
  });

  it("lists movements page by page, filters them, and exports them as CSV", async () => {
    const page1 = (
      await call("GET", "/transactions?limit=2", undefined, creator.cookie)
    ).json<TransactionList>();
    expect(page1.items).toHaveLength(2);
    expect(page1.nextCursor).not.toBeNull();
    const all: TransactionList["items"] = [...page1.items];
    let cursor = page1.nextCursor;
    while (cursor) {
      const next = (
        await call("GET", `/transactions?limit=2&cursor=${cursor}`, undefined, creator.cookie)
      ).json<TransactionList>();
      all.push(...next.items);
      cursor = next.nextCursor;
    }
    // 3 sales pending (+1800 each), then one released (-1800 pending, +1800 available).
    expect(all.map((t) => t.amount).sort()).toEqual([-1800, 1800, 1800, 1800, 1800].sort());
    expect(new Set(all.map((t) => t.id)).size).toBe(all.length);
    expect(all.every((t) => t.title !== null && t.orderId !== null)).toBe(true);

    const released = (
      await call("GET", "/transactions?kind=hold_release", undefined, creator.cookie)
    ).json<TransactionList>();
    expect(released.items.map((t) => [t.account, t.amount])).toEqual(
      expect.arrayContaining([
        ["available", 1800],
        ["pending", -1800],
      ]),
    );
    expect((await call("GET", "/transactions?kind=nope", undefined, creator.cookie)).statusCode).toBe(400);
    expect((await call("GET", "/transactions", undefined, other)).json<TransactionList>().items).toEqual([]);

    const csv = await call("GET", "/transactions.csv", undefined, creator.cookie);
    expect(csv.headers["content-type"]).toContain("text/csv");
    const lines = csv.body.trim().split("\r\n");
    expect(lines[0]).toBe("date,kind,account,amount,currency,available_at,order,title");
    expect(lines).toHaveLength(6);
    expect(csv.body).toContain(",18.00,EUR,");
    // A title that looks like a formula is neutralised for spreadsheets.
    expect(csv.body).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });

  it("summarises sales for the dashboard", async () => {
    const summary = (await call("GET", "/sales/summary", undefined, creator.cookie)).json<SalesSummary>();
    expect(summary.salesCount).toBe(3);
    expect(summary.revenue).toEqual([{ currency: "EUR", amount: 5400 }]);
    expect(summary.days).toHaveLength(1);
    expect(summary.days[0]).toMatchObject({ currency: "EUR", sales: 3, amount: 5400 });
    expect(summary.latestOrders).toHaveLength(3);
    expect(summary.latestOrders[0]?.buyer).toBe("b•••@example.test");
  });
});

describe("moving the clock (development only)", () => {
  it("releases the holds that would be over at a later time", async () => {
    const before = (await call("GET", "/wallet", undefined, creator.cookie)).json<Wallet>().balances[0];
    const asOf = new Date(Date.now() + 8 * 86_400_000).toISOString();
    // Named sales only: one of the two held, the other left for the next call.
    const held = (await call("GET", "/wallet", undefined, creator.cookie)).json<Wallet>().held;
    expect(held).toHaveLength(2);
    const one = await call("POST", "/dev/holds/release", { asOf, orderIds: [held[0]?.orderId] });
    expect(one.json()).toEqual({ released: 1 });
    const res = await call("POST", "/dev/holds/release", { asOf });
    expect(res.json()).toEqual({ released: 1 });
    const after = (await call("GET", "/wallet", undefined, creator.cookie)).json<Wallet>();
    expect(after.balances[0]).toMatchObject({ pending: 0, available: (before?.available ?? 0) + 3600 });
    expect(after.held).toEqual([]);
    expect((await call("POST", "/dev/holds/release", { asOf })).json()).toEqual({ released: 0 });
  });
});
