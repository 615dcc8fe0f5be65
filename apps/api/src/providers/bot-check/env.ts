import { z } from "zod";
import { TURNSTILE_VERIFY_URL } from "./turnstile.ts";

/** The bot-check variables, parsed beside the main schema in config.ts. */
export const botCheckEnvSchema = z
  .object({
    /** The sandbox is the default so a fresh checkout runs without a Cloudflare account. */
    BOT_CHECK_PROVIDER: z.enum(["sandbox", "turnstile"]).default("sandbox"),
    TURNSTILE_SECRET_KEY: z.string().min(1).optional(),
    /** Public: the web renders the widget with it. */
    TURNSTILE_SITE_KEY: z.string().min(1).optional(),
    TURNSTILE_VERIFY_URL: z.url({ protocol: /^https?$/ }).default(TURNSTILE_VERIFY_URL),
  })
  .superRefine((env, ctx) => {
    if (env.BOT_CHECK_PROVIDER !== "turnstile") return;
    for (const key of ["TURNSTILE_SECRET_KEY", "TURNSTILE_SITE_KEY"] as const) {
      if (!env[key])
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: "required when BOT_CHECK_PROVIDER is turnstile",
        });
    }
  });

export type BotCheckEnv = z.output<typeof botCheckEnvSchema>;
