import type { JobRegistry } from "../../../jobs/index.ts";
import type { PayoutProvider } from "../../../providers/payouts/types.ts";
import {
  payoutScheduleRunJob,
  payoutScheduleTickJob,
  runPayoutSchedule,
  type ScheduleSettings,
  tickPayoutSchedules,
} from "./service.ts";

/** The payout schedules' chain: a tick per interval, a run per account due (issue 23). */
export function registerPayoutScheduleJobs(
  registry: JobRegistry,
  { config, payouts }: { config: ScheduleSettings; payouts: PayoutProvider },
): void {
  registry.register(payoutScheduleTickJob, async (tx, payload) => {
    await tickPayoutSchedules(tx, config, payload);
  });
  registry.register(payoutScheduleRunJob, async (tx, payload) => {
    await runPayoutSchedule(tx, config, payouts, payload);
  });
}
