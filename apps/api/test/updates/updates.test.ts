import type { CheckoutResponse, Link, UnsubscribeView, UpdateList, UpdateView } from "@salelink/contracts";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/client.ts";
import { buyerUpdates, customers, jobs, mailOutbox } from "../../src/db/schema/index.ts";
import { updateBatchJob } from "../../src/modules/updates/jobs.ts";
import { unsubscribeToken } from "../../src/modules/updates/tokens.ts";
import {
  type MailProvider,
  OutboxMailProvider,
  type OutgoingMail,
  type SendOptions,
} from "../../src/providers/mail/index.ts";
import { accountWithSession, errorOf, uniqueEmail } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

/*
 * Updates to buyers (issue 21, decision 038): sent in batches by the job queue, each e-mail with a
 * one-click unsubscribe link; unsubscribed buyers are skipped and counted; a few a day per creator.
 */

/**
 * The outbox, with faults on demand: `refuse` addresses are turned down by the "provider" (one
 * message fails for good, a 5xx), `down` fails every send (no connection), and the `crashAt`-th send
 * fails the database itself (the batch's transaction is lost, as in a crash mid-batch).
 */
class FaultyOutbox implements MailProvider {
  readonly kind = "outbox" as const;
  refuse = new Set<string>();
  crashAt: number | null = null;
  down = false;
  sends = 0;
  private inner: OutboxMailProvider | null = null;

  bind(db: Db) {
    this.inner = new OutboxMailProvider(db);
  }

  async send(message: OutgoingMail, options: SendOptions = {}) {
    if (!this.inner) throw new Error("FaultyOutbox is not bound to a database");
    if (message.template === "buyer-update") {
      this.sends += 1;
      if (this.refuse.has(message.to))
        throw Object.assign(new Error("550 mailbox unavailable"), { code: "EENVELOPE", responseCode: 550 });
      if (this.down) throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNECTION" });
      if (this.crashAt !== null && this.sends >= this.crashAt && options.db)
        await options.db.execute(sql`select * from table_that_does_not_exist`);
    }
    return this.inner.send(message, options);
  }
}

const mail = new FaultyOutbox();
let ctx: TestContext;
const helpers = checkoutHelpers(() => ctx);
const BATCH = 2;

beforeAll(async () => {
  ctx = await testApp({ UPDATES_BATCH_SIZE: String(BATCH), UPDATES_PER_DAY: "3" }, undefined, { mail });
  mail.bind(ctx.database.db);
});
afterAll(() => ctx.close());

const inject = (method: "GET" | "POST", url: string, cookie?: string, payload?: object) =>
  ctx.app.inject({
    method,
    url,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload ? { payload } : {}),
  });

const compose = (
  cookie: string,
  extra: Partial<{ subject: string; body: string; linkId: string | null }> = {},
) =>
  inject("POST", "/updates", cookie, {
    subject: "A new chapter",
    body: "Hello! Read it at https://example.test/chapter-2.\n\nSee you <soon> & thanks.",
    linkId: null,
    locale: "en",
    ...extra,
  });

async function sent(cookie: string, extra: Parameters<typeof compose>[1] = {}): Promise<UpdateView> {
  const res = await compose(cookie, extra);
  expect(res.statusCode, res.body).toBe(202);
  await ctx.app.services.jobs.worker.runDue();
  const view = await inject("GET", `/updates/${res.json<UpdateView>().id}`, cookie);
  expect(view.statusCode, view.body).toBe(200);
  return view.json<UpdateView>();
}

/** The update e-mails the outbox holds for `to`. */
async function updateMails(to: string) {
  return ctx.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, to), eq(mailOutbox.template, "buyer-update")));
}

/** A paid purchase of `link` by `email`. */
async function buy(link: Link, email: string) {
  const res = await helpers.checkout(link.token, { email });
  expect(res.statusCode, res.body).toBe(201);
  await helpers.pay(res.json<CheckoutResponse>());
}

