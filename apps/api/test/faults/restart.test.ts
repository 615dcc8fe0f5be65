import { payoutSchema, walletSchema } from "@salelink/contracts";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { payouts, users } from "../../src/db/schema/index.ts";
import { rowsOf } from "../../src/modules/wallet/ledger.ts";
import { insertCampaign } from "../support/accounts.ts";
import { dbKind, testDatabase } from "../support/app.ts";
import { ledgerProblems, ledgerSums, unpaidConfirmedPayments, waitForJobs } from "./checks.ts";
import {
  ApiProcess,
  buildServer,
  faultSeed,
  freePort,
  type ServerBundle,
  seededRandom,
  sleep,
} from "./helpers.ts";
import { type Creator, FaultShop, type Person } from "./shop.ts";

/*
 * The API killed with SIGKILL in the middle of its work, phase after phase (checkouts paid through
 * the jobs, the provider's webhooks, hold releases with commission claims, payouts requested and
 * processed), and started again on the same database each time. Each phase's traffic runs until
 * the kill, so requests and jobs are in flight when it comes. Afterwards the provider redelivers
 * its events until it gets a 2xx, clients finish what got no answer, and nothing may be lost,
 * doubled or stuck. Kill moments come from FAULT_SEED (printed on failure) to replay a run.
 *
 * PostgreSQL only: the server runs as its own process on the test's database, which an in-memory
 * PGlite cannot share, and a killed process's sessions must be rolled back by a real server.
 */

const seed = faultSeed();
/** The kill points; the traffic's own choices draw from another source, as their count depends on timing. */
const random = seededRandom(seed);
const choices = seededRandom(seed ^ 0x5bd1e995);
const timeline: string[] = [];

let database: Database & { url?: string };
let bundle: ServerBundle | undefined;
let api: ApiProcess | undefined;
let shop: FaultShop;
let admin: Person;
let referrers: Person[] = [];
let creators: Creator[] = [];

/**
 * Starts `traffic` (loops that end when their server is gone) and kills the server once it has
 * answered a seeded number of calls within `answers`, plus a seeded delay of up to 100 ms: counting
 * answers rather than time keeps the kill inside the traffic however busy the machine is.
 */
async function killDuring(name: string, answers: [number, number], traffic: () => Promise<unknown>) {
  if (!api) throw new Error("api not started");
  const before = shop.answered;
  const target = before + random.between(...answers);
  const delay = random.between(0, 100);
  const running = traffic();
  const bound = Date.now() + 20_000;
  while (shop.answered < target && Date.now() < bound) await sleep(5);
  await sleep(delay);
  const seen = shop.answered - before;
  await api.kill();
  await running;
  const restart = performance.now();
  await api.start();
  timeline.push(
    `${name} killed after ${seen} answers + ${delay} ms (restart ${Math.round(performance.now() - restart)} ms)`,
  );
}

/** Repeats `step` while it answers true: until one of its calls finds the server gone. */
async function untilKilled(step: () => Promise<boolean>): Promise<void> {
  const bound = Date.now() + 20_000;
  while (Date.now() < bound && (await step())) {
    // Loops on.
  }
}

/** After a restart: no job left due or stuck, no posting missing or doubled, no bad answer. */
async function expectConsistent(): Promise<void> {
  expect(await waitForJobs(database.db, 15_000)).toEqual([]);
  expect(await ledgerProblems(database.db)).toEqual([]);
  expect(shop.unexpected).toEqual([]);
}

const creatorAt = (i: number): Creator => {
  const c = creators[i % creators.length];
  if (!c) throw new Error("no creators");
  return c;
};

async function orderIds(status: string): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await database.db.execute(
      sql`select id::text as id from orders where status = ${status} order by created_at`,
    ),
  );
  return rows.map((r) => r.id);
}

