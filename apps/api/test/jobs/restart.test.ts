import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq, sql } from "drizzle-orm";
import { integer, pgTable, serial, uuid } from "drizzle-orm/pg-core";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { Database } from "../../src/db/client.ts";
import { jobs } from "../../src/db/schema/jobs.ts";
import { JobRegistry, jobKind, Worker } from "../../src/jobs/index.ts";
import { testDatabase } from "../support/app.ts";

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fixture = path.join("test", "fixtures", "jobs-worker.ts");
/** Short enough to wait out in a test, long enough to still hold while we look right after the kill. */
const CHILD_LEASE_MS = 4000;

const effects = pgTable("job_effects", {
  id: serial("id").primaryKey(),
  jobId: uuid("job_id").notNull(),
  n: integer("n").notNull(),
});
const slowJob = jobKind("test.slow", z.object({ n: z.number().int() }));

/** Resolves with the child's output once it contains `text`; rejects if the child exits or time runs out. */
function waitForOutput(child: ChildProcess, text: string, timeoutMs: number): Promise<void> {
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child never printed "${text}":\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`child exited (${code}) before printing "${text}":\n${output}`));
    });
  });
}

describe.skipIf(!process.env.DATABASE_URL)("a worker killed in the middle of a job", () => {
  let database: Database & { url?: string };
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    database = await testDatabase();
    await database.db.execute(
      sql`CREATE TABLE job_effects (id serial PRIMARY KEY, job_id uuid NOT NULL, n integer NOT NULL)`,
    );
  });

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await database.close();
  });

  it("leaves no effect and the job queued, and a later worker runs it exactly once", async () => {
    const id = await slowJob.enqueue(database.db, { n: 9 });
    if (!id) throw new Error("job not enqueued");

    child = spawn(process.execPath, ["--import", "tsx", fixture], {
      cwd: apiDir,
      env: { ...process.env, DATABASE_URL: database.url, JOBS_LEASE_MS: String(CHILD_LEASE_MS) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const childPid = child.pid;
    await waitForOutput(child, `in-handler ${id}`, 15_000);
    // The child's handler has inserted its effect row and sits inside the open transaction.
    child.kill("SIGKILL");
    await once(child, "exit");

    expect(await database.db.select().from(effects)).toEqual([]);
    const [orphan] = await database.db.select().from(jobs).where(eq(jobs.id, id));
    expect(orphan).toMatchObject({ status: "queued", attempts: 1, finishedAt: null });
    expect(orphan?.lockedBy).toContain(`:${childPid}:`);

    const ran: number[] = [];
    const registry = new JobRegistry().register(slowJob, async (tx, payload, job) => {
      ran.push(job.attempts);
      await tx.insert(effects).values({ jobId: job.id, n: payload.n });
    });
    const worker = new Worker({ db: database.db, registry, logger: pino({ level: "silent" }) });

    // The dead child's lease still holds: nobody can tell a dead worker from a slow one before it ends.
    expect(await worker.runDue()).toBe(0);
    // We wait the child's short lease out rather than moving locked_until into the past, so the job
    // comes back the way it does in production: by its lease expiring (and the server having
    // dropped the killed session, which released its row lock and rolled its transaction back).
    await vi.waitFor(async () => expect(await worker.runDue()).toBe(1), {
      timeout: CHILD_LEASE_MS + 10_000,
      interval: 200,
    });

    expect(ran).toEqual([2]);
    expect(await database.db.select().from(effects)).toMatchObject([{ jobId: id, n: 9 }]);
    const [done] = await database.db.select().from(jobs).where(eq(jobs.id, id));
    expect(done).toMatchObject({ status: "done", attempts: 2, lockedBy: null, lockedUntil: null });
  });
});
