import { randomUUID } from "node:crypto";
import type { SalesSummary } from "@salelink/contracts";
import { and, eq, inArray, sql } from "drizzle-orm";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/client.ts";
import {
  commissionClaims,
  jobs,
  links,
  orders,
  referralSales,
  rollupWatermarks,
  salesDaily,
} from "../../src/db/schema/index.ts";
import { refreshSalesRollups, salesRollupRefreshJob } from "../../src/modules/wallet/summary/service.ts";
import { accountWithSession, insertAccount } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";

/*
 * The dashboard rollups (decision 031) against the orders they summarise: after any mix of sales,
 * refunds, releases and claims, refreshed incrementally at random moments, they equal an aggregate
 * computed here from the orders; and a sale committed while a refresh runs is counted by the next.
 */

// A short clock overlap: a refresh that trusted the commit order (no look-back to the oldest open
// transaction) would miss the concurrent test's sale, held open far longer than this.
const OVERLAP_MS = 50;
const config = { SALES_ROLLUP_OVERLAP_MS: OVERLAP_MS };

let ctx: TestContext;
let db: Db;
let creators: string[];
let referrer: string;
let linkIds: { id: string; ownerId: string; currency: "EUR" | "USD" }[];
let claimId: string;

beforeAll(async () => {
  ctx = await testApp({ SALES_ROLLUP_OVERLAP_MS: String(OVERLAP_MS) });
  db = ctx.database.db;
  creators = [(await insertAccount(ctx.database)).id, (await insertAccount(ctx.database)).id];
  referrer = (await insertAccount(ctx.database)).id;
  linkIds = [];
  for (const [i, ownerId] of [creators[0], creators[0], creators[1]].entries()) {
    const currency = i === 1 ? "USD" : "EUR";
    const [row] = await db
      .insert(links)
      .values({ ownerId: ownerId ?? "", title: `Link ${i}`, priceMinor: 1000, currency, token: randomUUID() })
      .returning({ id: links.id });
    linkIds.push({ id: row?.id ?? "", ownerId: ownerId ?? "", currency });
  }
  const [claim] = await db.insert(commissionClaims).values({ userId: referrer }).returning();
  claimId = claim?.id ?? "";
});

afterAll(async () => {
  await ctx?.close();
});

const refresh = () => db.transaction((tx) => refreshSalesRollups(tx, config));

type Key = string;
const add = <T extends Record<string, number>>(map: Map<Key, T>, key: Key, zero: T, row: Partial<T>) => {
  const into: Record<string, number> = map.get(key) ?? { ...zero };
  for (const [k, v] of Object.entries(row)) into[k] = (into[k] ?? 0) + (v ?? 0);
  map.set(key, into as T);
};

/** What the rollups must hold, computed in JavaScript from every order. */
async function expected() {
  const rows = await db.select().from(orders);
  const sales = new Map<Key, Record<string, number>>();
  const referrals = new Map<Key, Record<string, number>>();
  const zeroSales = { orders: 0, gross: 0, fee: 0, net: 0, refunds: 0, refundedNet: 0 };
  const zeroReferral = { sales: 0, pending: 0, claimable: 0, claimed: 0 };
  for (const o of rows) {
    if (!o.paidAt || (o.status !== "paid" && o.status !== "refunded")) continue;
    const day = o.paidAt.toISOString().slice(0, 10);
    const paid = o.status === "paid";
    add(sales, `${o.creatorId}|${day}|${o.linkId}|${o.currency}`, zeroSales, {
      orders: paid ? 1 : 0,
      gross: paid ? o.totalMinor : 0,
      fee: paid ? (o.feeMinor ?? 0) : 0,
      net: paid ? (o.netMinor ?? 0) : 0,
      refunds: paid ? 0 : 1,
      refundedNet: paid ? 0 : (o.netMinor ?? 0),
    });
    if (o.referrerId) {
      const c = o.commissionMinor ?? 0;
      add(referrals, `${o.referrerId}|${o.creatorId}|${o.currency}`, zeroReferral, {
        sales: paid ? 1 : 0,
        pending: paid && !o.releasedAt ? c : 0,
        claimable: paid && o.releasedAt && !o.commissionClaimId ? c : 0,
        claimed: o.commissionClaimId ? c : 0,
      });
    }
  }
  return { sales, referrals };
}