describe.skipIf(dbKind !== "postgres")("the API killed (SIGKILL) at random points, then restarted", () => {
  beforeAll(async () => {
    const [db, built] = await Promise.all([testDatabase(), buildServer()]);
    database = db;
    bundle = built;
    if (!database.url) throw new Error("no database url");
    api = new ApiProcess({ bundle, databaseUrl: database.url, port: await freePort() });
    await api.start();
    const running = api;
    shop = new FaultShop(database, () => running.baseUrl);

    admin = await shop.person();
    await database.db.update(users).set({ role: "admin" }).where(eq(users.id, admin.id));
    referrers = [await shop.person(), await shop.person()];
    const [first, second] = await Promise.all(referrers.map((r) => insertCampaign(database, r.id)));
    creators = await Promise.all([
      shop.creator(first?.id),
      shop.creator(first?.id),
      shop.creator(second?.id),
      shop.creator(),
    ]);
  }, 60_000);

  afterAll(async () => {
    await api?.dispose();
    await bundle?.remove();
    await database?.close();
  });

  it("loses no paid order, posts nothing twice and finishes every job", async () => {
    onTestFailed(() => {
      console.error(`FAULT_SEED=${seed}\n${timeline.join("\n")}\nserver output:\n${api?.log ?? ""}`);
    });
    let buyers = 0;

    // 1. Buyers check out and pay on the sandbox's card form; its events go out through the jobs.
    await killDuring("checkout", [4, 16], () =>
      Promise.all(
        Array.from({ length: 4 }, (_, worker) =>
          untilKilled(async () => {
            const started = await shop.startCheckout(creatorAt(worker + buyers).link, `buyer-${buyers++}`);
            return started !== null && (await shop.payWithCard(started)) !== null;
          }),
        ),
      ),
    );
    await expectConsistent();
    expect(await unpaidConfirmedPayments(database.db, [])).toEqual([]);

    // 2. The provider's webhooks, each delivered three times at once, for checkouts started
    // before (two per creator, so that every creator has sales to go on with) and still pending.
    for (let i = 0; i < creators.length * 2; i++)
      await shop.startCheckout(creatorAt(i).link, `buyer-${buyers++}`);
    const pending = new Set(await orderIds("pending"));
    const toReport = shop.checkouts.filter((c) => pending.has(c.orderId));
    await killDuring("webhooks", [2, 20], () =>
      Promise.all(
        Array.from({ length: 3 }, () =>
          untilKilled(async () => {
            const next = toReport.shift();
            // Half of the payments are reported twice more under another event id, as a provider
            // does when two of its notifications concern one payment: still one sale.
            if (next)
              return (await shop.reportPaid(next, 3)) && (choices.next() < 0.5 || shop.reportPaid(next, 1));
            // Nothing new to report: the provider retries an event it sent already.
            const again = shop.sentEvents[choices.between(0, shop.sentEvents.length - 1)];
            return again !== undefined && (await shop.deliver(again)) !== null;
          }),
        ),
      ),
    );
    // The provider confirmed those payments too and reports them now, then retries the others.
    // (redeliverAll retries any of these deliveries that gets no answer.)
    for (const c of toReport.splice(0)) await shop.reportPaid(c, 1);
    await shop.redeliverAll();
    await expectConsistent();
    const reported = shop.sentEvents.map((e) => e.orderId);
    expect(await unpaidConfirmedPayments(database.db, reported)).toEqual([]);

    // 3. Holds released one sale at a time (the development route moves the clock past them)
    // while the referrers claim their commissions over and over.
    const paid = await orderIds("paid");
    const asOf = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const release = (orderIds: string[]) =>
      shop.call("POST", "/dev/holds/release", { body: { asOf, orderIds } }, [200]);
    const claim = (r: Person) => shop.call("POST", "/campaigns/claim", { cookie: r.cookie }, [200, 409]);
    let nextRelease = 0;
    await killDuring("release and claim", [2, 16], () =>
      Promise.all([
        ...[0, 1].map(() =>
          untilKilled(async () => {
            const id = paid[nextRelease++ % paid.length];
            return id !== undefined && (await release([id])) !== null;
          }),
        ),
        ...referrers.map((r) => untilKilled(async () => (await claim(r)) !== null)),
      ]),
    );
    await shop.retried(() => release(paid), "release");
    for (const r of referrers) {
      // Until 409: nothing left to claim.
      while ((await shop.retried(() => claim(r), "claim")).status === 200) {
        // Claims on.
      }
    }
    await expectConsistent();

    // 4. Creators withdraw the minimum again and again; the operators approve each payout and mark
    // it paid, or for the last creator failed (the amount comes back, to be withdrawn again).
    const last = creators[creators.length - 1];
    const approve = (id: string) =>
      shop.call("POST", `/admin/payouts/${id}/approve`, { cookie: admin.cookie, body: {} }, [200, 409]);
    const finish = (id: string, userId: string) =>
      userId === last?.id
        ? shop.call(
            "POST",
            `/admin/payouts/${id}/fail`,
            { cookie: admin.cookie, body: { reason: "The bank refused the transfer" } },
            [200, 409],
          )
        : shop.call("POST", `/admin/payouts/${id}/paid`, { cookie: admin.cookie, body: {} }, [200, 409]);
    /** One withdrawal of the minimum taken through; false when a call got no answer. */
    const withdrawal = async (c: Creator): Promise<boolean> => {
      const requested = await shop.call(
        "POST",
        "/profile/payout",
        { cookie: c.cookie, body: { bankAccountId: c.bankAccountId, currency: "EUR", amount: 1000 } },
        // 400: below the minimum, all withdrawn already.
        [201, 400],
      );
      if (!requested) return false;
      if (requested.status !== 201)
        return (await shop.call("GET", "/wallet", { cookie: c.cookie }, [200])) !== null;
      const { id } = payoutSchema.parse(requested.body);
      return (await approve(id)) !== null && (await finish(id, c.id)) !== null;
    };
    await killDuring("payouts", [3, 16], () =>
      Promise.all(creators.map((c) => untilKilled(() => withdrawal(c)))),
    );
    // The operators look at the queue again and move on what is still open.
    for (const p of await database.db.select().from(payouts)) {
      if (p.status === "requested") await shop.retried(() => approve(p.id), "approve");
      if (p.status === "requested" || p.status === "processing") {
        await shop.retried(() => finish(p.id, p.userId), "finish");
      }
    }
    // And withdraw once more, the restarted server's turn.
    for (const c of creators) expect(await withdrawal(c)).toBe(true);
    await expectConsistent();

    // Every sale paid and released, every commission claimed, nothing left in transit, and the
    // balances each user sees are the ledger's.
    const orders = rowsOf<{ released: boolean; claimed: boolean; referred: boolean }>(
      await database.db.execute(sql`select released_at is not null as released,
        commission_claim_id is not null as claimed, referrer_id is not null as referred
        from orders where status = 'paid'`),
    );
    expect(orders.length).toBeGreaterThanOrEqual(creators.length * 2);
    for (const o of orders) expect(o).toEqual({ released: true, claimed: o.referred, referred: o.referred });
    const openPayouts = await database.db.select({ status: payouts.status }).from(payouts);
    expect(openPayouts.filter((p) => p.status !== "paid" && p.status !== "failed")).toEqual([]);
    expect(openPayouts.filter((p) => p.status === "paid").length).toBeGreaterThan(0);
    for (const user of [...creators, ...referrers]) {
      const answer = await shop.call("GET", "/wallet", { cookie: user.cookie }, [200]);
      const wallet = walletSchema.parse(answer?.body);
      const sums = await ledgerSums(database.db, user.id);
      const ledger = (account: string) => sums.get(`EUR:${account}`) ?? 0;
      const zero = {
        currency: "EUR",
        pending: 0,
        available: 0,
        inTransit: 0,
        affiliatePending: 0,
        affiliateClaimable: 0,
        partnerPending: 0,
        partnerClaimable: 0,
        debt: 0,
      };
      // A currency whose every balance is zero is not shown.
      expect(wallet.balances.find((b) => b.currency === "EUR") ?? zero).toEqual({
        currency: "EUR",
        pending: ledger("pending"),
        available: ledger("available"),
        inTransit: 0,
        affiliatePending: ledger("affiliate_pending"),
        affiliateClaimable: 0,
        partnerPending: 0,
        partnerClaimable: 0,
        debt: 0,
      });
      expect(ledger("in_transit")).toBe(0);
      expect(ledger("affiliate_claimable")).toBe(0);
    }
    expect(shop.unexpected).toEqual([]);
    const resumed = rowsOf<{ n: string }>(
      await database.db.execute(sql`select count(*)::text as n from jobs where attempts > 1`),
    )[0]?.n;
    timeline.push(`${resumed} jobs run again after a kill`);
    console.info(
      `FAULT_SEED=${seed}: ${orders.length} paid orders, ${openPayouts.length} payouts\n${timeline.join("\n")}`,
    );
  }, 90_000);
});
