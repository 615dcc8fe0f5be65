import type { PayoutsEnv } from "./env.ts";
import { ManualPayoutProvider } from "./manual.ts";
import { SandboxPayoutProvider } from "./sandbox/provider.ts";
import { StripeConnectPayoutProvider, stripeConnectOptions } from "./stripe-connect.ts";
import type { PayoutProvider } from "./types.ts";

export { type PayoutsEnv, payoutsEnvSchema } from "./env.ts";
export { ManualPayoutProvider } from "./manual.ts";
export { SANDBOX_FAILING_LAST4, SandboxPayoutProvider } from "./sandbox/provider.ts";
export { StripeConnectPayoutProvider, stripeConnectOptions, stripeKeys } from "./stripe-connect.ts";
export * from "./types.ts";

export function createPayoutProvider(env: PayoutsEnv): PayoutProvider {
  if (env.PAYOUT_PROVIDER === "stripe") return new StripeConnectPayoutProvider(stripeConnectOptions(env));
  if (env.PAYOUT_PROVIDER === "sandbox")
    return new SandboxPayoutProvider(env.PAYOUT_SANDBOX_SETTLE_SECONDS * 1000);
  return new ManualPayoutProvider();
}
