import { randomBytes } from "node:crypto";
import type { DbOrTx } from "../../../db/client.ts";
import { verifySignature } from "../signature.ts";
import type {
  CreatedPayment,
  CreatePaymentInput,
  DisputeEvidence,
  PaymentProvider,
  ProviderEvent,
} from "../types.ts";
import { submitSandboxEvidence } from "./dispute-service.ts";
import { SANDBOX_SIGNATURE_HEADER, sandboxEventSchema } from "./events.ts";

import { insertSandboxPayment, sandboxPaymentIdByKey, setSandboxPaymentStatus } from "./queries.ts";

export {
  SANDBOX_SIGNATURE_HEADER,
  type SandboxDisputeEvent,
  type SandboxEvent,
  sandboxDisputeEvent,
  sandboxEvent,
  sandboxWebhookSecret,
} from "./events.ts";

/*
 * The sandbox payment provider (the default): it keeps its payments like Stripe keeps its
 * PaymentIntents, takes the test cards on its payment page, and reports outcomes as signed events
 * through the same webhook route and handler as Stripe (delivered by a job, re-signed at each
 * attempt). Labelled as a sandbox on every screen that shows it.
 */

export class SandboxPaymentProvider implements PaymentProvider {
  readonly kind = "sandbox" as const;

  constructor(private readonly options: { db: DbOrTx; webhookSecret: string; toleranceSeconds: number }) {}

  async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
    // Idempotent like Stripe's: the same key answers the payment it created the first time.
    const created = await insertSandboxPayment(this.options.db, {
      id: `sbx_pi_${randomBytes(12).toString("base64url")}`,
      orderId: input.orderId,
      amountMinor: input.amountMinor,
      currency: input.currency,
      idempotencyKey: input.idempotencyKey,
    });
    if (created) return { paymentId: created.id };
    const existing = await sandboxPaymentIdByKey(this.options.db, input.idempotencyKey);
    if (!existing) throw new Error("sandbox payment lost");
    return { paymentId: existing };
  }

  parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): ProviderEvent | null {
    const header = headers[SANDBOX_SIGNATURE_HEADER];
    verifySignature({
      rawBody,
      header: Array.isArray(header) ? header[0] : header,
      secret: this.options.webhookSecret,
      toleranceSeconds: this.options.toleranceSeconds,
    });
    const event = sandboxEventSchema.parse(JSON.parse(rawBody.toString("utf8")));
    if (event.type === "dispute.updated") {
      const { evidenceDueBy, ...dispute } = event.data;
      return {
        id: event.id,
        type: "dispute",
        dispute: { ...dispute, evidenceDueBy: evidenceDueBy ? new Date(evidenceDueBy) : null },
        createdAt: new Date(event.created * 1000),
        raw: event,
      };
    }
    return {
      id: event.id,
      type: event.type,
      paymentId: event.data.paymentId,
      orderId: event.data.orderId,
      amountMinor: event.data.amountMinor,
      currency: event.data.currency,
      ...(event.data.failureReason ? { failureReason: event.data.failureReason } : {}),
      createdAt: new Date(event.created * 1000),
      raw: event,
    };
  }

  async refund(
    input: { paymentId: string; amountMinor: number; idempotencyKey: string },
    db: DbOrTx = this.options.db,
  ): Promise<void> {
    // The sandbox's refunds always succeed; the caller sends the event (enqueueSandboxEvent, jobs.ts).
    await setSandboxPaymentStatus(db, input.paymentId, "refunded");
  }

  /** The sandbox's issuer takes the evidence and reviews it; its decision is a sandbox control. */
  async submitDisputeEvidence(
    input: { disputeId: string; evidence: DisputeEvidence; idempotencyKey: string },
    db: DbOrTx = this.options.db,
  ): Promise<void> {
    await submitSandboxEvidence(db, input.disputeId, input.evidence);
  }
}
