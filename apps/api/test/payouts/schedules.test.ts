import type { PayoutSchedule } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../../src/db/schema/index.ts";
import { insertScheduledPayout } from "../../src/modules/payouts/queries.ts";
import { duePeriod, isoWeek, nextTickAt } from "../../src/modules/payouts/schedules/periods.ts";
import {
  payoutScheduleTickJob,
  runPayoutSchedule,
  tickPayoutSchedules,
} from "../../src/modules/payouts/schedules/service.ts";
import { accountWithSession, errorOf, insertApprovedIdentity, mailsTo } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { GB_ACCOUNT, payoutCalls } from "./payout-fixtures.ts";

/* Issue 23: payout schedules, their job chain, exactly once per period, and what blocks them. */

let ctx: TestContext;
let admin: string;
let p: ReturnType<typeof payoutCalls>;

beforeAll(async () => {
  ctx = await testApp();
  p = payoutCalls(ctx);
  admin = (await accountWithSession(ctx.database, { onboarded: true, role: "admin" })).cookie;
});
afterAll(() => ctx.close());

const DAY_MS = 86_400_000;
const isoWeekday = (d: Date) => ((d.getUTCDay() + 6) % 7) + 1;
const today = () => isoWeekday(new Date());
const setSchedule = (cookie: string, body: object) => p.call("PUT", "/profile/payout/schedule", cookie, body);
const settings = () => ctx.config;
const provider = () => ctx.app.services.payouts;

/** One tick of the chain at `at`, then the runs it queued, as the workers would. */
async function tick(at = new Date()) {
  const users = await ctx.database.db.transaction((tx) =>
    tickPayoutSchedules(tx, settings(), { at: at.toISOString() }),
  );
  await ctx.app.services.jobs.worker.runDue();
  return users;
}

const run = (userId: string, at: Date) =>
  ctx.database.db.transaction((tx) =>
    runPayoutSchedule(tx, settings(), provider(), { userId, at: at.toISOString() }),
  );

describe("schedule periods (pure)", () => {
  it("names ISO weeks and months, and waits for the next period when chosen after its day", () => {
    expect(isoWeek(new Date("2026-11-26T10:00:00Z"))).toBe("2026-W48");
    expect(isoWeek(new Date("2021-01-01T10:00:00Z"))).toBe("2020-W53");
    expect(isoWeek(new Date("2024-12-30T00:00:00Z"))).toBe("2025-W01");
    const thursday = new Date("2026-11-26T10:00:00Z");
    const since = new Date("2026-11-01T00:00:00Z");
    const weekly = (weekday: number, updatedAt = since) => ({
      kind: "weekly" as const,
      weekday,
      dayOfMonth: null,
      updatedAt,
    });
    expect(duePeriod(weekly(4), thursday)).toBe("weekly:2026-W48");
    // Monday's run missed (every instance down): caught up on Thursday, same period.
    expect(duePeriod(weekly(1), thursday)).toBe("weekly:2026-W48");
    expect(duePeriod(weekly(5), thursday)).toBeNull();
    // Chosen on Wednesday for Monday: from next Monday on.
    expect(duePeriod(weekly(1, new Date("2026-11-25T09:00:00Z")), thursday)).toBeNull();
    const monthly = { kind: "monthly" as const, weekday: null, dayOfMonth: 26, updatedAt: since };
    expect(duePeriod(monthly, thursday)).toBe("monthly:2026-11");
    expect(duePeriod({ ...monthly, dayOfMonth: 27 }, thursday)).toBeNull();
    expect(nextTickAt(15, new Date("2026-11-26T10:07:00Z")).toISOString()).toBe("2026-11-26T10:15:00.000Z");
    expect(nextTickAt(15, new Date("2026-11-26T10:15:00Z")).toISOString()).toBe("2026-11-26T10:30:00.000Z");
  });
});

