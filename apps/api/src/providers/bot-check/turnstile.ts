import { z } from "zod";
import type { BotCheck, BotCheckResult } from "./types.ts";

export const TURNSTILE_VERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";
/** Cloudflare documents 2048 characters as the longest token; anything longer is not one. */
export const TURNSTILE_MAX_TOKEN_LENGTH = 2048;
const DEFAULT_TIMEOUT_MS = 5000;

/** The fields we read; Cloudflare also sends challenge_ts, hostname, action, cdata, metadata. */
const siteverifyAnswer = z.object({
  success: z.boolean(),
  "error-codes": z.array(z.string()).default([]),
});

export interface TurnstileOptions {
  secretKey: string;
  verifyUrl?: string;
  /** Bounds the whole exchange, body included, so a slow Cloudflare cannot hold a sign-up open. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

const failClosed = (): BotCheckResult => ({ success: false, errorCodes: ["internal-error"] });

/** Cloudflare Turnstile's siteverify API, one attempt per token (tokens are single-use anyway). */
export class TurnstileBotCheck implements BotCheck {
  readonly kind = "turnstile";
  readonly #secretKey: string;
  readonly #verifyUrl: string;
  readonly #timeoutMs: number;
  readonly #fetch: typeof globalThis.fetch;

  constructor(options: TurnstileOptions) {
    this.#secretKey = options.secretKey;
    this.#verifyUrl = options.verifyUrl ?? TURNSTILE_VERIFY_URL;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  async verify(token: string, remoteIp?: string): Promise<BotCheckResult> {
    // Refused here without a call: no point spending a request (and the latency) on what
    // Cloudflare would refuse anyway, and an oversized body is not ours to forward.
    if (token.length === 0) return { success: false, errorCodes: ["missing-input-response"] };
    if (token.length > TURNSTILE_MAX_TOKEN_LENGTH)
      return { success: false, errorCodes: ["invalid-input-response"] };

    const body = new URLSearchParams({ secret: this.#secretKey, response: token });
    // Optional for Cloudflare; it helps their scoring when we know the visitor's address.
    if (remoteIp) body.set("remoteip", remoteIp);
    try {
      const res = await this.#fetch(this.#verifyUrl, {
        method: "POST",
        body,
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      // An outage, a proxy's error page or a timeout has not said yes: fail closed.
      if (!res.ok) return failClosed();
      const parsed = siteverifyAnswer.safeParse(await res.json());
      if (!parsed.success) return failClosed();
      return { success: parsed.data.success, errorCodes: parsed.data["error-codes"] };
    } catch {
      return failClosed();
    }
  }
}
