import { identityProviderKinds } from "@salelink/contracts";
import { z } from "zod";

/** The identity verification variables, parsed beside the main schema in config.ts. */
export const identityEnvSchema = z
  .object({
    /** The sandbox is the default: a fresh install verifies accounts without a Veriff contract. */
    IDENTITY_PROVIDER: z.enum(identityProviderKinds).default("sandbox"),
    /** Veriff's API address (the integration's base URL); a local fake in tests. */
    VERIFF_API_URL: z.url({ protocol: /^https?$/ }).default("https://stationapi.veriff.com"),
    /** The integration's API key, sent as X-AUTH-CLIENT and expected back on webhooks. */
    VERIFF_API_KEY: z.string().min(1).optional(),
    /** The integration's shared secret key: X-HMAC-SIGNATURE of requests and webhooks. */
    VERIFF_SHARED_SECRET: z.string().min(1).optional(),
  })
  .superRefine((env, ctx) => {
    if (env.IDENTITY_PROVIDER !== "veriff") return;
    for (const key of ["VERIFF_API_KEY", "VERIFF_SHARED_SECRET"] as const) {
      if (!env[key])
        ctx.addIssue({ code: "custom", path: [key], message: "required when IDENTITY_PROVIDER is veriff" });
    }
  });

export type IdentityEnv = z.output<typeof identityEnvSchema>;
