import { z } from "zod";

/** The payment variables, parsed beside the main schema in config.ts. */
export const paymentsEnvSchema = z
  .object({
    /** The sandbox is the default: a fresh checkout takes test cards without a Stripe account. */
    PAYMENT_PROVIDER: z.enum(["sandbox", "stripe"]).default("sandbox"),
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    /** Public: Stripe.js on the payment page uses it. */
    STRIPE_PUBLISHABLE_KEY: z.string().min(1).optional(),
    /** The signing secret of the webhook endpoint (whsec_…), from Stripe's dashboard. */
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    /** Stripe's API address; set only to talk to a local fake in tests. */
    STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** Seconds a webhook's signature timestamp may differ from now (Stripe's default: 300). */
    PAYMENT_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  })
  .superRefine((env, ctx) => {
    if (env.PAYMENT_PROVIDER !== "stripe") return;
    for (const key of ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"] as const) {
      if (!env[key])
        ctx.addIssue({ code: "custom", path: [key], message: "required when PAYMENT_PROVIDER is stripe" });
    }
  });

export type PaymentsEnv = z.output<typeof paymentsEnvSchema>;
