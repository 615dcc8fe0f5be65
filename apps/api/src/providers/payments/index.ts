import type { DbOrTx } from "../../db/client.ts";
import type { PaymentsEnv } from "./env.ts";
import { SandboxPaymentProvider, sandboxWebhookSecret } from "./sandbox/provider.ts";
import { StripePaymentProvider, stripeOptions } from "./stripe.ts";
import type { PaymentProvider } from "./types.ts";

export { type PaymentsEnv, paymentsEnvSchema } from "./env.ts";
export {
  SANDBOX_SIGNATURE_HEADER,
  type SandboxDisputeEvent,
  type SandboxEvent,
  SandboxPaymentProvider,
  sandboxDisputeEvent,
  sandboxEvent,
  sandboxWebhookSecret,
} from "./sandbox/provider.ts";
export { signPayload, verifySignature } from "./signature.ts";
export { StripePaymentProvider } from "./stripe.ts";
export * from "./types.ts";

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
