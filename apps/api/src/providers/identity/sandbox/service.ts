import type { SandboxIdentityDecisionBody } from "@salelink/contracts";
import type { Db } from "../../../db/client.ts";
import { AppError, notFound } from "../../../lib/errors.ts";
import { isFinal } from "../../../modules/kyc/events.ts";
import { type IdentitySessionRow, isPlaceholder, ownSession } from "../../../modules/kyc/queries.ts";
import { sandboxIdentityDeliverJob } from "./jobs.ts";
import { sandboxDecision } from "./provider.ts";

export interface SandboxIdentityDeps {
  db: Db;
  pokeJobs(): void;
}

/** The sandbox page's view of one of the account's sessions (404 for anyone else's). */
export async function sandboxSessionOf(
  deps: SandboxIdentityDeps,
  userId: string,
  id: string,
): Promise<IdentitySessionRow> {
  const row = await ownSession(deps.db, userId, id);
  if (row?.provider !== "sandbox" || isPlaceholder(row)) throw notFound("Identity check");
  return row;
}

/** Sends the outcome chosen on the sandbox page as the provider's signed webhook (by a job). */
export async function decideSandboxSession(
  deps: SandboxIdentityDeps,
  userId: string,
  id: string,
  decision: SandboxIdentityDecisionBody,
): Promise<void> {
  const row = await sandboxSessionOf(deps, userId, id);
  if (isFinal(row.status)) throw new AppError("ConflictException", "This identity check is already decided.");
  await sandboxIdentityDeliverJob.enqueue(deps.db, {
    payload: sandboxDecision(row.providerSessionId, decision),
  });
  deps.pokeJobs();
}