async function actual() {
  const sales = new Map<Key, Record<string, number>>();
  for (const r of await db.select().from(salesDaily)) {
    sales.set(`${r.creatorId}|${r.day}|${r.linkId}|${r.currency}`, {
      orders: r.orders,
      gross: r.grossMinor,
      fee: r.feeMinor,
      net: r.netMinor,
      refunds: r.refunds,
      refundedNet: r.refundedNetMinor,
    });
  }
  const referrals = new Map<Key, Record<string, number>>();
  for (const r of await db.select().from(referralSales)) {
    referrals.set(`${r.referrerId}|${r.creatorId}|${r.currency}`, {
      sales: r.sales,
      pending: r.pendingMinor,
      claimable: r.claimableMinor,
      claimed: r.claimedMinor,
    });
  }
  return { sales, referrals };
}

const sorted = (m: Map<Key, Record<string, number>>) =>
  [...m.entries()].sort(([a], [b]) => a.localeCompare(b));

async function expectRollupsCurrent() {
  const [want, got] = [await expected(), await actual()];
  expect(sorted(got.sales)).toEqual(sorted(want.sales));
  expect(sorted(got.referrals)).toEqual(sorted(want.referrals));
}

/** A paid order, as checkout leaves it: its split, its payment day, `updated_at` from the API's clock. */
async function paidOrder(p: { link: number; daysAgo: number; total: number; referred: boolean }) {
  const link = linkIds[p.link % linkIds.length];
  if (!link) throw new Error("no link");
  const fee = Math.floor((p.total * 1000 + 5000) / 10000);
  const commission = p.referred ? Math.floor((fee * 2000 + 5000) / 10000) : 0;
  const paidAt = new Date(Date.now() - p.daysAgo * 86_400_000);
  const [row] = await db
    .insert(orders)
    .values({
      linkId: link.id,
      creatorId: link.ownerId,
      buyerEmail: "buyer@example.test",
      locale: "en",
      status: "paid",
      currency: link.currency,
      priceMinor: p.total,
      totalMinor: p.total,
      provider: "sandbox",
      providerPaymentId: randomUUID(),
      checkoutSecretHash: randomUUID(),
      referrerId: p.referred ? referrer : null,
      feeMinor: fee,
      commissionMinor: commission,
      netMinor: p.total - fee,
      paidAt,
      availableAt: new Date(paidAt.getTime() + 7 * 86_400_000),
      updatedAt: new Date(),
    })
    .returning({ id: orders.id });
  return row?.id ?? "";
}

const change = (id: string, set: Partial<typeof orders.$inferInsert>) =>
  db
    .update(orders)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(orders.id, id));

type Command =
  | { kind: "sale"; link: number; daysAgo: number; total: number; referred: boolean }
  | { kind: "refund" | "release" | "claim"; pick: number }
  | { kind: "refresh" };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("sale" as const),
      link: fc.nat(2),
      daysAgo: fc.integer({ min: 0, max: 3 }),
      total: fc.integer({ min: 100, max: 500_000 }),
      referred: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constantFrom("refund", "release", "claim"), pick: fc.nat() }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: "refresh" as const }) },
);

