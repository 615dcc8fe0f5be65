import type { CheckoutResponse, Link, NotificationSettings } from "@salelink/contracts";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../../src/db/schema/index.ts";
import { listOutbox } from "../../src/modules/mail/queries.ts";
import {
  nextDigestAt,
  SALE_NOTIFY_SETTLE_MS,
  saleNotificationJob,
  saleNotificationRows,
  salesDigestJob,
  scheduleSalesDigest,
  sendSalesDigests,
} from "../../src/modules/notifications/service.ts";
import { applyPaymentBatch } from "../../src/modules/orders/apply-batch.ts";
import { applyPaymentEvent } from "../../src/modules/orders/events.ts";
import { type SandboxEvent, sandboxEvent } from "../../src/providers/payments/index.ts";
import type { PaymentEvent } from "../../src/providers/payments/types.ts";
import { accountWithSession } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

/*
 * A creator's sale e-mails (issue 21): the payment paths (one by one and in batches) queue one job
 * per creator and window, the job sends one e-mail for the window's sales in the creator's
 * language when they chose "each", nothing on "off" or "digest"; the daily digest sends once per
 * creator and day.
 */

let ctx: TestContext;
const helpers = checkoutHelpers(() => ctx);
const WINDOW_MS = 60_000;

beforeAll(async () => {
  ctx = await testApp({ HOLD_DAYS: "7", SALE_NOTIFY_COALESCE_SECONDS: "60" });
});
afterAll(() => ctx.close());

type Creator = Awaited<ReturnType<typeof accountWithSession>> & { link: Link };

async function newCreator(locale: "en" | "fr" | "es" = "en"): Promise<Creator> {
  const account = await accountWithSession(ctx.database, { onboarded: true, locale });
  return { ...account, link: await helpers.newLink(account.cookie) };
}

const asPaymentEvent = (e: SandboxEvent): PaymentEvent => ({
  id: e.id,
  type: e.type,
  paymentId: e.data.paymentId,
  orderId: e.data.orderId ?? null,
  amountMinor: e.data.amountMinor,
  currency: e.data.currency,
  createdAt: new Date(e.created * 1000),
  raw: e,
});

let buyers = 0;
/** `n` pending orders of the creator's link, and their payments' events, made at `at`. */
async function payments(creator: Creator, n: number, at: Date): Promise<PaymentEvent[]> {
  const events = [];
  for (let i = 0; i < n; i++) {
    buyers += 1;
    const res = await helpers.checkout(creator.link.token, { email: `buyer${buyers}@example.test` });
    expect(res.statusCode, res.body).toBe(201);
    const started = res.json<CheckoutResponse>();
    const data = {
      paymentId: started.paymentId,
      orderId: started.orderId,
      amountMinor: 2000,
      currency: "EUR" as const,
    };
    events.push(asPaymentEvent(sandboxEvent("payment.succeeded", data, at)));
  }
  return events;
}

/** A time a few minutes ago, early in its window: every sale made there is in one window, long over. */
function pastWindow(): Date {
  return new Date(Math.floor((Date.now() - 5 * WINDOW_MS) / WINDOW_MS) * WINDOW_MS + 1000);
}

async function oneByOne(events: PaymentEvent[]): Promise<void> {
  for (const event of events) {
    const result = await ctx.database.db.transaction((tx) =>
      applyPaymentEvent(tx, ctx.config, "sandbox", event),
    );
    expect(result).toBe("applied");
  }
}

const notifyJobsOf = (creatorId: string) =>
  ctx.database.db
    .select({ runAt: jobs.runAt, status: jobs.status, payload: jobs.payload })
    .from(jobs)
    .where(and(eq(jobs.kind, saleNotificationJob.kind), like(jobs.dedupeKey, `sale-notify:${creatorId}:%`)));

/** Runs every due job, then the e-mails sent to `to`. */
async function mailsTo(to: string) {
  await ctx.app.services.jobs.worker.runDue();
  return listOutbox(ctx.database.db, { limit: 100, to });
}

const setMode = (creator: Creator, saleNotifications: NotificationSettings["saleNotifications"]) =>
  ctx.app.inject({
    method: "PUT",
    url: "/profile/notifications",
    headers: { cookie: creator.cookie },
    payload: { saleNotifications },
  });

