import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { JobRegistry } from "../../src/jobs/index.ts";
import { disputeNoticeJob, submitEvidenceJob } from "../../src/modules/orders/disputes/service.ts";
import { releaseHoldJob } from "../../src/modules/orders/events.ts";
import { registerOrderJobs } from "../../src/modules/orders/jobs.ts";
import { askRefundJob } from "../../src/modules/orders/refunds/service.ts";
import { refundUnfulfilledJob } from "../../src/modules/orders/unfulfilled.ts";
import type { PaymentProvider } from "../../src/providers/payments/types.ts";

describe("the order jobs", () => {
  it("registers the hold release, the unfulfilled refund and a refund's second ask, with their payload schemas", () => {
    const registry = new JobRegistry();
    registerOrderJobs(registry, {
      config: loadConfig({ APP_SECRET: "x".repeat(32) }),
      payments: {} as PaymentProvider,
    });
    expect(registry.kinds().sort()).toEqual(
      [
        releaseHoldJob.kind,
        refundUnfulfilledJob.kind,
        askRefundJob.kind,
        submitEvidenceJob.kind,
        disputeNoticeJob.kind,
      ].sort(),
    );
    expect(registry.kinds()).toEqual(
      expect.arrayContaining(["orders.release-hold", "orders.refund-unfulfilled", "orders.ask-refund"]),
    );
    const orderId = "7f1c1e0e-5d4a-4c39-9a5e-3f8f6a1b2c3d";
    expect(registry.prepare(releaseHoldJob.kind, { orderId }).ok).toBe(true);
    expect(registry.prepare(releaseHoldJob.kind, { orderId: "not-an-id" }).ok).toBe(false);
    expect(registry.prepare(refundUnfulfilledJob.kind, { orderId, paymentId: "pi_1" }).ok).toBe(true);
    expect(registry.prepare(refundUnfulfilledJob.kind, { orderId, paymentId: "" }).ok).toBe(false);
    expect(registry.prepare(askRefundJob.kind, { refundId: orderId }).ok).toBe(true);
    expect(registry.prepare(askRefundJob.kind, { refundId: "1" }).ok).toBe(false);
  });
});
