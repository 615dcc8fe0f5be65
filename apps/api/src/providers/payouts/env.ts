import { payoutProviderKinds } from "@salelink/contracts";
import { z } from "zod";

/** The payout variables, parsed beside the main schema in config.ts. */
export const payoutsEnvSchema = z
  .object({
    /**
     * `manual` (the default): the operator pays each approved payout by bank transfer and marks it
     * paid or failed in the admin queue. `stripe`: Stripe Connect pays it to the creator's IBAN.
     */
    PAYOUT_PROVIDER: z.enum(payoutProviderKinds).default("manual"),
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
