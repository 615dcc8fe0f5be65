import type {
  IdentityProviderKind,
  IdentitySessionRequest,
  IdentitySessionStatus,
} from "@salelink/contracts";

/*
 * An identity verification provider: creates a session where the person shows their document, and
 * turns its signed webhook deliveries into events. Veriff and the sandbox speak the same webhook
 * format and signature, and both reach the same handler.
 */

export interface CreatedIdentitySession {
  /** The provider's session id (Veriff's verification.id). */
  id: string;
  /** Where the person takes the check. */
  url: string;
  status: IdentitySessionStatus;
}

/** A verified, normalised webhook delivery. */
export interface IdentityEvent {
  /** The same for every delivery of the same event: it is applied once under this key. */
  key: string;
  /** The provider's session id. */
  sessionId: string;
  status: Exclude<IdentitySessionStatus, "created">;
  /** Why it was declined or must be redone, in the provider's words. */
  reason: string | null;
  reasonCode: string | null;
  /** When the provider says it happened. */
  occurredAt: Date;
  /** What is kept of the delivery for audits: the decision, never the person's data. */
  raw: Record<string, unknown>;
}

/** A webhook delivery that is not authentic (signature or client key). */
export class IdentitySignatureError extends Error {}

/** A failed call to the provider, with a message safe to log (never a key or secret). */
export class IdentityProviderError extends Error {
  constructor(
    message: string,
    readonly statusCode?: number,
  ) {
    super(message);
    this.name = "IdentityProviderError";
  }
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;

export interface IdentityProvider {
  readonly kind: IdentityProviderKind;
  /**
   * Opens a session for `body` (the spec's session body). `reference` is our own session's id: the
   * sandbox builds its page's address from it; Veriff has no use for it.
   */
  createSession(
    body: IdentitySessionRequest,
    reference: { sessionId: string },
  ): Promise<CreatedIdentitySession>;
  /**
   * Verifies a webhook delivery from its raw bytes and headers and answers its event, or null for a
   * kind of webhook we do not act on. Throws IdentitySignatureError when it is not authentic.
   */
  parseWebhook(rawBody: Buffer, headers: WebhookHeaders): IdentityEvent | null;
}
