import type { Config } from "../../config.ts";
import type { JobRegistry } from "../../jobs/index.ts";
import type { PaymentProvider } from "../../providers/payments/types.ts";
import { registerDisputeJobs } from "./disputes/service.ts";
import { releaseHold, releaseHoldJob } from "./events.ts";
import { askRefundAgain, askRefundJob } from "./refunds/service.ts";
import { refundUnfulfilled, refundUnfulfilledJob } from "./unfulfilled.ts";

/**
 * The order jobs: a sale's hold ending, the provider refund of a payment that came too late, and a
 * dispute's evidence and notice.
 */
export function registerOrderJobs(
  registry: JobRegistry,
  deps: { config: Config; payments: PaymentProvider },
): void {
  registerDisputeJobs(registry, deps);
  registry.register(releaseHoldJob, async (tx, { orderId }) => {
    // Run at the end of the hold; a clock a little behind makes it try again shortly.
    if ((await releaseHold(tx, orderId)) === "not-due") throw new Error("The hold is not over yet");
  });
  registry.register(refundUnfulfilledJob, (tx, payload) => refundUnfulfilled(tx, deps.payments, payload));
  registry.register(askRefundJob, (tx, { refundId }) => askRefundAgain(tx, deps.payments, refundId));
}