describe("GET and PUT /profile/notifications", () => {
  it("answers an e-mail per sale by default, and saves the choice", async () => {
    const creator = await newCreator();
    const get = () =>
      ctx.app.inject({ method: "GET", url: "/profile/notifications", headers: { cookie: creator.cookie } });
    expect((await get()).json()).toEqual({ saleNotifications: "each" });

    const saved = await setMode(creator, "digest");
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      saleNotifications: "digest",
      message: "Notification settings saved.",
    });
    expect((await get()).json()).toEqual({ saleNotifications: "digest" });
  });

  it("refuses a choice that does not exist, in the caller's language", async () => {
    const creator = await newCreator();
    const res = await ctx.app.inject({
      method: "PUT",
      url: "/profile/notifications",
      headers: { cookie: creator.cookie },
      payload: { saleNotifications: "hourly" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "ValidationException" });
  });
});

describe("the sale e-mail", () => {
  it("is queued by a sale for the end of its window, then sent once in the creator's language", async () => {
    const creator = await newCreator("fr");
    const started = (await helpers.checkout(creator.link.token)).json<CheckoutResponse>();
    await helpers.pay(started);

    const queued = await notifyJobsOf(creator.id);
    expect(queued).toHaveLength(1);
    const job = queued[0];
    expect(job?.status).toBe("queued");
    // Not before the window is over: the payment path sent nothing.
    expect(job?.runAt.getTime()).toBeGreaterThan(Date.now());
    expect(job?.runAt.getTime() ?? 0).toBeLessThanOrEqual(Date.now() + WINDOW_MS + SALE_NOTIFY_SETTLE_MS);
    expect(await mailsTo(creator.email)).toEqual([]);

    await ctx.database.db
      .update(jobs)
      .set({ runAt: new Date() })
      .where(like(jobs.dedupeKey, `sale-notify:${creator.id}:%`));
    const mails = await mailsTo(creator.email);
    expect(mails.map((m) => m.template)).toEqual(["sale-notification"]);
    expect(mails[0]?.subject).toBe("Vous avez vendu Sunset pack pour 20,00\u00a0€");
    expect(mails[0]?.subject).not.toContain("@");
    expect(mails[0]?.text).toContain("http://localhost:3000/account/wallet");
    expect(mails[0]?.text).toContain("http://localhost:3000/account/settings");
    // The buyer's address is in no part of it.
    expect(mails[0]?.text).not.toContain("buyer@example.test");
    expect(await mailsTo(creator.email)).toHaveLength(1);
  });

  it("tells ten sales of one window in one e-mail (payments applied one by one)", async () => {
    const creator = await newCreator();
    const at = pastWindow();
    const events = await payments(creator, 10, at);
    await oneByOne(events);
    expect(await notifyJobsOf(creator.id)).toHaveLength(1);

    const mails = await mailsTo(creator.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe("You made 10 sales: €200.00");
    expect(mails[0]?.text).toContain("Sunset pack: €20.00");
    expect(mails[0]?.text).toContain("And 5 more sales.");
  });

  it("tells ten sales of one window in one e-mail (payments applied in one batch)", async () => {
    const creator = await newCreator("es");
    const events = await payments(creator, 10, pastWindow());
    const { results } = await ctx.database.db.transaction((tx) =>
      applyPaymentBatch(tx, ctx.config, "sandbox", events),
    );
    expect(results).toEqual(events.map(() => "applied"));
    expect(await notifyJobsOf(creator.id)).toHaveLength(1);

    const mails = await mailsTo(creator.email);
    expect(mails.map((m) => m.subject)).toEqual(["Has hecho 10 ventas: 200,00\u00a0€"]);
  });

  it("gives a batch one job row per creator and window", () => {
    const at = pastWindow();
    const [a, b] = ["7f1c1e0e-5d4a-4c39-9a5e-3f8f6a1b2c3d", "0b9e7a52-2f0e-4a39-8f1d-6c2b1e3d4f5a"];
    const later = new Date(at.getTime() + WINDOW_MS);
    const sales = [
      ...Array.from({ length: 10 }, (_, i) => ({
        creatorId: a as string,
        paidAt: new Date(at.getTime() + i),
      })),
      { creatorId: b as string, paidAt: at },
      { creatorId: a as string, paidAt: later },
    ];
    const rows = saleNotificationRows(ctx.config, sales);
    expect(rows.map((r) => r.payload)).toEqual([
      {
        creatorId: a,
        from: new Date(at.getTime() - 1000).toISOString(),
        to: new Date(at.getTime() - 1000 + WINDOW_MS).toISOString(),
      },
      {
        creatorId: b,
        from: new Date(at.getTime() - 1000).toISOString(),
        to: new Date(at.getTime() - 1000 + WINDOW_MS).toISOString(),
      },
      {
        creatorId: a,
        from: new Date(later.getTime() - 1000).toISOString(),
        to: new Date(later.getTime() - 1000 + WINDOW_MS).toISOString(),
      },
    ]);
    expect(new Set(rows.map((r) => r.dedupeKey)).size).toBe(3);
  });

  it("sends one e-mail per window: sales of two windows make two", async () => {
    const creator = await newCreator();
    const first = pastWindow();
    const second = new Date(first.getTime() + WINDOW_MS);
    await oneByOne([...(await payments(creator, 2, first)), ...(await payments(creator, 1, second))]);
    expect(await notifyJobsOf(creator.id)).toHaveLength(2);
    const subjects = (await mailsTo(creator.email)).map((m) => m.subject).sort();
    expect(subjects).toEqual(["You made 2 sales: €40.00", "You sold Sunset pack for €20.00"]);
  });

  it("is not sent to a creator who turned sale e-mails off", async () => {
    const creator = await newCreator();
    expect((await setMode(creator, "off")).statusCode).toBe(200);
    await oneByOne(await payments(creator, 3, pastWindow()));
    expect(await mailsTo(creator.email)).toEqual([]);
    // The job ran and chose to send nothing.
    expect((await notifyJobsOf(creator.id)).map((j) => j.status)).toEqual(["done"]);
  });
});

describe("the daily digest", () => {
  it("replaces the sale e-mails of a creator who chose it, once per day however often it runs", async () => {
    const creator = await newCreator();
    const other = await newCreator();
    expect((await setMode(creator, "digest")).statusCode).toBe(200);
    await oneByOne(await payments(creator, 3, pastWindow()));
    await oneByOne(await payments(other, 1, pastWindow()));
    expect(await mailsTo(creator.email)).toEqual([]);

    const at = new Date().toISOString();
    const run = () => ctx.database.db.transaction((tx) => sendSalesDigests(tx, ctx.config, { at }));
    expect(await run()).toBe(1);
    expect(await run()).toBe(1);
    const mails = await mailsTo(creator.email);
    expect(mails.map((m) => m.template)).toEqual(["sales-digest"]);
    expect(mails[0]?.subject).toBe("Your sales on Salelink in the last 24 hours: €60.00");
    expect(mails[0]?.text).toContain("In the last 24 hours you made 3 sales, for €60.00 in all.");
    expect(mails[0]?.text).toContain("Sunset pack: 3 sales, €60.00");
    // The creator on "each" got their sale e-mail, and no digest.
    expect((await mailsTo(other.email)).map((m) => m.template)).toEqual(["sale-notification"]);
  });

  it("is a chain of one run a day, at the configured hour, however many instances queue it", async () => {
    const config = { SALES_DIGEST_HOUR_UTC: 8 };
    expect(nextDigestAt(config, new Date("2026-03-01T07:59:59Z")).toISOString()).toBe(
      "2026-03-01T08:00:00.000Z",
    );
    expect(nextDigestAt(config, new Date("2026-03-01T08:00:00Z")).toISOString()).toBe(
      "2026-03-02T08:00:00.000Z",
    );
    expect(nextDigestAt(config, new Date("2026-03-01T21:00:00Z")).toISOString()).toBe(
      "2026-03-02T08:00:00.000Z",
    );

    const now = new Date("2030-01-05T10:00:00Z");
    await scheduleSalesDigest(ctx.database.db, config, now);
    await scheduleSalesDigest(ctx.database.db, config, now);
    const queued = await ctx.database.db
      .select({ runAt: jobs.runAt, payload: jobs.payload })
      .from(jobs)
      .where(and(eq(jobs.kind, salesDigestJob.kind), like(jobs.dedupeKey, "sales-digest@2030-%")));
    expect(queued).toEqual([
      { runAt: new Date("2030-01-06T08:00:00Z"), payload: { at: "2030-01-06T08:00:00.000Z" } },
    ]);

    // A run queues the next day's.
    await ctx.database.db.transaction((tx) =>
      sendSalesDigests(tx, ctx.config, { at: "2030-01-06T08:00:00.000Z" }),
    );
    const next = await ctx.database.db
      .select({ key: jobs.dedupeKey })
      .from(jobs)
      .where(like(jobs.dedupeKey, "sales-digest@2030-%"));
    expect(next.map((j) => j.key).sort()).toEqual(["sales-digest@2030-01-06", "sales-digest@2030-01-07"]);
  });
});