describe("dashboard rollups", () => {
  it("equal an aggregate of the orders after any sales, refunds, releases and claims", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 25 }), async (commands) => {
        const made: string[] = [];
        for (const c of commands) {
          if (c.kind === "sale") made.push(await paidOrder(c));
          else if (c.kind === "refresh") await refresh();
          else {
            const id = made[c.pick % Math.max(1, made.length)];
            if (!id) continue;
            const [o] = await db.select().from(orders).where(eq(orders.id, id));
            if (o?.status !== "paid") continue;
            if (c.kind === "refund") await change(id, { status: "refunded", refundedAt: new Date() });
            else if (c.kind === "release" && !o.releasedAt) await change(id, { releasedAt: new Date() });
            else if (c.kind === "claim" && o.releasedAt && o.referrerId && !o.commissionClaimId)
              await change(id, { commissionClaimId: claimId });
          }
        }
        // Past the overlap: the refresh must find the changes by their order, not by luck.
        await new Promise((r) => setTimeout(r, OVERLAP_MS + 10));
        await refresh();
        await expectRollupsCurrent();
      }),
      { numRuns: 12 },
    );
  });

  it("writes nothing when no order changed since the last refresh", async () => {
    await refresh();
    await new Promise((r) => setTimeout(r, OVERLAP_MS + 10));
    await refresh();
    const [before] = await db.select().from(rollupWatermarks);
    const result = await refresh();
    expect(result.salesRows).toBe(0);
    const [after] = await db.select().from(rollupWatermarks);
    expect(after).toEqual(before);
  });

  it("serves /sales/summary from the rollups, with the time they are as of", async () => {
    const seller = await accountWithSession(ctx.database);
    const [link] = await db
      .insert(links)
      .values({
        ownerId: seller.id,
        title: "Summary",
        priceMinor: 2000,
        currency: "EUR",
        token: randomUUID(),
      })
      .returning({ id: links.id });
    linkIds.push({ id: link?.id ?? "", ownerId: seller.id, currency: "EUR" });
    const index = linkIds.length - 1;
    await paidOrder({ link: index, daysAgo: 0, total: 2000, referred: false });
    await paidOrder({ link: index, daysAgo: 1, total: 2000, referred: false });
    const refunded = await paidOrder({ link: index, daysAgo: 1, total: 2000, referred: false });
    await change(refunded, { status: "refunded", refundedAt: new Date() });
    const started = Date.now();
    // NODE_ENV=test: the read's maximum age is 0, so it refreshes first and sees every sale.
    const res = await ctx.app.inject({
      method: "GET",
      url: "/sales/summary",
      headers: { cookie: seller.cookie },
    });
    const summary = res.json<SalesSummary>();
    expect(summary.salesCount).toBe(2);
    expect(summary.revenue).toEqual([{ currency: "EUR", amount: 3600 }]);
    expect(summary.days.map((d) => d.sales)).toEqual([1, 1]);
    expect(summary.latestOrders).toHaveLength(3);
    expect(Date.parse(summary.asOf)).toBeGreaterThanOrEqual(started - 1000);
  });

  it("is refreshed by its job, which queues its next run", async () => {
    await paidOrder({ link: 0, daysAgo: 0, total: 1234, referred: true });
    await new Promise((r) => setTimeout(r, OVERLAP_MS + 10));
    await salesRollupRefreshJob.enqueue(db, {}, { dedupeKey: `test-${randomUUID()}` });
    expect(await ctx.app.services.jobs.worker.runDue()).toBeGreaterThanOrEqual(1);
    await expectRollupsCurrent();
    const next = await db
      .select({ runAt: jobs.runAt })
      .from(jobs)
      .where(and(eq(jobs.kind, salesRollupRefreshJob.kind), eq(jobs.status, "queued")));
    expect(next).toHaveLength(1);
    expect(next[0]?.runAt.getTime()).toBeGreaterThan(Date.now() - 100);
  });

  // Two connections at once: PostgreSQL only (PGlite has one).
  it.skipIf(dbKind !== "postgres")("counts a sale committed during a refresh in the next one", async () => {
    const url = (ctx.database as { url?: string }).url;
    const id = await paidOrder({ link: 0, daysAgo: 0, total: 4321, referred: true });
    await change(id, { status: "pending", paidAt: null });
    await new Promise((r) => setTimeout(r, OVERLAP_MS + 10));
    await refresh();
    const buyer = new pg.Client({ connectionString: url });
    await buyer.connect();
    try {
      // The payment's transaction starts, dates its change, and commits only after a refresh ran
      // (and long after the overlap): the refresh could not see it, the next one must.
      await buyer.query("begin");
      await buyer.query(
        "update orders set status = 'paid', paid_at = now(), updated_at = now() where id = $1",
        [id],
      );
      await new Promise((r) => setTimeout(r, OVERLAP_MS * 6));
      // Another creator's sale commits meanwhile, so this refresh has something to do and moves on.
      await paidOrder({ link: 2, daysAgo: 0, total: 999, referred: false });
      await refresh();
      const [during] = await db
        .select({ n: sql<number>`coalesce(sum(${salesDaily.orders}), 0)::int` })
        .from(salesDaily)
        .where(eq(salesDaily.creatorId, linkIds[0]?.ownerId ?? ""));
      await buyer.query("commit");
      await refresh();
      await expectRollupsCurrent();
      const [after] = await db
        .select({ n: sql<number>`coalesce(sum(${salesDaily.orders}), 0)::int` })
        .from(salesDaily)
        .where(eq(salesDaily.creatorId, linkIds[0]?.ownerId ?? ""));
      expect((after?.n ?? 0) - (during?.n ?? 0)).toBe(1);
    } finally {
      await buyer.end();
    }
  });

  it.skipIf(dbKind !== "postgres")("stays exact while sales commit concurrently with refreshes", async () => {
    const url = (ctx.database as { url?: string }).url;
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    try {
      const ids = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          paidOrder({ link: i, daysAgo: i % 2, total: 1000 + i, referred: i % 3 === 0 }),
        ),
      );
      await db.update(orders).set({ status: "pending", paidAt: null }).where(inArray(orders.id, ids));
      let paying = true;
      const pay = (async () => {
        for (const id of ids) {
          await pool.query(
            "update orders set status = 'paid', paid_at = now() - interval '1 hour', updated_at = now() where id = $1",
            [id],
          );
        }
        paying = false;
      })();
      while (paying) await refresh();
      await pay;
      await new Promise((r) => setTimeout(r, OVERLAP_MS + 10));
      await refresh();
      await expectRollupsCurrent();
    } finally {
      await pool.end();
    }
  });
});

