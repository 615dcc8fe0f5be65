import { createHmac, randomBytes } from "node:crypto";
import { currencySchema } from "@salelink/contracts";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.ts";
import { verifySignature } from "../signature.ts";
import type { CreatedPayment, CreatePaymentInput, PaymentEvent, PaymentProvider } from "../types.ts";
import { insertSandboxPayment, sandboxPaymentIdByKey, setSandboxPaymentStatus } from "./queries.ts";

/*
 * The sandbox payment provider (the default): it keeps its payments like Stripe keeps its
 * PaymentIntents, takes the test cards on its payment page, and reports outcomes as signed events
 * through the same webhook route and handler as Stripe (delivered by a job, re-signed at each
 * attempt). Labelled as a sandbox on every screen that shows it.
 */

export const SANDBOX_SIGNATURE_HEADER = "sandbox-signature";

/** The sandbox signs its events with a key derived from the app secret: nothing to configure. */
export const sandboxWebhookSecret = (appSecret: string): string =>
  createHmac("sha256", appSecret).update("sandbox-payments-webhook").digest("hex");

const sandboxEventSchema = z.object({
  id: z.string().regex(/^evt_sbx_[A-Za-z0-9_-]+$/),
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
export type SandboxEvent = z.infer<typeof sandboxEventSchema>;

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

  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): PaymentEvent | null {
    const header = headers[SANDBOX_SIGNATURE_HEADER];
    verifySignature({
      rawBody,
      header: Array.isArray(header) ? header[0] : header,
      secret: this.options.webhookSecret,
      toleranceSeconds: this.options.toleranceSeconds,
    });
    const event = sandboxEventSchema.parse(JSON.parse(rawBody.toString("utf8")));
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
