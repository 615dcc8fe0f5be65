export { type BackoffOptions, backoffMs, defaultBackoff } from "./backoff.ts";
export { jobsPlugin } from "./plugin.ts";
export {
  type ClaimedJob,
  claimJobs,
  type EnqueueParams,
  enqueue,
  type JobRow,
  lockClaimedJob,
  markJobDone,
  recordJobFailure,
  releaseClaim,
  releaseLeases,
} from "./queries.ts";
export {
  type EnqueueOptions,
  type JobContext,
  type JobHandler,
  type JobKind,
  JobRegistry,
  jobKind,
  type PreparedJob,
} from "./registry.ts";
export { DEFAULT_LEASE_MS, type JobRunOutcome, Worker, type WorkerOptions } from "./worker.ts";
