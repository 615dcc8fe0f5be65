import { createHmac } from "node:crypto";
import type { DbOrTx } from "../../db/client.ts";
import type { PaymentsEnv } from "./env.ts";
import { SandboxPaymentProvider } from "./sandbox.ts";
import { StripePaymentProvider, stripeOptions } from "./stripe.ts";
import type { PaymentProvider } from "./types.ts";

export { type PaymentsEnv, paymentsEnvSchema } from "./env.ts";
export {
  SANDBOX_SIGNATURE_HEADER,
  type SandboxEvent,
  SandboxPaymentProvider,
  sandboxEvent,
} from "./sandbox.ts";
export { signPayload, verifySignature } from "./signature.ts";
export { StripePaymentProvider } from "./stripe.ts";
export * from "./types.ts";

/** The sandbox signs its events with a key derived from the app secret: nothing to configure. */
export const sandboxWebhookSecret = (appSecret: string): string =>
  createHmac("sha256", appSecret).update("sandbox-payments-webhook").digest("hex");

export function createPaymentProvider(
  env: PaymentsEnv,
  options: { db: DbOrTx; appSecret: string },
): PaymentProvider {
  if (env.PAYMENT_PROVIDER === "stripe") return new StripePaymentProvider(stripeOptions(env));
  return new SandboxPaymentProvider({
    db: options.db,
    webhookSecret: sandboxWebhookSecret(options.appSecret),
    toleranceSeconds: env.PAYMENT_WEBHOOK_TOLERANCE_SECONDS,
  });
}
