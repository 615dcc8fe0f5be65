import { createHmac, randomBytes } from "node:crypto";
import { currencySchema } from "@salelink/contracts";
import { z } from "zod";
import { jobKind } from "../../../jobs/index.ts";

/* The sandbox's signed events, as its webhook deliveries carry them: their shapes and their makers. */

export const SANDBOX_SIGNATURE_HEADER = "sandbox-signature";

/** The sandbox signs its events with a key derived from the app secret: nothing to configure. */
export const sandboxWebhookSecret = (appSecret: string): string =>
  createHmac("sha256", appSecret).update("sandbox-payments-webhook").digest("hex");

const eventId = z.string().regex(/^evt_sbx_[A-Za-z0-9_-]+$/);
const sandboxPaymentEventSchema = z.object({
  id: eventId,
  type: z.enum(["payment.succeeded", "payment.failed", "refund.succeeded"]),
  created: z.number().int(),
  data: z.object({
    paymentId: z.string(),
    orderId: z.uuid(),
    amountMinor: z.number().int().positive(),
    currency: currencySchema,
    failureReason: z.string().optional(),
  }),
});
export type SandboxEvent = z.infer<typeof sandboxPaymentEventSchema>;

/** The sandbox's card issuer reports a dispute as it stands, as Stripe's dispute events do (issue 32). */
const sandboxDisputeEventSchema = z.object({
  id: eventId,
  type: z.literal("dispute.updated"),
  created: z.number().int(),
  data: z.object({
    disputeId: z.string().regex(/^sbx_dp_[A-Za-z0-9_-]+$/),
    paymentId: z.string(),
    orderId: z.uuid(),
    amountMinor: z.number().int().positive(),
    currency: currencySchema,
    reason: z.string().max(100),
    status: z.enum(["needs_response", "under_review", "won", "lost"]),
    evidenceDueBy: z.iso.datetime().nullable(),
    fundsWithdrawn: z.boolean(),
    feeMinor: z.number().int().min(0),
  }),
});
export type SandboxDisputeEvent = z.infer<typeof sandboxDisputeEventSchema>;
export const sandboxEventSchema = z.union([sandboxPaymentEventSchema, sandboxDisputeEventSchema]);

export function sandboxDisputeEvent(
  data: SandboxDisputeEvent["data"],
  now: Date = new Date(),
): SandboxDisputeEvent {
  return {
    id: `evt_sbx_${randomBytes(12).toString("base64url")}`,
    type: "dispute.updated",
    created: Math.floor(now.getTime() / 1000),
    data,
  };
}

export function sandboxEvent(
  type: SandboxEvent["type"],
  data: SandboxEvent["data"],
  now: Date = new Date(),
): SandboxEvent {
  return {
    id: `evt_sbx_${randomBytes(12).toString("base64url")}`,
    type,
    created: Math.floor(now.getTime() / 1000),
    data,
  };
}

/** The sandbox's deliveries: signed at each attempt, received by the webhook's own handler. */
export const sandboxDeliverJob = jobKind(
  "payments.sandbox-deliver",
  z.object({
    event: z.custom<SandboxEvent | SandboxDisputeEvent>((v) => typeof v === "object" && v !== null),
  }),
);
