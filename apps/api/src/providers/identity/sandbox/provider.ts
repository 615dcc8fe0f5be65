import { createHmac, randomUUID } from "node:crypto";
import type { SandboxIdentityDecisionBody } from "@salelink/contracts";
import type { CreatedIdentitySession, IdentityEvent, IdentityProvider, WebhookHeaders } from "../types.ts";
import { parseSignedWebhook, type VeriffDecisionWebhook } from "../veriff.ts";

/*
 * The sandbox identity provider (the default): its "check" is a page of the web app, labelled as a
 * sandbox, where the person picks the outcome. The outcome comes back as a Veriff decision webhook,
 * signed the Veriff way with a key derived from the app secret, through the same route and handler
 * as Veriff's.
 */

/** The sandbox's X-AUTH-CLIENT: not a secret (Veriff's API key is not one either). */
export const SANDBOX_CLIENT_KEY = "sandbox-identity";

/** The sandbox signs its webhooks with a key derived from the app secret: nothing to configure. */
export const sandboxIdentitySecret = (appSecret: string): string =>
  createHmac("sha256", appSecret).update("sandbox-identity-webhook").digest("hex");

/** Said when the person gives no reason on the sandbox page: a sandbox's words, never a real check's. */
const defaultReasons = {
  declined: "Declined on the sandbox page.",
  resubmission_requested: "A new attempt was asked for on the sandbox page.",
} as const;

export class SandboxIdentityProvider implements IdentityProvider {
  readonly kind = "sandbox" as const;

  constructor(private readonly options: { webOrigin: string; webhookSecret: string }) {}

  async createSession(_body: unknown, reference: { sessionId: string }): Promise<CreatedIdentitySession> {
    return {
      id: randomUUID(),
      url: new URL(`/identity/sandbox/${reference.sessionId}`, this.options.webOrigin).toString(),
      status: "created",
    };
  }

  parseWebhook(rawBody: Buffer, headers: WebhookHeaders): IdentityEvent | null {
    return parseSignedWebhook(rawBody, headers, {
      apiKey: SANDBOX_CLIENT_KEY,
      secret: this.options.webhookSecret,
    });
  }
}

/** The decision webhook the sandbox sends for the outcome chosen on its page (one attempt each). */
export function sandboxDecision(
  providerSessionId: string,
  decision: SandboxIdentityDecisionBody,
  now: Date = new Date(),
): VeriffDecisionWebhook {
  const reason = decision.outcome === "approved" ? null : decision.reason || defaultReasons[decision.outcome];
  return {
    status: "success",
    verification: {
      id: providerSessionId,
      attemptId: randomUUID(),
      status: decision.outcome,
      reason,
      reasonCode: null,
      decisionTime: now.toISOString(),
    },
  };
}