describe("a dashboard read past the rollups' maximum age", () => {
  let aged: TestContext;
  afterAll(async () => {
    await aged?.close();
  });

  it("serves the figures it has while a refresh runs, and waits past twice that age", async () => {
    aged = await testApp({ SALES_ROLLUP_MAX_AGE_MS: "60000", SALES_ROLLUP_OVERLAP_MS: "0" });
    const adb = aged.database.db;
    const seller = await accountWithSession(aged.database);
    const [link] = await adb
      .insert(links)
      .values({ ownerId: seller.id, title: "Aged", priceMinor: 2000, currency: "EUR", token: randomUUID() })
      .returning({ id: links.id });
    const sell = () =>
      adb.insert(orders).values({
        linkId: link?.id ?? "",
        creatorId: seller.id,
        buyerEmail: "buyer@example.test",
        locale: "en",
        status: "paid",
        currency: "EUR",
        priceMinor: 2000,
        totalMinor: 2000,
        provider: "sandbox",
        checkoutSecretHash: randomUUID(),
        feeMinor: 200,
        netMinor: 1800,
        paidAt: new Date(),
        updatedAt: new Date(),
      });
    const summary = async () =>
      (
        await aged.app.inject({ method: "GET", url: "/sales/summary", headers: { cookie: seller.cookie } })
      ).json<SalesSummary>();
    const count = async () => (await summary()).salesCount;
    const age = (ms: number) =>
      adb.update(rollupWatermarks).set({ refreshedAt: sql`now() - ${ms}::int * interval '1 millisecond'` });

    await sell();
    await age(3 * 60_000);
    // Past twice the maximum age (a new instance after a long pause): the read waits for the refresh.
    expect(await count()).toBe(1);
    await sell();
    await age(90_000);
    // Past the second in which this instance trusts its last look at the watermark.
    await new Promise((r) => setTimeout(r, 1100));
    // Between once and twice the maximum age: the read does not wait, and says how old its figures
    // are (which rows it sees depends on the driver: PGlite runs the refresh first on its one connection).
    const stale = await summary();
    expect(Date.now() - Date.parse(stale.asOf)).toBeGreaterThan(80_000);
    await expect.poll(count, { timeout: 5000, interval: 1100 }).toBe(2);
  });
});
