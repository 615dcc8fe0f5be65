import { eq, sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { integer, pgTable, serial, uuid } from "drizzle-orm/pg-core";
import Fastify from "fastify";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { z } from "zod";
import type { Database } from "../../src/db/client.ts";
import * as schema from "../../src/db/schema/index.ts";
import { jobs } from "../../src/db/schema/jobs.ts";
import {
  backoffMs,
  claimJobs,
  defaultBackoff,
  enqueue,
  type JobHandler,
  JobRegistry,
  jobKind,
  jobsPlugin,
  lockClaimedJob,
  recordJobFailure,
  Worker,
  type WorkerOptions,
} from "../../src/jobs/index.ts";
import { dbKind, testDatabase } from "../support/app.ts";

/** A table only these tests write, standing for the database effects of a real job. */
const effects = pgTable("job_effects", {
  id: serial("id").primaryKey(),
  jobId: uuid("job_id").notNull(),
  n: integer("n").notNull(),
});

const logger = pino({ level: process.env.JOBS_TEST_LOG ?? "silent" });
const effectJob = jobKind("test.effect", z.object({ n: z.number().int() }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let database: Database & { url?: string };

beforeAll(async () => {
  database = await testDatabase();
  // No unique constraint on job_id on purpose: a job run twice must show up as two rows.
  await database.db.execute(
    sql`CREATE TABLE job_effects (id serial PRIMARY KEY, job_id uuid NOT NULL, n integer NOT NULL)`,
  );
});

afterAll(async () => {
  await database.close();
});

beforeEach(async () => {
  await database.db.delete(effects);
  await database.db.delete(jobs);
});

/** A handler writing one effect row, optionally failing after it. */
function effectHandler(options: { failFirst?: number; delayMs?: number } = {}) {
  const calls: number[] = [];
  const handler: JobHandler<{ n: number }> = async (tx, payload, job) => {
    calls.push(job.attempts);
    await tx.insert(effects).values({ jobId: job.id, n: payload.n });
    if (options.delayMs) await sleep(options.delayMs);
    if (calls.length <= (options.failFirst ?? 0)) throw new Error(`boom ${calls.length}`);
  };
  return { handler, calls };
}

/** A promise the test resolves by hand; it opens anyway when the test ends, failed or not, so no
 * handler is left holding a transaction open and the database can close. */
function latch() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  onTestFinished(() => open());
  return { open, opened };
}

function makeWorker(registry: JobRegistry, options: Partial<WorkerOptions> = {}): Worker {
  return new Worker({ db: database.db, registry, logger, pollMs: 20, concurrency: 4, ...options });
}

async function jobRow(id: string | null) {
  if (!id) throw new Error("no job id");
  const [row] = await database.db.select().from(jobs).where(eq(jobs.id, id));
  if (!row) throw new Error(`job ${id} not found`);
  return row;
}

async function effectRows() {
  return database.db.select().from(effects);
}

/** Makes a rescheduled job due now, instead of waiting out its backoff. */
async function makeDue(id: string | null) {
  if (!id) throw new Error("no job id");
  await database.db.update(jobs).set({ runAt: sql`now()` }).where(eq(jobs.id, id));
}

/** Milliseconds from the database's now to the job's run_at. */
async function delayOf(id: string | null): Promise<number> {
  if (!id) throw new Error("no job id");
  const [row] = await database.db
    .select({ ms: sql<number>`(extract(epoch from (${jobs.runAt} - now())) * 1000)::float8` })
    .from(jobs)
    .where(eq(jobs.id, id));
  return Number(row?.ms);
}

describe(`jobs on ${dbKind}`, () => {
  it("runs an enqueued job and marks it done with its effect", async () => {
    const { handler, calls } = effectHandler();
    const worker = makeWorker(new JobRegistry().register(effectJob, handler));
    const id = await effectJob.enqueue(database.db, { n: 42 });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    expect(await worker.runDue()).toBe(1);

    expect(calls).toEqual([1]);
    const row = await jobRow(id);
    expect(row).toMatchObject({
      status: "done",
      attempts: 1,
      lastError: null,
      lockedBy: null,
      lockedUntil: null,
    });
    expect(row.finishedAt).toBeInstanceOf(Date);
    expect(await effectRows()).toMatchObject([{ jobId: id, n: 42 }]);
    expect(await worker.runDue()).toBe(0);
  });

  it("leaves a job scheduled in the future alone", async () => {
    const { handler, calls } = effectHandler();
    const worker = makeWorker(new JobRegistry().register(effectJob, handler));
    const id = await effectJob.enqueue(database.db, { n: 1 }, { runAt: new Date(Date.now() + 60_000) });

    expect(await worker.runDue()).toBe(0);
    expect(calls).toEqual([]);
    expect(await jobRow(id)).toMatchObject({ status: "queued", attempts: 0 });
  });

  it("enqueues once per dedupe key", async () => {
    const first = await effectJob.enqueue(database.db, { n: 1 }, { dedupeKey: "order:1:release" });
    const second = await effectJob.enqueue(database.db, { n: 2 }, { dedupeKey: "order:1:release" });
    const other = await effectJob.enqueue(database.db, { n: 3 }, { dedupeKey: "order:2:release" });

    expect(first).not.toBeNull();
    expect(second).toBeNull();
    expect(other).not.toBeNull();
    const rows = await database.db.select().from(jobs);
    expect(
      rows.map((r) => r.payload).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    ).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it("enqueues inside the caller's transaction and checks the payload first", async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await enqueue(tx, { kind: "test.effect", payload: { n: 1 } });
        throw new Error("caller rolls back");
      }),
    ).rejects.toThrow("caller rolls back");
    // @ts-expect-error the payload type comes from the schema
    await expect(effectJob.enqueue(database.db, { n: "one" })).rejects.toThrow();

    expect(await database.db.select().from(jobs)).toEqual([]);
  });

  it("commits a handler's effects together with the done mark, or neither", async () => {
    const { handler, calls } = effectHandler({ failFirst: 1 });
    const worker = makeWorker(new JobRegistry().register(effectJob, handler));
    const id = await effectJob.enqueue(database.db, { n: 7 });

    expect(await worker.runDue()).toBe(1);

    expect(await effectRows()).toEqual([]);
    const failed = await jobRow(id);
    expect(failed).toMatchObject({
      status: "queued",
      attempts: 1,
      lastError: "boom 1",
      lockedBy: null,
      lockedUntil: null,
    });
    expect(await delayOf(id)).toBeGreaterThan(0);
    expect(await worker.runDue()).toBe(0);

    await makeDue(id);
    expect(await worker.runDue()).toBe(1);

    expect(calls).toEqual([1, 2]);
    expect(await effectRows()).toMatchObject([{ jobId: id, n: 7 }]);
    expect(await jobRow(id)).toMatchObject({ status: "done", attempts: 2, lockedBy: null });
  });

  it("fails a payload that does not match its schema without writing the payload anywhere", async () => {
    const { handler, calls } = effectHandler();
    const worker = makeWorker(new JobRegistry().register(effectJob, handler));
    const id = await enqueue(database.db, { kind: "test.effect", payload: { n: "secret-4111111111111111" } });

    expect(await worker.runDue()).toBe(1);

    expect(calls).toEqual([]);
    const row = await jobRow(id);
    expect(row).toMatchObject({ status: "queued", attempts: 1 });
    expect(row.lastError).toMatch(/^Invalid payload: n: /);
    expect(row.lastError).not.toContain("4111");
  });

  it("retries a job of a kind this worker has no handler for", async () => {
    const worker = makeWorker(new JobRegistry());
    const id = await enqueue(database.db, { kind: "test.unknown", payload: {} });

    expect(await worker.runDue()).toBe(1);

    expect(await jobRow(id)).toMatchObject({
      status: "queued",
      attempts: 1,
      lastError: 'No handler registered for job kind "test.unknown"',
    });
  });

  it("backs off exponentially, with bounded jitter, up to a cap", () => {
    const options = { baseMs: 1000, maxMs: 60_000, jitter: 0.25 };
    expect(backoffMs(1, options, () => 0)).toBe(2000);
    expect(backoffMs(1, options, () => 1)).toBe(1500);
    expect(backoffMs(3, options, () => 0)).toBe(8000);
    expect(backoffMs(20, options, () => 0)).toBe(60_000);
    expect(backoffMs(10_000, options, () => 0.5)).toBe(52_500);
    for (let attempts = 1; attempts < 5; attempts++) {
      // The longest delay of one attempt is shorter than the shortest of the next.
      expect(backoffMs(attempts, options, () => 0)).toBeLessThan(backoffMs(attempts + 1, options, () => 1));
    }
    expect(defaultBackoff.maxMs).toBe(3_600_000);
  });

  it("reschedules each failed attempt further out", async () => {
    const registry = new JobRegistry().register(effectJob, async () => {
      throw new Error("provider down");
    });
    const worker = makeWorker(registry);
    const id = await effectJob.enqueue(database.db, { n: 1 }, { maxAttempts: 10 });

    const delays: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect(await worker.runDue()).toBe(1);
      const delay = await delayOf(id);
      // Default backoff: 1 s × 2^attempts, minus up to 25% jitter; a little time passes before we look.
      expect(delay).toBeLessThanOrEqual(1000 * 2 ** attempt);
      expect(delay).toBeGreaterThan(1000 * 2 ** attempt * 0.75 - 500);
      delays.push(delay);
      await makeDue(id);
    }
    expect([...delays].sort((a, b) => a - b)).toEqual(delays);
    expect(await jobRow(id)).toMatchObject({ status: "queued", attempts: 4, lastError: "provider down" });
  });

  it("fails a job for good after max attempts", async () => {
    const calls: number[] = [];
    const registry = new JobRegistry().register(effectJob, async (_tx, _payload, job) => {
      calls.push(job.attempts);
      throw new Error(`attempt ${job.attempts} failed`);
    });
    const worker = makeWorker(registry);
    const id = await effectJob.enqueue(database.db, { n: 1 }, { maxAttempts: 3 });

    for (let i = 0; i < 3; i++) {
      expect(await worker.runDue()).toBe(1);
      await makeDue(id);
    }

    expect(calls).toEqual([1, 2, 3]);
    const row = await jobRow(id);
    expect(row).toMatchObject({
      status: "failed",
      attempts: 3,
      lastError: "attempt 3 failed",
      lockedBy: null,
    });
    expect(row.finishedAt).toBeInstanceOf(Date);
    expect(await worker.runDue()).toBe(0);
  });

  it("fails instead of running a job whose earlier attempts all crashed", async () => {
    const { handler, calls } = effectHandler();
    const worker = makeWorker(new JobRegistry().register(effectJob, handler));
    const id = await effectJob.enqueue(database.db, { n: 1 }, { maxAttempts: 2 });
    // Two claims whose workers died mid-job: attempts counted, leases long expired.
    await database.db
      .update(jobs)
      .set({ attempts: 2, lockedBy: "dead-worker#2", lockedUntil: sql`now() - interval '1 minute'` })
      .where(eq(jobs.id, id ?? ""));

    expect(await worker.runDue()).toBe(1);

    expect(calls).toEqual([]);
    expect(await effectRows()).toEqual([]);
    expect(await jobRow(id)).toMatchObject({
      status: "failed",
      attempts: 3,
      lastError: "Gave up after 2 attempts that never completed",
    });
  });

  it("runs each of 20 jobs exactly once with two workers side by side", async () => {
    const { handler, calls } = effectHandler({ delayMs: 5 });
    const registry = new JobRegistry().register(effectJob, handler);
    const ids = new Set<string | null>();
    for (let n = 0; n < 20; n++) ids.add(await effectJob.enqueue(database.db, { n }));
    const first = makeWorker(registry);
    const second = makeWorker(registry);

    const claimed = await Promise.all([first.runDue(), second.runDue()]);

    expect(claimed[0] + claimed[1]).toBe(20);
    expect(calls).toHaveLength(20);
    const rows = await effectRows();
    expect(rows).toHaveLength(20);
    expect(new Set(rows.map((r) => r.jobId))).toEqual(ids);
    const states = await database.db.select({ status: jobs.status, attempts: jobs.attempts }).from(jobs);
    expect(states).toHaveLength(20);
    expect(states.every((s) => s.status === "done" && s.attempts === 1)).toBe(true);
  });

  it("takes over a job whose lease expired, and the old claim can no longer touch it", async () => {
    const { handler, calls } = effectHandler();
    const worker = makeWorker(new JobRegistry().register(effectJob, handler));
    const id = await effectJob.enqueue(database.db, { n: 5 });
    const [stale] = await claimJobs(database.db, { token: "dead-worker#1", limit: 10, leaseMs: 60_000 });
    expect(stale?.id).toBe(id);

    // Leased to a worker that never reports back: untouchable until the lease runs out.
    expect(await worker.runDue()).toBe(0);
    await database.db
      .update(jobs)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(jobs.id, id ?? ""));
    expect(await worker.runDue()).toBe(1);

    expect(calls).toEqual([2]);
    expect(await effectRows()).toHaveLength(1);
    expect(await jobRow(id)).toMatchObject({ status: "done", attempts: 2 });
    const staleClaim = { id: id ?? "", token: "dead-worker#1" };
    expect(await database.db.transaction((tx) => lockClaimedJob(tx, staleClaim))).toBe(false);
    expect(await recordJobFailure(database.db, { ...staleClaim, error: "late", retryInMs: 1000 })).toBe(
      false,
    );
    expect(await jobRow(id)).toMatchObject({ status: "done", lastError: null });
  });

  // PGlite has a single connection: a second transaction, or any statement, waits for the open one.
  it.skipIf(dbKind !== "postgres")(
    "neither waits for nor claims a job whose transaction is still open",
    async () => {
      const { open: release, opened: gate } = latch();
      const { open: started, opened: inHandler } = latch();
      const calls: number[] = [];
      const registry = new JobRegistry().register(effectJob, async (tx, payload, job) => {
        calls.push(payload.n);
        await tx.insert(effects).values({ jobId: job.id, n: payload.n });
        if (payload.n === 1) {
          started();
          await gate;
        }
      });
      const slow = await effectJob.enqueue(database.db, { n: 1 });
      const slowWorker = makeWorker(registry, { leaseMs: 50 });
      const running = slowWorker.runDue();
      await inHandler;
      await sleep(150); // its lease is over, but its transaction still holds the row
      const quick = await effectJob.enqueue(database.db, { n: 2 });

      const other = makeWorker(registry);
      const timeout = sleep(3000).then(() => "blocked" as const);
      expect(await Promise.race([other.runDue(), timeout])).toBe(1);
      release();
      await running;

      expect(calls.sort()).toEqual([1, 2]);
      expect(await jobRow(slow)).toMatchObject({ status: "done", attempts: 1 });
      expect(await jobRow(quick)).toMatchObject({ status: "done", attempts: 1 });
    },
  );

  it.skipIf(dbKind !== "postgres")(
    "skips a job another worker took over while it waited for a connection",
    async () => {
      // The other worker's first attempt fails, so the job is queued again and free when the
      // starved worker finally gets to it: only the claim token tells it the job is not its own.
      const { handler, calls } = effectHandler({ failFirst: 1 });
      const { open: release, opened: gate } = latch();
      const { open: started, opened: inHandler } = latch();
      const starvedCalls: string[] = [];
      // Whichever of its two jobs the starved worker starts first holds its only connection until
      // the test lets go.
      const starvedRegistry = new JobRegistry().register(effectJob, async (tx, payload, job) => {
        starvedCalls.push(job.id);
        await tx.insert(effects).values({ jobId: job.id, n: payload.n });
        if (starvedCalls.length === 1) {
          started();
          await gate;
        }
      });
      // One connection for two claimed jobs: the second waits for it while the first runs, long
      // enough for its lease to expire and another worker to take it.
      if (!database.url) throw new Error("this test needs PostgreSQL");
      // A one-connection pool of its own; the database is already migrated.
      const starvedPool = new pg.Pool({ connectionString: database.url, max: 1 });
      const starved = drizzleNodePg(starvedPool, { schema });
      const first = new Worker({
        db: starved,
        registry: starvedRegistry,
        logger,
        concurrency: 2,
        leaseMs: 100,
      });
      const other = makeWorker(new JobRegistry().register(effectJob, handler));
      let running: Promise<number> = Promise.resolve(0);
      try {
        const ids = [
          await effectJob.enqueue(database.db, { n: 1 }),
          await effectJob.enqueue(database.db, { n: 2 }),
        ];
        running = first.runDue();
        await inHandler;
        await sleep(200); // both of its leases are over

        expect(await other.runDue()).toBe(1);
        release();
        expect(await running).toBe(2);

        expect(starvedCalls).toHaveLength(1);
        const taken = ids.find((id) => id !== starvedCalls[0]) ?? null;
        expect(await jobRow(taken)).toMatchObject({ status: "queued", attempts: 2, lastError: "boom 1" });
        expect(await effectRows()).toHaveLength(1);

        await makeDue(taken);
        expect(await other.runDue()).toBe(1);
        expect(calls).toEqual([2, 3]);
        expect(await effectRows()).toHaveLength(2);
        const rows = await Promise.all(ids.map(jobRow));
        expect(rows.map((r) => `${r.status}@${r.attempts}`).sort()).toEqual(["done@1", "done@3"]);
      } finally {
        release(); // before stop(), which waits for the handler held by the gate
        await first.stop();
        await running.catch(() => 0);
        await starvedPool.end();
      }
    },
  );

  it("picks up work when poked, without waiting for the next poll", async () => {
    const { handler } = effectHandler();
    const worker = makeWorker(new JobRegistry().register(effectJob, handler), { pollMs: 60_000 });
    worker.start();
    try {
      await sleep(50); // the first, empty poll
      const id = await effectJob.enqueue(database.db, { n: 1 });
      worker.poke();
      await vi.waitFor(async () => expect((await jobRow(id)).status).toBe("done"), {
        timeout: 5000,
        interval: 20,
      });
    } finally {
      await worker.stop();
    }
  });

  it("runs no more jobs at once than its concurrency", async () => {
    let running = 0;
    let peak = 0;
    const registry = new JobRegistry().register(effectJob, async () => {
      running++;
      peak = Math.max(peak, running);
      await sleep(50);
      running--;
    });
    const worker = makeWorker(registry, { concurrency: 3 });
    for (let n = 0; n < 9; n++) await effectJob.enqueue(database.db, { n });
    worker.start();
    try {
      await vi.waitFor(
        async () => {
          const rows = await database.db.select({ status: jobs.status }).from(jobs);
          expect(rows.every((r) => r.status === "done")).toBe(true);
        },
        { timeout: 10_000, interval: 50 },
      );
    } finally {
      await worker.stop();
    }
    expect(peak).toBeLessThanOrEqual(3);
    // PGlite has one connection, so its transactions, and the handlers in them, take turns.
    if (dbKind === "postgres") expect(peak).toBeGreaterThan(1);
  });

  it("stop() waits for the job in flight, then claims nothing more", async () => {
    const { open: release, opened: gate } = latch();
    const { open: started, opened: inHandler } = latch();
    const registry = new JobRegistry().register(effectJob, async (tx, payload, job) => {
      await tx.insert(effects).values({ jobId: job.id, n: payload.n });
      started();
      await gate;
    });
    const worker = makeWorker(registry);
    const id = await effectJob.enqueue(database.db, { n: 1 });
    worker.start();
    await inHandler;

    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    });
    await sleep(150);
    expect(stopped).toBe(false);
    release();
    await stopping;

    expect(await jobRow(id)).toMatchObject({ status: "done", attempts: 1 });
    expect(await effectRows()).toHaveLength(1);
    const later = await effectJob.enqueue(database.db, { n: 2 });
    await sleep(150);
    expect(await jobRow(later)).toMatchObject({ status: "queued", attempts: 0 });
    expect(() => worker.start()).toThrow(/stopped/);
  });

  it("starts with the app when enabled and stops with it", async () => {
    const { handler } = effectHandler();
    const worker = makeWorker(new JobRegistry().register(effectJob, handler));
    const id = await effectJob.enqueue(database.db, { n: 1 });
    const app = Fastify({ logger: false });
    await app.register(jobsPlugin, { worker, enabled: true });
    await app.ready();

    await vi.waitFor(async () => expect((await jobRow(id)).status).toBe("done"), {
      timeout: 5000,
      interval: 20,
    });
    await app.close();
    expect(() => worker.start()).toThrow(/stopped/);

    const idle = makeWorker(new JobRegistry().register(effectJob, handler));
    const queued = await effectJob.enqueue(database.db, { n: 2 });
    const disabled = Fastify({ logger: false });
    await disabled.register(jobsPlugin, { worker: idle, enabled: false });
    await disabled.ready();
    await sleep(100);
    await disabled.close();
    expect(await jobRow(queued)).toMatchObject({ status: "queued", attempts: 0 });
  });
});
