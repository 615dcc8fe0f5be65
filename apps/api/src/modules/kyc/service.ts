import {
  type IdentityFormBody,
  type IdentitySession,
  type IdentitySessionStatus,
  type IdentityState,
  identityFormSchema,
  identitySessionRequestSchema,
} from "@salelink/contracts";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Db, Tx } from "../../db/client.ts";
import { AppError, notFound, validation } from "../../lib/errors.ts";
import {
  type IdentityProvider,
  IdentityProviderError,
  type WebhookHeaders,
} from "../../providers/identity/index.ts";
import { type ApplyResult, applyIdentityEvent } from "./events.ts";
import {
  deletePlaceholder,
  deleteStalePlaceholders,
  fillPlaceholder,
  type IdentitySessionRow,
  identityApproved,
  insertPlaceholder,
  isPlaceholder,
  latestSession,
  lockAccount,
  namesOnFile,
  sessionsSince,
} from "./queries.ts";

export interface IdentityDeps {
  db: Db;
  config: Config;
  identity: IdentityProvider;
}

const DAY_MS = 86_400_000;
/** Veriff's sessions can be resumed for 7 days; after that the provider expires them. */
const RESUMABLE_MS = 7 * DAY_MS;
/**
 * A placeholder this old belongs to a request that died while calling the provider (whose calls
 * time out after 15 s): it no longer holds the account's place.
 */
const PLACEHOLDER_STALE_MS = 2 * 60_000;
/** Waiting on the person or on the provider's decision: the session is resumed, not duplicated. */
const UNFINISHED: ReadonlySet<IdentitySessionStatus> = new Set([
  "created",
  "started",
  "submitted",
  "resubmission_requested",
  "review",
]);

const resumable = (row: IdentitySessionRow, now: Date): boolean =>
  !isPlaceholder(row) && UNFINISHED.has(row.status) && now.getTime() - row.createdAt.getTime() < RESUMABLE_MS;

function toSession(row: IdentitySessionRow): IdentitySession {
  return { id: row.id, status: row.status, url: row.url, createdAt: row.createdAt.toISOString() };
}

/** How many sessions the account may still start, and when the next place frees up if none. */
function dailyAllowance(config: Config, recent: IdentitySessionRow[], now: Date) {
  const perDay = config.rules.identitySessionsPerDay;
  const inWindow = recent.filter((row) => now.getTime() - row.createdAt.getTime() < DAY_MS);
  const left = Math.max(0, perDay - inWindow.length);
  if (left > 0) return { perDay, left, nextAt: null };
  // Oldest first: a place frees up when enough of the window's sessions have left it.
  const oldestFirst = [...inWindow].reverse();
  const freeing = oldestFirst[inWindow.length - perDay];
  return { perDay, left, nextAt: freeing ? new Date(freeing.createdAt.getTime() + DAY_MS) : null };
}

export async function identityState(
  deps: IdentityDeps,
  userId: string,
  now = new Date(),
): Promise<IdentityState> {
  const { db, config } = deps;
  const [approved, latest, names, recent] = await Promise.all([
    identityApproved(db, userId),
    latestSession(db, userId),
    namesOnFile(db, userId),
    sessionsSince(db, userId, new Date(now.getTime() - RESUMABLE_MS)),
  ]);
  const allowance = dailyAllowance(config, recent, now);
  const open = recent.find((row) => resumable(row, now)) ?? null;
  let status: IdentityState["status"] = "none";
  if (approved) status = "approved";
  // An unfinished session past its provider's lifetime is over, whether or not the webhook said so.
  else if (latest)
    status = UNFINISHED.has(latest.status) && !resumable(latest, now) ? "expired" : latest.status;
  const reason =
    !approved && latest && (latest.status === "declined" || latest.status === "resubmission_requested")
      ? latest.reason
      : null;
  return {
    status,
    reason,
    session: approved || !open ? null : toSession(open),
    namesOnFile: names !== null,
    sessionsPerDay: allowance.perDay,
    sessionsLeftToday: allowance.left,
    nextSessionAt: allowance.nextAt?.toISOString() ?? null,
    provider: deps.identity.kind,
  };
}

/** "5 h 20 min": when the next session is possible, for the 429 message (same in every language). */
function waitText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

type Reservation =
  | { kind: "resumed"; session: IdentitySession }
  | { kind: "reserved"; id: string; firstName: string; lastName: string; vendorData?: string };

/**
 * Checks the rules and holds the account's place with a placeholder row, all under the account's
 * row lock: two requests of one account never both pass the daily count or both open a session.
 */
