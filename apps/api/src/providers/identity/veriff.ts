import { type IdentitySessionRequest, identitySessionStatusSchema } from "@salelink/contracts";
import { z } from "zod";
import type { IdentityEnv } from "./env.ts";
import { signedHeaders, verifySignedDelivery } from "./signature.ts";
import {
  type CreatedIdentitySession,
  type IdentityEvent,
  type IdentityProvider,
  IdentityProviderError,
  type WebhookHeaders,
} from "./types.ts";

/** The person is waiting on the "verify" button: a provider slower than this is treated as down. */
const DEFAULT_TIMEOUT_MS = 15_000;

export interface VeriffOptions {
  apiUrl: string;
  apiKey: string;
  sharedSecret: string;
  timeoutMs?: number;
}

export function veriffOptions(env: IdentityEnv): VeriffOptions {
  // identityEnvSchema already requires them; checked again so a half-built env fails loudly here.
  if (!env.VERIFF_API_KEY || !env.VERIFF_SHARED_SECRET)
    throw new Error("VERIFF_API_KEY and VERIFF_SHARED_SECRET are required when IDENTITY_PROVIDER is veriff");
  return { apiUrl: env.VERIFF_API_URL, apiKey: env.VERIFF_API_KEY, sharedSecret: env.VERIFF_SHARED_SECRET };
}

/** POST /v1/sessions's answer (201); other fields (host, sessionToken…) are not ours to rely on. */
const createdSchema = z.object({
  status: z.literal("success"),
  verification: z.object({
    id: z.string().min(1),
    url: z.url(),
    status: identitySessionStatusSchema,
  }),
});

/** Veriff's error body: `{ status: "fail", code, message }`. */
const failureSchema = z.object({
  message: z.string().optional(),
  code: z.union([z.string(), z.number()]).optional(),
});

/** The statuses a decision webhook carries (never the progress ones). */
export const decisionStatuses = [
  "approved",
  "declined",
  "resubmission_requested",
  "expired",
  "abandoned",
  "review",
] as const;

const text = z.union([z.string(), z.number()]).transform(String);

/** Decision webhook: the session's outcome. Extra fields (person, document…) are not read or kept. */
const decisionWebhookSchema = z.object({
  status: z.string(),
  verification: z.object({
    id: z.string().min(1),
    attemptId: z.string().nullish(),
    status: z.enum(decisionStatuses),
    code: z.number().int().nullish(),
    reason: z.string().nullish(),
    reasonCode: text.nullish(),
    decisionTime: z.string().nullish(),
    acceptanceTime: z.string().nullish(),
  }),
});
export type VeriffDecisionWebhook = z.input<typeof decisionWebhookSchema>;

/** Event webhook: the person's progress (started, then submitted). */
const eventWebhookSchema = z.object({
  id: z.string().min(1),
  attemptId: z.string().nullish(),
  code: z.number().int().nullish(),
  action: z.enum(["started", "submitted"]),
});

function dateOr(value: string | null | undefined, fallback: Date): Date {
  const parsed = value ? new Date(value) : null;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : fallback;
}

/**
 * A Veriff webhook's event, or null for a kind we do not act on (watchlist screening, user-defined
 * statuses…). The key joins what tells two events apart: redeliveries of one share it, while a
 * resubmission's new attempt, or a review turned into a decision, gets its own.
 */
export function veriffEvent(payload: unknown, now: Date = new Date()): IdentityEvent | null {
  const decision = decisionWebhookSchema.safeParse(payload);
  if (decision.success) {
    const v = decision.data.verification;
    return {
      key: `decision:${v.id}:${v.attemptId ?? "-"}:${v.status}`,
      sessionId: v.id,
      status: v.status,
      reason: v.reason ?? null,
      reasonCode: v.reasonCode ?? null,
      occurredAt: dateOr(v.decisionTime ?? v.acceptanceTime, now),
      raw: {
        webhook: "decision",
        id: v.id,
        attemptId: v.attemptId ?? null,
        status: v.status,
        code: v.code ?? null,
        reason: v.reason ?? null,
        reasonCode: v.reasonCode ?? null,
        decisionTime: v.decisionTime ?? null,
      },
    };
  }
  const event = eventWebhookSchema.safeParse(payload);
  if (event.success) {
    const e = event.data;
    return {
      key: `event:${e.id}:${e.attemptId ?? "-"}:${e.action}`,
      sessionId: e.id,
      status: e.action,
      reason: null,
      reasonCode: null,
      occurredAt: now,
      raw: {
        webhook: "event",
        id: e.id,
        attemptId: e.attemptId ?? null,
        action: e.action,
        code: e.code ?? null,
      },
    };
  }
  return null;
}

/** Verifies a delivery signed with `apiKey`/`secret` and answers its event (Veriff's format). */
export function parseSignedWebhook(
  rawBody: Buffer,
  headers: WebhookHeaders,
  credentials: { apiKey: string; secret: string },
): IdentityEvent | null {
  verifySignedDelivery({ rawBody, headers, ...credentials });
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody.toString("utf8"));
  } catch {
    // Authentic but unreadable: nothing we could act on, and a retry would not fix it.
    return null;
  }
  return veriffEvent(payload);
}

/** Veriff (https://devdocs.veriff.com): hosted sessions, decisions by webhook. */
export class VeriffIdentityProvider implements IdentityProvider {
  readonly kind = "veriff" as const;
  readonly #options: Required<VeriffOptions>;

  constructor(options: VeriffOptions) {
    this.#options = { timeoutMs: DEFAULT_TIMEOUT_MS, ...options };
  }

  async createSession(body: IdentitySessionRequest): Promise<CreatedIdentitySession> {
    const { apiUrl, apiKey, sharedSecret, timeoutMs } = this.#options;
    const raw = JSON.stringify(body);
    let res: Response;
    try {
      res = await fetch(new URL("/v1/sessions", apiUrl), {
        method: "POST",
        // Veriff does not require a signature on this call, but checks one when it is sent.
        headers: signedHeaders(raw, apiKey, sharedSecret),
        body: raw,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === "TimeoutError")
        throw new IdentityProviderError(`Veriff did not answer within ${timeoutMs} ms`);
      const cause = error instanceof Error ? error.message : String(error);
      throw new IdentityProviderError(`Could not reach Veriff: ${cause}`);
    }
    let answer: unknown = null;
    try {
      answer = await res.json();
    } catch (error) {
      if (error instanceof DOMException && error.name === "TimeoutError")
        throw new IdentityProviderError(`Veriff did not answer within ${timeoutMs} ms`, res.status);
      // An unreadable body: reported below by status, or as a malformed answer.
    }
    if (res.status !== 201) {
      const failure = failureSchema.safeParse(answer);
      const detail = failure.success
        ? [failure.data.code, failure.data.message].filter(Boolean).join(" ")
        : "";
      throw new IdentityProviderError(
        `Veriff refused the session (${res.status})${detail ? `: ${detail}` : ""}`,
        res.status,
      );
    }
    const created = createdSchema.safeParse(answer);
    if (!created.success)
      throw new IdentityProviderError("Veriff answered a session in an unexpected form", 201);
    const { id, url, status } = created.data.verification;
    return { id, url, status };
  }

  parseWebhook(rawBody: Buffer, headers: WebhookHeaders): IdentityEvent | null {
    return parseSignedWebhook(rawBody, headers, {
      apiKey: this.#options.apiKey,
      secret: this.#options.sharedSecret,
    });
  }
}
