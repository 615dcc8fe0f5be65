import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/client.ts";
import { type BackoffOptions, backoffMs, defaultBackoff } from "./backoff.ts";
import {
  type ClaimedJob,
  claimJobs,
  lockClaimedJob,
  markJobDone,
  recordJobFailure,
  releaseClaim,
  releaseLeases,
} from "./queries.ts";
import type { JobRegistry } from "./registry.ts";

export interface WorkerOptions {
  db: Db;
  registry: JobRegistry;
  logger: FastifyBaseLogger;
  /** How often an idle worker looks for due jobs (JOBS_POLL_MS). */
  pollMs?: number;
  /**
   * Jobs run at once (JOBS_CONCURRENCY). On PostgreSQL each running job holds a pooled connection
   * for its transaction, so keep this below the pool size.
   */
  concurrency?: number;
  /** How long a claim is exclusive; past it another worker may take the job over. */
  leaseMs?: number;
  backoff?: Partial<BackoffOptions>;
  /** Defaults to hostname:pid:random, which names the process holding a lease in locked_by. */
  id?: string;
  /** Told of each claimed job's end (metrics); must not throw. */
  onRunEnd?: (kind: string, outcome: JobRunOutcome, ms: number) => void;
}

/** How a claimed job ended here: "released" when shutdown came before it started. */
export type JobRunOutcome = "done" | "failed" | "lost" | "released";

export const DEFAULT_LEASE_MS = 5 * 60 * 1000;
const MAX_ERROR_LENGTH = 1000;

type State = "idle" | "running" | "stopping" | "stopped";