async function reserve(deps: IdentityDeps, userId: string, body: IdentityFormBody): Promise<Reservation> {
  const { db, config } = deps;
  return db.transaction(async (tx) => {
    const now = new Date();
    if (!(await lockAccount(tx, userId))) throw notFound("Account");
    await deleteStalePlaceholders(tx, userId, new Date(now.getTime() - PLACEHOLDER_STALE_MS));
    if (await identityApproved(tx, userId))
      throw new AppError("ConflictException", "Your identity is already verified.");
    const recent = await sessionsSince(tx, userId, new Date(now.getTime() - RESUMABLE_MS));
    const open = recent.find((row) => resumable(row, now));
    if (open) return { kind: "resumed", session: toSession(open) };
    if (recent.some(isPlaceholder))
      throw new AppError(
        "ConflictException",
        "Your verification is being prepared. Please try again in a moment.",
      );

    // Names on file win over typed ones: the check must be of the person who onboarded the account
    // (and who is paid), and the form does not show those fields to change them.
    const onFile = await namesOnFile(tx, userId);
    // A name left out is a name not entered: the same message as an empty field.
    const form = identityFormSchema(onFile !== null).safeParse({
      ...body,
      givenName: body.givenName ?? "",
      lastName: body.lastName ?? "",
    });
    if (!form.success) throw validation(z.flattenError(form.error).fieldErrors as Record<string, string[]>);
    const firstName = onFile?.firstName ?? form.data.givenName ?? "";
    const lastName = onFile?.lastName ?? form.data.lastName ?? "";

    const allowance = dailyAllowance(config, recent, now);
    if (allowance.left === 0) {
      const waitMs = (allowance.nextAt?.getTime() ?? now.getTime() + DAY_MS) - now.getTime();
      throw new AppError(
        "RateLimitException",
        "You can start {count} identity checks a day. You can start a new one in {wait}.",
        {
          headers: { "retry-after": String(Math.ceil(waitMs / 1000)) },
          params: { count: allowance.perDay, wait: waitText(waitMs) },
        },
      );
    }
    const vendorData = form.data.vendorData || undefined;
    const row = await insertPlaceholder(tx, {
      userId,
      provider: deps.identity.kind,
      firstName,
      lastName,
      vendorData: vendorData ?? null,
    });
    if (!row) throw new Error("identity session not inserted");
    return { kind: "reserved", id: row.id, firstName, lastName, ...(vendorData ? { vendorData } : {}) };
  });
}

/**
 * POST /identity/sessions: resumes the unfinished session, or opens one at the provider. The
 * provider is called outside the transaction (no lock held over the network); a failed call gives
 * the account its place back.
 */
export async function startSession(
  deps: IdentityDeps,
  userId: string,
  body: IdentityFormBody,
): Promise<IdentitySession & { resumed: boolean }> {
  const reservation = await reserve(deps, userId, body);
  if (reservation.kind === "resumed") return { ...reservation.session, resumed: true };

  const request = identitySessionRequestSchema.parse({
    verification: {
      callback: new URL("/account/wallet?identity=done", deps.config.WEB_ORIGIN).toString(),
      person: { firstName: reservation.firstName, lastName: reservation.lastName },
      ...(reservation.vendorData ? { vendorData: reservation.vendorData } : {}),
      timestamp: new Date().toISOString(),
    },
  });
  let created: Awaited<ReturnType<IdentityProvider["createSession"]>>;
  try {
    created = await deps.identity.createSession(request, { sessionId: reservation.id });
  } catch (error) {
    await deletePlaceholder(deps.db, userId, reservation.id);
    if (error instanceof IdentityProviderError) {
      throw new AppError(
        "PaymentProviderException",
        "The identity check could not be started. Please try again in a few minutes.",
      );
    }
    throw error;
  }
  const row = await fillPlaceholder(deps.db, userId, reservation.id, {
    providerSessionId: created.id,
    url: created.url,
    status: created.status,
  });
  // Gone only if the account was deleted meanwhile.
  if (!row) throw notFound("Account");
  return { ...toSession(row), resumed: false };
}

/** Verifies a delivery and applies its event in `tx`: the one path for Veriff's and the sandbox's. */
export async function receiveIdentityDelivery(
  identity: IdentityProvider,
  tx: Tx,
  rawBody: Buffer,
  headers: WebhookHeaders,
): Promise<ApplyResult> {
  const event = identity.parseWebhook(rawBody, headers);
  if (!event) return "ignored";
  return applyIdentityEvent(tx, identity.kind, event);
}

/** The webhook route's delivery, applied in its own transaction. */
export function receiveIdentityWebhook(
  deps: IdentityDeps,
  rawBody: Buffer,
  headers: WebhookHeaders,
): Promise<ApplyResult> {
  return deps.db.transaction((tx) => receiveIdentityDelivery(deps.identity, tx, rawBody, headers));
}
