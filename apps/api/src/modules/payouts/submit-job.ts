import { z } from "zod";
import { jobKind } from "../../jobs/index.ts";

/** Sends an approved payout to its provider; queued with the approval, retried on passing errors. */
export const submitPayoutJob = jobKind("payouts.submit", z.object({ payoutId: z.uuid() }));

/** Queued in the approval's transaction: the submission exists if and only if the approval commits. */
export const queueSubmission = (tx: Parameters<typeof submitPayoutJob.enqueue>[0], payoutId: string) =>
  submitPayoutJob.enqueue(tx, { payoutId }, { dedupeKey: `payouts.submit:${payoutId}` });