function errorMessage(err: unknown): string {
  const message = err instanceof Error ? err.message || err.name : String(err);
  return message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH - 1)}…` : message;
}

/**
 * Claims due jobs and runs each in its own transaction together with its done mark. Any number of
 * workers, in any number of processes, can share one jobs table.
 */
export class Worker {
  readonly id: string;
  private readonly db: Db;
  private readonly registry: JobRegistry;
  private readonly log: FastifyBaseLogger;
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly backoff: BackoffOptions;
  private readonly onRunEnd: NonNullable<WorkerOptions["onRunEnd"]>;
  private readonly inFlight = new Set<Promise<void>>();
  private state: State = "idle";
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | null = null;
  private pokedWhileTicking = false;
  private claims = 0;
  private stopping: Promise<void> | null = null;

  constructor(options: WorkerOptions) {
    this.id = options.id ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
    this.db = options.db;
    this.registry = options.registry;
    this.log = options.logger.child({ worker: this.id });
    this.pollMs = options.pollMs ?? 1000;
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.backoff = { ...defaultBackoff, ...options.backoff };
    this.onRunEnd = options.onRunEnd ?? (() => undefined);
  }

  /** Starts polling; jobs then run in the background until stop(). */
  start(): void {
    if (this.state !== "idle") throw new Error(`Worker cannot start: it is ${this.state}`);
    this.state = "running";
    this.log.info(
      { concurrency: this.concurrency, pollMs: this.pollMs, kinds: this.registry.kinds() },
      "jobs worker started",
    );
    this.schedule(0);
  }

  /** Looks for due jobs now rather than at the next poll; call it after the enqueue has committed. */
  poke(): void {
    if (this.state !== "running") return;
    if (this.ticking) {
      this.pokedWhileTicking = true;
      return;
    }
    this.schedule(0);
  }

  /**
   * Stops claiming and resolves once every job already started has finished (graceful shutdown).
   * Jobs claimed but not started yet are handed back rather than run, and any lease this worker
   * still holds at the end is ended: another instance takes those jobs at once, not after the lease.
   */
  stop(): Promise<void> {
    // Shutdown calls it when the drain ends and again from the app's onClose: one stop, awaited twice.
    this.stopping ??= this.drain();
    return this.stopping;
  }

  private async drain(): Promise<void> {
    const wasRunning = this.state === "running";
    this.state = "stopping";
    clearTimeout(this.timer);
    this.timer = undefined;
    // A claim in progress still hands its jobs over; runJob releases them, and is waited for below.
    await this.ticking;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    if (this.claims > 0) {
      try {
        const released = await releaseLeases(this.db, this.id);
        if (released > 0) this.log.info({ released }, "job leases released");
      } catch (err) {
        // The leases then expire on their own: the jobs are only delayed.
        this.log.error({ err: errorMessage(err) }, "releasing job leases failed");
      }
    }
    this.state = "stopped";
    if (wasRunning) this.log.info("jobs worker stopped");
  }

  /**
   * Runs every job due now, batch after batch, and answers how many it claimed: for tests and
   * scripts, independent of start(). Retries are scheduled in the future, so it always ends.
   */
  async runDue(): Promise<number> {
    let claimed = 0;
    while (this.state === "idle" || this.state === "running") {
      const batch = await this.claim(this.concurrency);
      if (batch.length === 0) break;
      claimed += batch.length;
      await Promise.all(batch.map((job) => this.track(this.runJob(job))));
    }
    return claimed;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    if (this.state !== "running" || this.ticking) return;
    this.ticking = this.fill();
    await this.ticking;
    this.ticking = null;
    if (this.state !== "running") return;
    const again = this.pokedWhileTicking;
    this.pokedWhileTicking = false;
    this.schedule(again ? 0 : this.pollMs);
  }

  /** Claims as many jobs as there are free slots and starts them without waiting for them. */
  private async fill(): Promise<void> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return;
    try {
      const batch = await this.claim(free);
      // Each finished job frees a slot: look again at once instead of idling until the next poll.
      for (const job of batch) void this.track(this.runJob(job)).then(() => this.poke());
    } catch (err) {
      this.log.error({ err: errorMessage(err) }, "claiming jobs failed");
    }
  }

  private claim(limit: number): Promise<ClaimedJob[]> {
    // A token per claim, not per worker: should this worker claim the same job again after its
    // lease expired, the earlier run must still see that it lost the job.
    this.claims += 1;
    return claimJobs(this.db, { token: `${this.id}#${this.claims}`, limit, leaseMs: this.leaseMs });
  }

  private track(run: Promise<void>): Promise<void> {
    this.inFlight.add(run);
    return run.finally(() => this.inFlight.delete(run));
  }

  /** Runs one claimed job to its end; never rejects. */
  private async runJob(job: ClaimedJob): Promise<void> {
    const started = performance.now();
    const outcome = await this.attempt(job);
    this.onRunEnd(job.kind, outcome, performance.now() - started);
  }

  private async attempt(job: ClaimedJob): Promise<JobRunOutcome> {
    const fields = { jobId: job.id, kind: job.kind, attempt: job.attempts };
    if (this.state === "stopping") return this.release(job);
    if (job.attempts > job.maxAttempts) {
      // Only a run that never reported back (crash, kill, lease lost) gets here.
      return this.fail(job, `Gave up after ${job.maxAttempts} attempts that never completed`);
    }
    const prepared = this.registry.prepare(job.kind, job.payload);
    if (!prepared.ok) return this.fail(job, prepared.error);
    const started = performance.now();
    try {
      const outcome = await this.db.transaction(async (tx) => {
        // Nothing is written before this check, so leaving here commits nothing, like a rollback.
        if (!(await lockClaimedJob(tx, job))) return "lost" as const;
        // The transaction may have waited for a connection (or PGlite's one) past a shutdown signal.
        if (this.state === "stopping") {
          await releaseClaim(tx, job);
          return "released" as const;
        }
        await prepared.run(tx, {
          id: job.id,
          kind: job.kind,
          attempts: job.attempts,
          maxAttempts: job.maxAttempts,
          runAt: job.runAt,
          createdAt: job.createdAt,
        });
        await markJobDone(tx, job);
        return "done" as const;
      });
      if (outcome === "lost")
        this.log.warn(fields, "job skipped: another worker took it over after the lease expired");
      else if (outcome === "released") this.log.info(fields, "job handed back unstarted: shutting down");
      else this.log.debug({ ...fields, ms: Math.round(performance.now() - started) }, "job done");
      return outcome;
    } catch (err) {
      return this.fail(job, errorMessage(err));
    }
  }

  private async release(job: ClaimedJob): Promise<JobRunOutcome> {
    try {
      await releaseClaim(this.db, job);
      this.log.info({ jobId: job.id, kind: job.kind }, "job handed back unstarted: shutting down");
    } catch (err) {
      // stop() tries once more for every lease this worker still holds.
      this.log.warn({ jobId: job.id, err: errorMessage(err) }, "handing a job back failed");
    }
    return "released";
  }

  private async fail(job: ClaimedJob, error: string): Promise<"failed"> {
    const fields = { jobId: job.id, kind: job.kind, attempt: job.attempts, error };
    const retryInMs = job.attempts >= job.maxAttempts ? null : backoffMs(job.attempts, this.backoff);
    try {
      const recorded = await recordJobFailure(this.db, { id: job.id, token: job.token, error, retryInMs });
      if (!recorded) this.log.warn(fields, "job failed after another worker took it over");
      else if (retryInMs === null) this.log.error(fields, "job failed for good");
      else this.log.warn({ ...fields, retryInMs }, "job failed; will retry");
    } catch (err) {
      // The lease still expires, and the job then runs again: nothing is lost, only delayed.
      this.log.error({ ...fields, err: errorMessage(err) }, "recording a job failure failed");
    }
    return "failed";
  }
}
