import { z } from "zod";
import type { Tx } from "../../../db/client.ts";
import { type JobRegistry, jobKind } from "../../../jobs/index.ts";
import type { PayoutEvent } from "../types.ts";

/** The sandbox bank's answer to a submitted payout, due a little after the submission. */
export const sandboxPayoutOutcomeJob = jobKind(
  "payouts.sandbox-outcome",
  z.object({
    providerPayoutId: z.string(),
    payoutId: z.uuid(),
    type: z.enum(["paid", "failed"]),
    failureReason: z.string().optional(),
  }),
);
export type SandboxPayoutOutcome = z.infer<typeof sandboxPayoutOutcomeJob.schema>;

/**
 * Registered only when the sandbox is the payout provider (app.ts). The outcome is applied by the
 * payouts module's own event path, under an event id derived from the payout: applied once, however
 * often the job runs.
 */
export function registerSandboxPayoutJobs(
  registry: JobRegistry,
  deps: { apply(tx: Tx, event: PayoutEvent): Promise<unknown> },
): void {
  registry.register(sandboxPayoutOutcomeJob, async (tx, outcome) => {
    await deps.apply(tx, {
      id: `sbx_evt_${outcome.type}_${outcome.providerPayoutId}`,
      type: outcome.type,
      providerPayoutId: outcome.providerPayoutId,
      payoutId: outcome.payoutId,
      account: null,
      ...(outcome.failureReason ? { failureReason: outcome.failureReason } : {}),
      createdAt: new Date(),
      raw: outcome,
    });
  });
}
