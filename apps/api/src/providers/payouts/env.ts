import { payoutProviderKinds } from "@salelink/contracts";
import { z } from "zod";

/** The payout variables, parsed beside the main schema in config.ts. */
export const payoutsEnvSchema = z
  .object({
    /**
     * `sandbox` (the default): nothing is paid; the sandbox's bank answers each submitted payout after
     * PAYOUT_SANDBOX_SETTLE_SECONDS (paid, or failed for a test account ending 1116), labelled on
     * screen; production refuses it unless ALLOW_SANDBOX_PROVIDERS. `manual`: the operator pays each
     * approved payout by bank transfer and marks it paid or failed in the admin queue. `stripe`: Stripe
     * Connect pays it to the creator's bank account.
     */
    PAYOUT_PROVIDER: z.enum(payoutProviderKinds).default("sandbox"),
    PAYOUT_SANDBOX_SETTLE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(20),
    /** Shared with the payments' Stripe account: payouts are transferred from the platform's balance. */
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    /** The signing secret of the Connect webhook endpoint (events of connected accounts), whsec_…. */
    STRIPE_CONNECT_WEBHOOK_SECRET: z.string().min(1).optional(),
    /** Stripe's API address; set only to talk to a local fake in tests. */
    STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  })
  .superRefine((env, ctx) => {
    if (env.PAYOUT_PROVIDER !== "stripe") return;
    for (const key of ["STRIPE_SECRET_KEY", "STRIPE_CONNECT_WEBHOOK_SECRET"] as const) {
      if (!env[key])
        ctx.addIssue({ code: "custom", path: [key], message: "required when PAYOUT_PROVIDER is stripe" });
    }
  });

export type PayoutsEnv = z.output<typeof payoutsEnvSchema>;
