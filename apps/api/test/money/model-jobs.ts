import { and, eq, gt, inArray, isNotNull, isNull, notInArray, or, type SQL } from "drizzle-orm";
import { jobs } from "../../src/db/schema/index.ts";
import type { World } from "./model-world.ts";

/** Rounds of retries one step may need: a job failing for good runs out of attempts long before. */
const RETRY_ROUNDS = 5;
/** When a held job would run: never, in a run. */
const HELD_UNTIL = new Date("2999-01-01T00:00:00Z");

/**
 * Runs the jobs due now, as the workers would, then the retries they scheduled. A job that lost a
 * deadlock or a serialisation race to a concurrent job is retried by the worker after a back-off
 * (jobs/worker.ts): that is the queue's contract, so the model runs the retry at once instead of
 * waiting for it. A job that keeps failing exhausts its attempts, stays undone, and the step's own
 * checks fail; each retry is reported on stderr so a flaky path stays visible.
 *
 * Jobs of the world's held kinds wait (a slow worker) until a command names them in `release`, by
 * their dedupe keys: they run then, with their retries.
 */
export async function runJobs(w: World, release: readonly string[] = []): Promise<void> {
  const { db } = w.ctx.database;
  const held = w.heldJobs ?? [];
  const released = release.length > 0 ? inArray(jobs.dedupeKey, [...release]) : undefined;
  const notReleased =
    release.length > 0 ? or(isNull(jobs.dedupeKey), notInArray(jobs.dedupeKey, [...release])) : undefined;
  // Retried at once: any job but a held one, unless released.
  const retriable: SQL | undefined =
    held.length === 0
      ? undefined
      : released
        ? or(notInArray(jobs.kind, [...held]), released)
        : notInArray(jobs.kind, [...held]);
  for (let round = 0; round <= RETRY_ROUNDS; round++) {
    if (held.length > 0) {
      const queuedHeld = and(eq(jobs.status, "queued"), inArray(jobs.kind, [...held]));
      await db.update(jobs).set({ runAt: HELD_UNTIL }).where(and(queuedHeld, notReleased));
      if (released && round === 0)
        await db.update(jobs).set({ runAt: new Date() }).where(and(queuedHeld, released));
    }
    await w.ctx.app.services.jobs.worker.runDue();
    const retried = await db
      .update(jobs)
      .set({ runAt: new Date() })
      .where(and(eq(jobs.status, "queued"), gt(jobs.attempts, 0), isNotNull(jobs.lastError), retriable))
      .returning({ kind: jobs.kind, lastError: jobs.lastError });
    if (retried.length === 0) return;
    for (const job of retried) console.warn(`money model: retrying ${job.kind} after: ${job.lastError}`);
  }
}
