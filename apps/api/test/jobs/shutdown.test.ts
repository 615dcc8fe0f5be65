import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Database, Db } from "../../src/db/client.ts";
import { jobs } from "../../src/db/schema/index.ts";
import { JobRegistry, jobKind, Worker } from "../../src/jobs/index.ts";
import { dbKind, testDatabase } from "../support/app.ts";

/*
 * What the worker does with its claims when the process shuts down: a job whose transaction has
 * not begun is handed back uncounted, a lease it holds on a job it is not running is ended, and a
 * job already running is waited for. Transactions are held at a gate, as a busy pool would hold them.
 */

let database: Database;
const silent = {
  level: "silent",
  fatal() {},
  error() {},
  warn() {},
  info() {},
  debug() {},
  trace() {},
  silent() {},
  child() {
    return silent;
  },
};

beforeAll(async () => {
  database = await testDatabase();
}, 180_000);
afterAll(async () => {
  await database?.close();
});

/** The database, whose transactions wait until open() is called (a pool with no free connection). */
function gatedDb(db: Db) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let waiting = 0;
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== "transaction") return Reflect.get(target, prop, receiver);
      return async (...args: Parameters<Db["transaction"]>) => {
        waiting += 1;
        await gate;
        return target.transaction(...args);
      };
    },
  });
  return { db: proxy, open, waiting: () => waiting };
}

const rowsOf = (ids: string[]) =>
  database.db
    .select({ id: jobs.id, status: jobs.status, attempts: jobs.attempts, lockedBy: jobs.lockedBy })
    .from(jobs)
    .where(inArray(jobs.id, ids));

async function until(probe: () => boolean | Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe(`jobs worker shutdown (${dbKind})`, () => {
  it("hands back claimed jobs that never started, uncounted, and ends its other leases", async () => {
    const kind = jobKind("test.shutdown", z.object({ n: z.number() }));
    const ran: number[] = [];
    const registry = new JobRegistry();
    registry.register(kind, async (_tx, payload) => {
      ran.push(payload.n);
    });
    const gated = gatedDb(database.db);
    const outcomes: string[] = [];
    const worker = new Worker({
      db: gated.db,
      registry,
      logger: silent,
      pollMs: 50,
      concurrency: 2,
      onRunEnd: (_kind, outcome) => outcomes.push(outcome),
    });
    const a = await kind.enqueue(database.db, { n: 1 });
    const b = await kind.enqueue(database.db, { n: 2 });
    if (!a || !b) throw new Error("not queued");

    worker.start();
    await until(() => gated.waiting() === 2);
    const claimed = await rowsOf([a, b]);
    expect(claimed.every((r) => r.lockedBy?.startsWith(`${worker.id}#`) && r.attempts === 1)).toBe(true);

    // A lease of this worker's on a job it is not running, and one of another worker's.
    const [mine, theirs] = await database.db
      .insert(jobs)
      .values([
        {
          kind: kind.kind,
          payload: { n: 3 },
          attempts: 1,
          lockedBy: `${worker.id}#77`,
          lockedUntil: new Date(Date.now() + 3_600_000),
        },
        {
          kind: kind.kind,
          payload: { n: 4 },
          attempts: 1,
          lockedBy: "elsewhere#1",
          lockedUntil: new Date(Date.now() + 3_600_000),
        },
      ])
      .returning({ id: jobs.id });
    if (!mine || !theirs) throw new Error("not inserted");

    const stopped = worker.stop();
    gated.open();
    await stopped;

    expect(ran).toEqual([]);
    expect(outcomes).toEqual(["released", "released"]);
    const after = new Map((await rowsOf([a, b, mine.id, theirs.id])).map((r) => [r.id, r]));
    expect(after.get(a)).toMatchObject({ status: "queued", attempts: 0, lockedBy: null });
    expect(after.get(b)).toMatchObject({ status: "queued", attempts: 0, lockedBy: null });
    expect(after.get(mine.id)).toMatchObject({ status: "queued", attempts: 1, lockedBy: null });
    expect(after.get(theirs.id)).toMatchObject({ lockedBy: "elsewhere#1" });
    await database.db.delete(jobs).where(inArray(jobs.id, [a, b, mine.id, theirs.id]));
  });

  it("waits for a job already running and lets it finish", async () => {
    const kind = jobKind("test.shutdown-running", z.object({}));
    let finish!: () => void;
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    const registry = new JobRegistry();
    registry.register(kind, async () => {
      markStarted();
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
    });
    const worker = new Worker({ db: database.db, registry, logger: silent, pollMs: 50, concurrency: 1 });
    const id = await kind.enqueue(database.db, {});
    if (!id) throw new Error("not queued");
    worker.start();
    await started;
    let stopDone = false;
    const stopping = worker.stop().then(() => {
      stopDone = true;
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(stopDone).toBe(false);
    finish();
    await stopping;
    expect((await rowsOf([id]))[0]).toMatchObject({ status: "done", lockedBy: null });
  });
});
