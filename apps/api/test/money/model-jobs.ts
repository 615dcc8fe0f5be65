import { and, eq, gt, isNotNull } from "drizzle-orm";
import { jobs } from "../../src/db/schema/index.ts";
import type { World } from "./model-world.ts";

/** Rounds of retries one step may need: a job failing for good runs out of attempts long before. */
const RETRY_ROUNDS = 5;

/**
 * Runs the jobs due now, as the workers would, then the retries they scheduled. A job that lost a
 * deadlock or a serialisation race to a concurrent job is retried by the worker after a back-off
 * (jobs/worker.ts): that is the queue's contract, so the model runs the retry at once instead of
 * waiting for it. A job that keeps failing exhausts its attempts, stays undone, and the step's own
 * checks fail; each retry is reported on stderr so a flaky path stays visible.
 */
export async function runJobs(w: World): Promise<void> {
  const { db } = w.ctx.database;
  for (let round = 0; round <= RETRY_ROUNDS; round++) {
    await w.ctx.app.services.jobs.worker.runDue();
    const retried = await db
      .update(jobs)
      .set({ runAt: new Date() })
      .where(and(eq(jobs.status, "queued"), gt(jobs.attempts, 0), isNotNull(jobs.lastError)))
      .returning({ kind: jobs.kind, lastError: jobs.lastError });
    if (retried.length === 0) return;
    for (const job of retried) console.warn(`money model: retrying ${job.kind} after: ${job.lastError}`);
  }
}