/** Customers written behind the API's back (as paid orders record them), for the batch tests. */
async function insertCustomers(creatorId: string, emails: string[], unsubscribed: string[] = []) {
  const rows = await ctx.database.db
    .insert(customers)
    .values(
      emails.map((email) => ({
        creatorId,
        email,
        firstPaidAt: new Date(Date.now() - 60_000),
        lastPaidAt: new Date(Date.now() - 60_000),
        ordersCount: 1,
        unsubscribedAt: unsubscribed.includes(email) ? new Date() : null,
      })),
    )
    .returning({ id: customers.id, email: customers.email });
  return new Map(rows.map((r) => [r.email, r.id]));
}

const tokenIn = (text: string) => {
  const token = new RegExp(`${ctx.config.WEB_ORIGIN}/unsubscribe/([0-9a-f-]{36}\\.[A-Za-z0-9_-]{43})`).exec(
    text,
  )?.[1];
  if (!token) throw new Error(`no unsubscribe link in: ${text}`);
  return token;
};

describe(`updates to buyers (${dbKind})`, () => {
  let creator: { id: string; cookie: string };
  let first: Link;
  let second: Link;
  const a = uniqueEmail("upd-a");
  const b = uniqueEmail("upd-b");
  const c = uniqueEmail("upd-c");

  beforeAll(async () => {
    creator = await accountWithSession(ctx.database, { onboarded: true });
    first = await helpers.newLink(creator.cookie, { title: "First" });
    second = await helpers.newLink(creator.cookie, { title: "Second" });
    await buy(first, a);
    await buy(second, b);
    await buy(first, c);
    await buy(second, c);
  });

  it("sends to every buyer of all links once, in batches, with the unsubscribe link and headers", async () => {
    const update = await sent(creator.cookie);
    expect(update).toMatchObject({ status: "sent", recipients: 3, sent: 3, failed: 0, unsubscribed: 0 });
    expect(update.finishedAt).not.toBeNull();
    for (const to of [a, b, c]) {
      const mails = await updateMails(to);
      expect(mails).toHaveLength(1);
      const [message] = mails;
      if (!message) throw new Error("no mail");
      expect(message.subject).toBe("A new chapter");
      expect(message.text).toContain("See you <soon> & thanks.");
      expect(message.text).toContain("because you bought from Ada");
      // The creator's text is escaped in the HTML and its address made a link.
      expect(message.html).toContain("See you &lt;soon&gt; &amp; thanks.");
      expect(message.html).not.toContain("<soon>");
      expect(message.html).toContain('<a href="https://example.test/chapter-2" target="_blank">');
      const token = tokenIn(message.text);
      expect(message.headers).toEqual({
        "List-Unsubscribe": `<${ctx.config.API_PUBLIC_URL}/updates/unsubscribe/${token}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      });
    }
  });

  it("sends to one link's buyers only; another's link is refused", async () => {
    const update = await sent(creator.cookie, { linkId: first.id, subject: "For First" });
    expect(update).toMatchObject({
      status: "sent",
      recipients: 2,
      sent: 2,
      linkId: first.id,
      linkTitle: "First",
    });
    const subjects = async (to: string) => (await updateMails(to)).map((m) => m.subject);
    expect(await subjects(a)).toContain("For First");
    expect(await subjects(c)).toContain("For First");
    expect(await subjects(b)).not.toContain("For First");

    const other = await accountWithSession(ctx.database, { onboarded: true });
    const refused = await compose(other.cookie, { linkId: first.id });
    expect(refused.statusCode).toBe(404);
    const audience = await inject("GET", `/updates/audience?linkId=${second.id}`, creator.cookie);
    expect(audience.json()).toEqual({ recipients: 2, unsubscribed: 0 });
  });

  it("unsubscribes with a POST only, idempotently, and never e-mails that buyer again", async () => {
    const [message] = await updateMails(b);
    const token = tokenIn(message?.text ?? "");
    // A GET (a mail scanner's prefetch) only describes.
    for (let i = 0; i < 2; i++) {
      const described = await inject("GET", `/updates/unsubscribe/${token}`);
      expect(described.statusCode).toBe(200);
      expect(described.json<UnsubscribeView>()).toEqual({ creator: "Ada", unsubscribed: false });
    }
    // RFC 8058's one-click POST from a mail client, then the page's button: both 200.
    const oneClick = await ctx.app.inject({
      method: "POST",
      url: `/updates/unsubscribe/${token}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    const again = await inject("POST", `/updates/unsubscribe/${token}`);
    expect(again.statusCode).toBe(200);
    expect(again.json<UnsubscribeView>()).toEqual({ creator: "Ada", unsubscribed: true });

    const update = await sent(creator.cookie, { subject: "After b left" });
    expect(update).toMatchObject({ recipients: 3, sent: 2, unsubscribed: 1, failed: 0 });
    expect((await updateMails(b)).map((m) => m.subject)).not.toContain("After b left");
    expect((await updateMails(a)).map((m) => m.subject)).toContain("After b left");
  });

  it("allows UPDATES_PER_DAY updates a rolling day per creator, then 429", async () => {
    // The three tests above sent three.
    const list = await inject("GET", "/updates", creator.cookie);
    expect(list.json<UpdateList>().remainingToday).toBe(0);
    const refused = await compose(creator.cookie);
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused).error).toBe("RateLimitException");
    expect(errorOf(refused).message).toMatch(
      /You can send 3 updates a day. The next one is possible in \d+ h./,
    );
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(23 * 3600);
    // A day later the allowance is back.
    await ctx.database.db
      .update(buyerUpdates)
      .set({ createdAt: sql`${buyerUpdates.createdAt} - interval '25 hours'` })
      .where(eq(buyerUpdates.creatorId, creator.id));
    expect((await compose(creator.cookie)).statusCode).toBe(202);
    await ctx.app.services.jobs.worker.runDue();
  });

  it("lists only the creator's own updates, newest first; another's is a 404", async () => {
    const mine = (await inject("GET", "/updates", creator.cookie)).json<UpdateList>();
    expect(mine.items.length).toBe(4);
    const times = mine.items.map((u) => u.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const other = await accountWithSession(ctx.database, { onboarded: true });
    const theirs = (await inject("GET", "/updates", other.cookie)).json<UpdateList>();
    expect(theirs).toEqual({ items: [], remainingToday: 3 });
    const id = mine.items[0]?.id;
    expect((await inject("GET", `/updates/${id}`, other.cookie)).statusCode).toBe(404);
    expect((await inject("GET", "/updates")).statusCode).toBe(401);
  });

  it("refuses an empty subject and a body over the limit", async () => {
    const other = await accountWithSession(ctx.database, { onboarded: true });
    expect((await compose(other.cookie, { subject: " " })).statusCode).toBe(400);
    expect((await compose(other.cookie, { body: "x".repeat(10_001) })).statusCode).toBe(400);
  });
});

describe(`an update's sending survives crashes and faults (${dbKind})`, () => {
  it("never sends a buyer twice nor skips one when a batch crashes and is run again", async () => {
    const creator = await accountWithSession(ctx.database, { onboarded: true });
    const emails = [1, 2, 3, 4, 5].map((i) => uniqueEmail(`crash-${i}`));
    await insertCustomers(creator.id, emails);
    mail.sends = 0;
    mail.crashAt = 4; // the second send of the second batch
    const res = await compose(creator.cookie);
    expect(res.statusCode).toBe(202);
    const id = res.json<UpdateView>().id;
    await ctx.app.services.jobs.worker.runDue();
    const midway = (await inject("GET", `/updates/${id}`, creator.cookie)).json<UpdateView>();
    // The first batch committed; the second rolled back whole, its first message included.
    expect(midway).toMatchObject({ status: "sending", recipients: 5, sent: BATCH });
    const delivered = async () => (await Promise.all(emails.map(updateMails))).map((m) => m.length);
    expect((await delivered()).reduce((x, y) => x + y)).toBe(BATCH);

    // Restarted, with a second job of the same update running too (another worker), and even from
    // the first address again (a cursor lost): the recorded deliveries keep anyone from a second copy.
    mail.crashAt = null;
    await ctx.database.db.update(buyerUpdates).set({ cursor: null }).where(eq(buyerUpdates.id, id));
    await updateBatchJob.enqueue(ctx.database.db, { updateId: id }, { dedupeKey: `test-duplicate:${id}` });
    await ctx.database.db
      .update(jobs)
      .set({ runAt: sql`now()` })
      .where(and(eq(jobs.kind, "updates.batch"), eq(jobs.status, "queued")));
    await ctx.app.services.jobs.worker.runDue();
    expect(await delivered()).toEqual([1, 1, 1, 1, 1]);
    const done = (await inject("GET", `/updates/${id}`, creator.cookie)).json<UpdateView>();
    expect(done).toMatchObject({ status: "sent", recipients: 5, sent: 5, failed: 0, unsubscribed: 0 });
  });

  it("counts a refused message as failed and goes on; skips and counts the unsubscribed", async () => {
    const creator = await accountWithSession(ctx.database, { onboarded: true });
    const [ok, bad, gone] = [uniqueEmail("ok"), uniqueEmail("bad"), uniqueEmail("gone")];
    await insertCustomers(creator.id, [ok, bad, gone], [gone]);
    mail.refuse.add(bad);
    const update = await sent(creator.cookie);
    mail.refuse.clear();
    expect(update).toMatchObject({ status: "sent", recipients: 3, sent: 1, failed: 1, unsubscribed: 1 });
    expect(await updateMails(ok)).toHaveLength(1);
    expect(await updateMails(gone)).toHaveLength(0);
  });
});

describe(`an update while the provider is down (${dbKind})`, () => {
  it("retries the whole batch later rather than counting everyone as failed", async () => {
    const creator = await accountWithSession(ctx.database, { onboarded: true });
    const emails = [uniqueEmail("down-1"), uniqueEmail("down-2")];
    await insertCustomers(creator.id, emails);
    mail.down = true;
    const update = await sent(creator.cookie);
    expect(update).toMatchObject({ status: "sending", sent: 0, failed: 0 });
    const [job] = await ctx.database.db
      .select({ error: jobs.lastError })
      .from(jobs)
      .where(and(eq(jobs.kind, "updates.batch"), eq(jobs.status, "queued")));
    expect(job?.error).toMatch(/Sending an update's batch failed: connect ECONNREFUSED/);
    mail.down = false;
    await ctx.database.db
      .update(jobs)
      .set({ runAt: sql`now()` })
      .where(and(eq(jobs.kind, "updates.batch"), eq(jobs.status, "queued")));
    await ctx.app.services.jobs.worker.runDue();
    const done = (await inject("GET", `/updates/${update.id}`, creator.cookie)).json<UpdateView>();
    expect(done).toMatchObject({ status: "sent", sent: 2, failed: 0 });
  });
});

describe(`the unsubscribe token (${dbKind})`, () => {
  it("refuses a tampered, a foreign or a malformed token, and changes nothing", async () => {
    const creator = await accountWithSession(ctx.database, { onboarded: true });
    const email = uniqueEmail("token");
    const ids = await insertCustomers(creator.id, [email, uniqueEmail("token-other")]);
    const [id, otherId] = [...ids.values()];
    if (!id || !otherId) throw new Error("no customers");
    const token = unsubscribeToken(ctx.config.appSecret, id);
    const signature = token.split(".")[1] ?? "";
    const flipped = `${signature.slice(0, 10)}${signature[10] === "A" ? "B" : "A"}${signature.slice(11)}`;
    const lastFlipped = `${signature.slice(0, 42)}${signature[42] === "A" ? "B" : "A"}`;
    for (const bad of [
      `${id}.${flipped}`,
      `${id}.${lastFlipped}`,
      // Another customer's id under this one's signature.
      `${otherId}.${signature}`,
      unsubscribeToken("another-secret-of-at-least-32-characters!", id),
    ]) {
      for (const method of ["GET", "POST"] as const) {
        const res = await inject(method, `/updates/unsubscribe/${bad}`);
        expect(res.statusCode, `${method} ${bad}`).toBe(404);
      }
    }
    expect((await inject("POST", "/updates/unsubscribe/not-a-token")).statusCode).toBe(400);
    const [row] = await ctx.database.db
      .select({ at: customers.unsubscribedAt })
      .from(customers)
      .where(eq(customers.id, id));
    expect(row?.at).toBeNull();
    // The real one works, and names no one when the creator has no public profile.
    const res = await inject("POST", `/updates/unsubscribe/${token}`);
    expect(res.json<UnsubscribeView>()).toEqual({ creator: null, unsubscribed: true });
  });
});
