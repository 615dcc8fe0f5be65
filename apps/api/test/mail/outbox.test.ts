import { eq, sql } from "drizzle-orm";
import Fastify, { type FastifyInstance } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { jobs } from "../../src/db/schema/jobs.ts";
import { mailOutbox } from "../../src/db/schema/mail.ts";
import { JobRegistry, Worker } from "../../src/jobs/index.ts";
import { mailSendJob, queueMail, registerMailJobs } from "../../src/modules/mail/jobs.ts";
import { getOutboxMessage, listOutbox } from "../../src/modules/mail/queries.ts";
import { devMailEnabled, devMailRoutes } from "../../src/modules/mail/routes.ts";
import { registerErrorHandler } from "../../src/plugins/error-handler.ts";
import {
  type MailProvider,
  OutboxMailProvider,
  type OutgoingMail,
  type SendOptions,
} from "../../src/providers/mail/index.ts";
import { testConfig, testDatabase } from "../support/app.ts";

let database: Database;

beforeAll(async () => {
  database = await testDatabase();
});

afterAll(async () => {
  await database.close();
});

beforeEach(async () => {
  await database.db.delete(mailOutbox);
  await database.db.delete(jobs);
});

const message = (to: string, subject: string): OutgoingMail => ({
  to,
  subject,
  text: `Hello\n\nhttps://app.salelink.test/${subject}?t=1\n`,
  html: `<p>Hello <a href="https://app.salelink.test/${subject}?t=1">here</a></p>`,
  template: "verify-email",
  locale: "fr",
});

function worker(provider: MailProvider = new OutboxMailProvider(database.db)) {
  const registry = new JobRegistry();
  registerMailJobs(registry, { mail: provider });
  return new Worker({ db: database.db, registry, logger: pino({ level: "silent" }) });
}

describe("the outbox provider", () => {
  it("stores every message and lists them newest first, for everyone or one recipient", async () => {
    const outbox = new OutboxMailProvider(database.db);
    // PGlite's clock ticks in milliseconds: three sends in one tick would tie on created_at.
    const tick = () => new Promise((resolve) => setTimeout(resolve, 3));
    const first = await outbox.send(message("Ana@Example.test", "one"));
    await tick();
    const second = await outbox.send(message("bob@example.test", "two"));
    await tick();
    const third = await outbox.send(message("ana@example.test", "three"));
    expect(outbox.kind).toBe("outbox");

    const all = await listOutbox(database.db, { limit: 10 });
    expect(all.map((m) => m.id)).toEqual([third.messageId, second.messageId, first.messageId]);
    expect(all[0]).toMatchObject({
      to: "ana@example.test",
      subject: "three",
      template: "verify-email",
      locale: "fr",
    });

    const anas = await listOutbox(database.db, { limit: 10, to: "ANA@example.test" });
    expect(anas.map((m) => m.subject)).toEqual(["three", "one"]);
    expect(await listOutbox(database.db, { limit: 1 })).toHaveLength(1);

    const stored = await getOutboxMessage(database.db, second.messageId);
    expect(stored).toMatchObject({ ...message("bob@example.test", "two"), id: second.messageId });
    expect(await getOutboxMessage(database.db, "00000000-0000-4000-8000-000000000000")).toBeNull();
  });

  it("writes through the transaction it is given, so a rollback leaves nothing", async () => {
    const outbox = new OutboxMailProvider(database.db);
    await expect(
      database.db.transaction(async (tx) => {
        await outbox.send(message("ana@example.test", "rolled-back"), { db: tx });
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await listOutbox(database.db, { limit: 10 })).toEqual([]);
  });
});

describe("the mail.send job", () => {
  const reset = {
    to: "ana@example.test",
    template: "reset-password",
    locale: "es",
    params: { url: "https://app.salelink.test/reset?token=s3cret", expiresInHours: 2 },
  } as const;

  it("is queued with the caller's transaction: no commit, no e-mail", async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await queueMail(tx, reset);
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await database.db.select().from(jobs)).toEqual([]);
  });

  it("refuses a bad payload when queued, not later in the worker", async () => {
    await expect(
      queueMail(database.db, { ...reset, params: { url: "javascript:alert(1)", expiresInHours: 2 } }),
    ).rejects.toThrow();
    await expect(queueMail(database.db, { ...reset, to: "not an address" })).rejects.toThrow();
    expect(await database.db.select().from(jobs)).toEqual([]);
  });

  it("delivers through the provider exactly once when run by a worker", async () => {
    const sent: OutgoingMail[] = [];
    const outbox = new OutboxMailProvider(database.db);
    const counting: MailProvider = {
      kind: "outbox",
      send: (m: OutgoingMail, options?: SendOptions) => {
        sent.push(m);
        return outbox.send(m, options);
      },
    };
    const jobId = await database.db.transaction((tx) => queueMail(tx, reset, { dedupeKey: "reset:1" }));
    expect(jobId).not.toBeNull();
    // The same key again (a double click) queues nothing.
    expect(await queueMail(database.db, reset, { dedupeKey: "reset:1" })).toBeNull();

    const w = worker(counting);
    expect(await w.runDue()).toBe(1);
    expect(await w.runDue()).toBe(0);

    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: reset.to, template: "reset-password", locale: "es" });
    expect(sent[0]?.subject).toBe("Restablece tu contraseña de Salelink");
    const stored = await listOutbox(database.db, { limit: 10 });
    expect(stored).toHaveLength(1);
    expect(stored[0]?.text).toContain(reset.params.url);
    expect(stored[0]?.text).toContain("2 horas");

    const [row] = await database.db.select().from(jobs).where(eq(jobs.kind, mailSendJob.kind));
    expect(row).toMatchObject({ id: jobId, status: "done", attempts: 1, lastError: null });
    // The done row no longer holds the live link.
    expect(row?.payload).toEqual({ to: reset.to, template: "reset-password", locale: "es" });
  });

  it("stores nothing when the job's transaction fails after the send, and sends once on the retry", async () => {
    // A trigger standing for anything that fails after the send: the done mark, the commit.
    await database.db.execute(sql`
      create or replace function mail_test_fail() returns trigger language plpgsql as $$
      begin raise exception 'commit failed'; end $$`);
    await database.db.execute(
      sql`create trigger mail_test_fail before update on jobs for each row when (new.status = 'done') execute function mail_test_fail()`,
    );
    onTestFinished(async () => {
      await database.db.execute(sql`drop trigger if exists mail_test_fail on jobs`);
    });
    await queueMail(database.db, reset);
    const failing = worker();
    await failing.runDue();
    const [failed] = await database.db.select().from(jobs);
    expect(failed).toMatchObject({ status: "queued", attempts: 1, lastError: expect.any(String) });
    expect(failed?.payload).toMatchObject({ params: reset.params });
    expect(await listOutbox(database.db, { limit: 10 })).toEqual([]);

    await database.db.execute(sql`drop trigger mail_test_fail on jobs`);
    // Due again now rather than after the backoff.
    await database.db.update(jobs).set({ runAt: sql`now()` });
    await worker().runDue();
    expect(await listOutbox(database.db, { limit: 10 })).toHaveLength(1);
    expect((await database.db.select().from(jobs))[0]?.status).toBe("done");
  });
});

