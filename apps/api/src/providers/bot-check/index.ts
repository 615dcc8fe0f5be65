import type { BotCheckEnv } from "./env.ts";
import { SandboxBotCheck } from "./sandbox.ts";
import { TurnstileBotCheck } from "./turnstile.ts";
import type { BotCheck } from "./types.ts";

export { type BotCheckEnv, botCheckEnvSchema } from "./env.ts";
export { SANDBOX_FAIL_TOKEN, SandboxBotCheck } from "./sandbox.ts";
export {
  TURNSTILE_MAX_TOKEN_LENGTH,
  TURNSTILE_VERIFY_URL,
  TurnstileBotCheck,
  type TurnstileOptions,
} from "./turnstile.ts";
export type { BotCheck, BotCheckResult } from "./types.ts";

export function createBotCheck(env: BotCheckEnv, options: { timeoutMs?: number } = {}): BotCheck {
  if (env.BOT_CHECK_PROVIDER === "sandbox") return new SandboxBotCheck();
  // botCheckEnvSchema already requires it; checked again because a half-built env must not
  // quietly become a verifier with an empty secret.
  if (!env.TURNSTILE_SECRET_KEY)
    throw new Error("TURNSTILE_SECRET_KEY is required for the turnstile bot check");
  return new TurnstileBotCheck({
    secretKey: env.TURNSTILE_SECRET_KEY,
    verifyUrl: env.TURNSTILE_VERIFY_URL,
    ...options,
  });
}
