import type { PayoutsEnv } from "./env.ts";
import { ManualPayoutProvider } from "./manual.ts";
import { StripeConnectPayoutProvider, stripeConnectOptions } from "./stripe-connect.ts";
import type { PayoutProvider } from "./types.ts";

export { type PayoutsEnv, payoutsEnvSchema } from "./env.ts";
export { ManualPayoutProvider } from "./manual.ts";
export { StripeConnectPayoutProvider, stripeConnectOptions, stripeKeys } from "./stripe-connect.ts";
export * from "./types.ts";

export function createPayoutProvider(env: PayoutsEnv): PayoutProvider {
  if (env.PAYOUT_PROVIDER === "stripe") return new StripeConnectPayoutProvider(stripeConnectOptions(env));
  return new ManualPayoutProvider();
}
