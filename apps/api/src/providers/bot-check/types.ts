export interface BotCheckResult {
  success: boolean;
  /** Cloudflare's vocabulary (e.g. "invalid-input-response", "internal-error"), for logs only. */
  errorCodes: string[];
}

export interface BotCheck {
  /** "sandbox" lets the web label the form as not protected, and the production guard refuse it. */
  readonly kind: "turnstile" | "sandbox";
  /** Never throws: any failure to get a clear yes is a refusal. */
  verify(token: string, remoteIp?: string): Promise<BotCheckResult>;
}