describe(`payout schedules (${dbKind})`, () => {
  it("reads and saves a schedule; a threshold below the minimum is refused on its field", async () => {
    const c = await p.creator();
    const initial = (await p.call("GET", "/profile/payout/schedule", c.cookie)).json<PayoutSchedule>();
    expect(initial).toEqual({ schedule: { kind: "manual" }, nextRunAt: null, blocked: [], blockedAt: null });
    const low = await setSchedule(c.cookie, { kind: "threshold", thresholdMinor: 500 });
    expect(low.statusCode).toBe(400);
    expect(errorOf(low).errors).toEqual({
      thresholdMinor: ["The payout threshold must be at least the minimum payout, €10.00."],
    });
    expect((await setSchedule(c.cookie, { kind: "weekly", weekday: 8 })).statusCode).toBe(400);
    const weekly = await setSchedule(c.cookie, { kind: "weekly", weekday: 3 });
    expect(weekly.statusCode, weekly.body).toBe(200);
    const read = (await p.call("GET", "/profile/payout/schedule", c.cookie)).json<PayoutSchedule>();
    expect(read.schedule).toEqual({ kind: "weekly", weekday: 3 });
    expect(read.nextRunAt).not.toBeNull();
    expect(isoWeekday(new Date(read.nextRunAt ?? ""))).toBe(3);
    const back = (await setSchedule(c.cookie, { kind: "manual" })).json<PayoutSchedule>();
    expect(back).toMatchObject({ schedule: { kind: "manual" }, nextRunAt: null });
    expect((await p.call("GET", "/profile/payout/schedule")).statusCode).toBe(401);
  });

  it("pays a weekly creator each currency on the day, without an admin, once per week", async () => {
    const c = await p.creator({ balance: 5000, trusted: true });
    const gb = await p.addBank(c.cookie, GB_ACCOUNT);
    await p.age(c.id);
    await p.credit(c.id, 4000, "GBP");
    expect((await setSchedule(c.cookie, { kind: "weekly", weekday: today() })).statusCode).toBe(200);
    expect(await tick()).toContain(c.id);
    const made = await p.payoutsOf(c.id);
    const scheduled = made.filter((row) => row.origin === "schedule");
    expect(
      scheduled.map((row) => [row.currency, row.amountMinor, row.status, row.bankAccountId]).sort(),
    ).toEqual([
      ["EUR", 5000, "processing", c.bank.id],
      ["GBP", 4000, "processing", gb.id],
    ]);
    const period = `weekly:${isoWeek(new Date())}`;
    expect(scheduled.every((row) => row.schedulePeriod === period)).toBe(true);
    const detail = await p.detail(c.cookie, scheduled[0]?.id ?? "");
    expect(detail.origin).toBe("schedule");
    expect(detail.steps.map((s) => [s.step, s.detail])).toEqual([
      ["scheduled", { period }],
      ["approved", { by: "rules" }],
    ]);

    // More sales the same week, another tick: the week was paid, nothing more.
    for (const row of scheduled) {
      expect((await p.call("POST", `/admin/payouts/${row.id}/paid`, admin, {})).statusCode).toBe(200);
    }
    await p.credit(c.id, 3000);
    expect(await tick(new Date(Date.now() + 60_000))).not.toContain(c.id);
    expect(await run(c.id, new Date(Date.now() + 120_000))).toMatchObject({ created: [] });
    expect((await p.payoutsOf(c.id)).filter((row) => row.origin === "schedule")).toHaveLength(2);
    const schedule = (await p.call("GET", "/profile/payout/schedule", c.cookie)).json<PayoutSchedule>();
    expect(schedule.blocked).toEqual([]);
    await p.ledgerHolds();
  });

  it("makes one payout per period with two workers at once and after a run killed midway", async () => {
    const c = await p.creator({ balance: 5000, trusted: true });
    await setSchedule(c.cookie, { kind: "weekly", weekday: today() });
    const at = new Date();
    // A worker dies mid-run: its transaction rolls back, payout and posting with it.
    await expect(
      ctx.database.db.transaction(async (tx) => {
        const outcome = await runPayoutSchedule(tx, settings(), provider(), {
          userId: c.id,
          at: at.toISOString(),
        });
        expect(outcome.created).toHaveLength(1);
        throw new Error("worker killed");
      }),
    ).rejects.toThrow("worker killed");
    expect(await p.payoutsOf(c.id)).toHaveLength(1); // the trusted account's old paid payout only
    expect(await p.balance(c.id, "available")).toBe(5000);

    // Two workers take the run at once (a lease expired, a retry): one payout.
    const outcomes = await Promise.all([
      run(c.id, at),
      run(c.id, at),
      run(c.id, new Date(at.getTime() + 1000)),
    ]);
    expect(outcomes.flatMap((o) => o.created)).toHaveLength(1);
    const scheduled = (await p.payoutsOf(c.id)).filter((row) => row.origin === "schedule");
    expect(scheduled).toHaveLength(1);
    expect(await p.balance(c.id, "available")).toBe(0);
    expect(await p.balance(c.id, "in_transit")).toBe(5000);

    // Failed and the money back: the period stays taken, the index says so to any late run.
    const id = scheduled[0]?.id ?? "";
    expect(
      (await p.call("POST", `/admin/payouts/${id}/fail`, admin, { reason: "Returned by the bank" }))
        .statusCode,
    ).toBe(200);
    expect(await run(c.id, new Date(at.getTime() + 2000))).toMatchObject({ created: [] });
    const again = await ctx.database.db.transaction((tx) =>
      insertScheduledPayout(tx, {
        userId: c.id,
        bankAccountId: c.bank.id,
        holderName: "Ada Lovelace",
        ibanCountry: "DE",
        ibanLast4: "3000",
        amountMinor: 5000,
        currency: "EUR",
        provider: "manual",
        schedulePeriod: scheduled[0]?.schedulePeriod ?? "",
      }),
    );
    expect(again).toBeNull();
    await p.ledgerHolds();
  });

  it("pays at a threshold per currency, the whole balance, once reached", async () => {
    const c = await p.creator({ balance: 1500, trusted: true });
    await setSchedule(c.cookie, { kind: "threshold", thresholdMinor: 2000 });
    expect(await tick()).not.toContain(c.id);
    await p.credit(c.id, 1000);
    expect(await tick(new Date(Date.now() + 1000))).toContain(c.id);
    const [made] = (await p.payoutsOf(c.id)).filter((row) => row.origin === "schedule");
    expect(made).toMatchObject({ amountMinor: 2500, currency: "EUR", status: "processing" });
    expect(made?.schedulePeriod).toMatch(/^threshold:/);
  });

  it("holds a scheduled payout that a risk rule holds, like a request", async () => {
    const c = await p.creator({ balance: 5000 });
    await setSchedule(c.cookie, { kind: "monthly", dayOfMonth: Math.min(new Date().getUTCDate(), 28) });
    if (new Date().getUTCDate() > 28) return; // no monthly day to choose today
    await tick();
    const [made] = (await p.payoutsOf(c.id)).filter((row) => row.origin === "schedule");
    expect(made?.status).toBe("requested");
    expect(made?.heldRules).toEqual(["first_payout", "young_account", "bank_account_changed"]);
  });

  it("says what is missing instead of failing silently, e-mails each change once, clears when paid", async () => {
    const c = await p.creator({ balance: 5000, identity: false, trusted: true });
    await p.credit(c.id, 4000, "GBP");
    await setSchedule(c.cookie, { kind: "weekly", weekday: today() });
    await tick();
    expect(await p.payoutsOf(c.id)).toHaveLength(1); // the old paid one
    let schedule = (await p.call("GET", "/profile/payout/schedule", c.cookie)).json<PayoutSchedule>();
    expect(schedule.blocked).toEqual([{ code: "identity" }]);
    expect(schedule.blockedAt).not.toBeNull();
    await tick(new Date(Date.now() + 1000));
    const blockedMails = async () =>
      (await mailsTo(ctx, c.email)).filter((m) => m.template === "payout-schedule-blocked");
    expect(await blockedMails()).toHaveLength(1);
    expect((await blockedMails())[0]?.text).toContain("verify your identity");

    // Identity verified: euros go out; pounds have no account that takes them.
    await insertApprovedIdentity(ctx.database, c.id);
    await tick(new Date(Date.now() + 2000));
    schedule = (await p.call("GET", "/profile/payout/schedule", c.cookie)).json<PayoutSchedule>();
    expect(schedule.blocked).toEqual([{ code: "bank_account", currency: "GBP" }]);
    const mails = await blockedMails();
    expect(mails).toHaveLength(2);
    expect(mails[0]?.text).toContain("add a bank account that takes GBP");
    expect((await p.payoutsOf(c.id)).filter((r) => r.origin === "schedule").map((r) => r.currency)).toEqual([
      "EUR",
    ]);

    // A GBP account: the next run pays the pounds, and nothing blocks any more.
    await p.addBank(c.cookie, GB_ACCOUNT);
    await tick(new Date(Date.now() + 3000));
    schedule = (await p.call("GET", "/profile/payout/schedule", c.cookie)).json<PayoutSchedule>();
    expect(schedule).toMatchObject({ blocked: [], blockedAt: null });
    expect(
      (await p.payoutsOf(c.id))
        .filter((r) => r.origin === "schedule")
        .map((r) => r.currency)
        .sort(),
    ).toEqual(["EUR", "GBP"]);
    expect(await blockedMails()).toHaveLength(2);
  });

  it("keeps a scheduled payout in progress on its account when a newer one is added", async () => {
    const c = await p.creator({ balance: 5000 });
    await setSchedule(c.cookie, { kind: "weekly", weekday: today() });
    await tick();
    const [made] = (await p.payoutsOf(c.id)).filter((row) => row.origin === "schedule");
    expect(made?.status).toBe("requested");
    const newer = await p.addBank(c.cookie, {
      holderName: "Ada Lovelace",
      iban: "FR1420041010050500013M02606",
    });
    expect((await p.call("POST", `/admin/payouts/${made?.id}/approve`, admin, {})).statusCode).toBe(200);
    const detail = await p.detail(c.cookie, made?.id ?? "");
    expect(detail.bankAccount.id).toBe(c.bank.id);
    expect(detail.bankAccount.id).not.toBe(newer.id);
  });

  it("keeps one chain of ticks: each tick queues the next bucket once, whoever asks", async () => {
    const at = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 10 * DAY_MS);
    await ctx.database.db.transaction((tx) =>
      tickPayoutSchedules(tx, settings(), { at: at.toISOString() }, at),
    );
    await ctx.database.db.transaction((tx) =>
      tickPayoutSchedules(tx, settings(), { at: at.toISOString() }, at),
    );
    const next = nextTickAt(ctx.config.PAYOUT_SCHEDULE_INTERVAL_MINUTES, at);
    const queued = await ctx.database.db
      .select({ runAt: jobs.runAt })
      .from(jobs)
      .where(eq(jobs.dedupeKey, `payouts.schedule-tick@${next.toISOString()}`));
    expect(queued).toHaveLength(1);
    expect(queued[0]?.runAt.toISOString()).toBe(next.toISOString());
    expect(payoutScheduleTickJob.kind).toBe("payouts.schedule-tick");
  });
});
