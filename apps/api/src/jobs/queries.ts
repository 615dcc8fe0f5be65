import { and, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../db/client.ts";
import { jobs } from "../db/schema/jobs.ts";

export type JobRow = typeof jobs.$inferSelect;

/** A job this worker holds a lease on; `token` is the claim's value of locked_by. */
export type ClaimedJob = Pick<
  JobRow,
  "id" | "kind" | "payload" | "attempts" | "maxAttempts" | "runAt" | "createdAt"
> & {
  token: string;
};

export interface EnqueueParams {
  kind: string;
  payload: unknown;
  /** Not before this time; now when absent. */
  runAt?: Date;
  /** One job per key, ever: a second enqueue with the same key is a no-op. */
  dedupeKey?: string;
  maxAttempts?: number;
}

/**
 * Adds a job. Pass the caller's transaction so the job exists if and only if the change that calls
 * for it commits. Answers the new job's id, or null when a job with the same dedupeKey exists.
 */
export async function enqueue(db: DbOrTx, params: EnqueueParams): Promise<string | null> {
  const [row] = await db
    .insert(jobs)
    .values({
      kind: params.kind,
      payload: params.payload,
      runAt: params.runAt,
      dedupeKey: params.dedupeKey,
      maxAttempts: params.maxAttempts,
    })
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id });
  return row?.id ?? null;
}

const msInterval = (ms: number) => sql`(${ms}::double precision * interval '1 millisecond')`;

/**
 * Leases up to `limit` due jobs to `token` in one statement, committed on its own (hence Db, not a
 * transaction): the attempt is counted before any handler runs, so a job that kills its worker
 * still runs out of attempts.
 * SKIP LOCKED lets any number of workers claim side by side without waiting on each other, and skips
 * the rows of jobs still running in an open transaction whatever their lease says.
 */
export async function claimJobs(
  db: Db,
  params: { token: string; limit: number; leaseMs: number },
): Promise<ClaimedJob[]> {
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.status, "queued"),
        lte(jobs.runAt, sql`now()`),
        or(isNull(jobs.lockedUntil), lt(jobs.lockedUntil, sql`now()`)),
      ),
    )
    .orderBy(jobs.runAt)
    .limit(params.limit)
    .for("update", { skipLocked: true });
  const rows = await db
    .update(jobs)
    .set({
      attempts: sql`${jobs.attempts} + 1`,
      lockedBy: params.token,
      lockedUntil: sql`now() + ${msInterval(params.leaseMs)}`,
    })
    .where(inArray(jobs.id, due))
    .returning({
      id: jobs.id,
      kind: jobs.kind,
      payload: jobs.payload,
      attempts: jobs.attempts,
      maxAttempts: jobs.maxAttempts,
      runAt: jobs.runAt,
      createdAt: jobs.createdAt,
    });
  // RETURNING has no order; oldest first is what the caller expects to start first.
  rows.sort((a, b) => a.runAt.getTime() - b.runAt.getTime());
  return rows.map((row) => ({ ...row, token: params.token }));
}

/**
 * Locks the job's row for the rest of `tx` and answers whether this claim still owns it. False when
 * its lease expired and another worker claimed it (and maybe finished it) in the meantime.
 */
export async function lockClaimedJob(tx: Tx, job: { id: string; token: string }): Promise<boolean> {
  const [row] = await tx
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, job.token), eq(jobs.status, "queued")))
    .for("update");
  return row !== undefined;
}

/** Marks the job done; call it in the handler's transaction so both commit or neither does. */
export async function markJobDone(tx: Tx, job: { id: string; token: string }): Promise<void> {
  await tx
    .update(jobs)
    .set({ status: "done", finishedAt: sql`now()`, lockedBy: null, lockedUntil: null })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, job.token)));
}

/**
 * Records a failed attempt and releases the lease: the job runs again after `retryInMs`, or is
 * failed for good when that is null. Answers false, changing nothing, when the claim no longer
 * owns the job.
 */
export async function recordJobFailure(
  db: DbOrTx,
  params: { id: string; token: string; error: string; retryInMs: number | null },
): Promise<boolean> {
  const outcome =
    params.retryInMs === null
      ? { status: "failed" as const, finishedAt: sql`now()` }
      : { runAt: sql`now() + ${msInterval(params.retryInMs)}` };
  const rows = await db
    .update(jobs)
    .set({ ...outcome, lastError: params.error, lockedBy: null, lockedUntil: null })
    .where(and(eq(jobs.id, params.id), eq(jobs.lockedBy, params.token), eq(jobs.status, "queued")))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/**
 * Hands a claim back as if it had never been made (shutdown before the job started): no lease, and
 * the attempt the claim counted is taken back, so another instance runs it at once.
 */
export async function releaseClaim(db: DbOrTx, job: { id: string; token: string }): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ attempts: sql`greatest(${jobs.attempts} - 1, 0)`, lockedBy: null, lockedUntil: null })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, job.token), eq(jobs.status, "queued")))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/**
 * Ends every lease a worker still holds (its claims' tokens start with `workerId#`) on a job no
 * transaction is running: a lease left by a failure whose record was lost, say. SKIP LOCKED leaves
 * a job still running alone. The attempt stays counted: it may have run. Answers how many.
 */
export async function releaseLeases(db: Db, workerId: string): Promise<number> {
  const prefix = `${workerId}#`;
  const held = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.status, "queued"),
        sql`left(${jobs.lockedBy}, ${prefix.length}) = ${prefix}`,
        sql`${jobs.lockedUntil} > now()`,
      ),
    )
    .for("update", { skipLocked: true });
  const rows = await db
    .update(jobs)
    .set({ lockedBy: null, lockedUntil: null })
    .where(inArray(jobs.id, held))
    .returning({ id: jobs.id });
  return rows.length;
}
