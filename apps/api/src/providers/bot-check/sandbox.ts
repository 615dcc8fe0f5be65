import type { BotCheck, BotCheckResult } from "./types.ts";

/** The one token the sandbox refuses, so tests and the e2e suite can drive the failure path. */
export const SANDBOX_FAIL_TOKEN = "sandbox-fail";

/** No network: accepts any non-empty token but SANDBOX_FAIL_TOKEN. */
export class SandboxBotCheck implements BotCheck {
  readonly kind = "sandbox";

  async verify(token: string): Promise<BotCheckResult> {
    if (token.length === 0) return { success: false, errorCodes: ["missing-input-response"] };
    if (token === SANDBOX_FAIL_TOKEN) return { success: false, errorCodes: ["invalid-input-response"] };
    return { success: true, errorCodes: [] };
  }
}