describe("the dev mail routes", () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(app);
    await app.register(devMailRoutes, { db: database.db });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
  });

  it("list the messages with their links, newest first, filtered by recipient", async () => {
    await queueMail(database.db, {
      to: "ana@example.test",
      template: "verify-email",
      locale: "fr",
      params: { url: "https://app.salelink.test/verify?token=v1" },
    });
    await worker().runDue();
    const outbox = new OutboxMailProvider(database.db);
    const later = await outbox.send(message("bob@example.test", "later"));

    const res = await app.inject({ method: "GET", url: "/dev/mail" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.json();
    expect(body.messages).toHaveLength(2);
    expect(body.messages[0]).toMatchObject({ id: later.messageId, to: "bob@example.test" });
    expect(body.messages[1]).toEqual({
      id: expect.any(String),
      to: "ana@example.test",
      subject: "Confirmez votre adresse e-mail",
      template: "verify-email",
      locale: "fr",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      links: ["https://app.salelink.test/verify?token=v1"],
    });

    const filtered = await app.inject({ method: "GET", url: "/dev/mail?to=Ana%40example.test&limit=5" });
    expect(filtered.json().messages.map((m: { to: string }) => m.to)).toEqual(["ana@example.test"]);
    expect((await app.inject({ method: "GET", url: "/dev/mail?limit=0" })).statusCode).toBe(400);
  });

  it("answer one message in full, 404 for an unknown id and 400 for a malformed one", async () => {
    const { messageId } = await new OutboxMailProvider(database.db).send(message("ana@example.test", "full"));
    const res = await app.inject({ method: "GET", url: `/dev/mail/${messageId}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: messageId,
      subject: "full",
      html: message("ana@example.test", "full").html,
      text: message("ana@example.test", "full").text,
      links: ["https://app.salelink.test/full?t=1"],
    });
    const missing = await app.inject({
      method: "GET",
      url: "/dev/mail/00000000-0000-4000-8000-000000000000",
    });
    expect(missing.statusCode).toBe(404);
    expect((await app.inject({ method: "GET", url: "/dev/mail/nope" })).statusCode).toBe(400);
  });

  it("are meant for the outbox, when DEV_ROUTES turns them on (platform/dev-routes.test.ts: production refuses it)", () => {
    expect(devMailEnabled(testConfig({ DEV_ROUTES: "true" }))).toBe(true);
    expect(devMailEnabled(testConfig({ DEV_ROUTES: "false" }))).toBe(false);
    expect(devMailEnabled({ DEV_ROUTES: true, mail: { MAIL_PROVIDER: "smtp" } })).toBe(false);
  });
});
