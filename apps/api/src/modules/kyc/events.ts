import type { IdentitySessionStatus } from "@salelink/contracts";
import type { Tx } from "../../db/client.ts";
import type { IdentityEvent, IdentityProvider } from "../../providers/identity/index.ts";
import {
  linkEventToSession,
  lockSessionByProviderId,
  recordIdentityEvent,
  updateSessionStatus,
} from "./queries.ts";

/*
 * Applying a provider's webhook events. Each is recorded under its key in the same transaction as
 * its effect, so a redelivery (or five concurrent ones) changes nothing. Deliveries may come in any
 * order: a decision is never undone by progress that arrives late, and a final decision is never
 * replaced.
 */

export type ApplyResult = "applied" | "duplicate" | "ignored";

/** Decisions that end a session for good. */
const FINAL: ReadonlySet<IdentitySessionStatus> = new Set(["approved", "declined", "expired", "abandoned"]);
/** Progress the person makes at the provider, in order; it only ever moves a session forward. */
const PROGRESS: readonly IdentitySessionStatus[] = ["created", "started", "submitted"];

export const isFinal = (status: IdentitySessionStatus): boolean => FINAL.has(status);

/** Whether `next` may replace `current`. */
export function canMove(current: IdentitySessionStatus, next: IdentitySessionStatus): boolean {
  if (FINAL.has(current)) return false;
  const from = PROGRESS.indexOf(current);
  const to = PROGRESS.indexOf(next);
  // started/submitted after a decision in waiting (review, resubmission) is progress of an older
  // attempt arriving late, or a new attempt whose decision will follow: the standing decision stays.
  if (to >= 0) return from >= 0 && to > from;
  return true;
}

/** Applies one verified event inside `tx`: once, whatever the order of deliveries. */
export async function applyIdentityEvent(
  tx: Tx,
  provider: IdentityProvider["kind"],
  event: IdentityEvent,
): Promise<ApplyResult> {
  const recorded = await recordIdentityEvent(tx, { provider, eventKey: event.key, payload: event.raw });
  if (!recorded) return "duplicate";

  const session = await lockSessionByProviderId(tx, provider, event.sessionId);
  if (!session) return "ignored";
  await linkEventToSession(tx, recorded.id, session.id);
  if (!canMove(session.status, event.status)) return "ignored";

  const decided = !PROGRESS.includes(event.status);
  // Progress keeps the reason of a decision in waiting; a decision brings its own (or none).
  await updateSessionStatus(tx, session.id, {
    status: event.status,
    ...(decided ? { reason: event.reason, reasonCode: event.reasonCode, decidedAt: event.occurredAt } : {}),
  });
  return "applied";
}
