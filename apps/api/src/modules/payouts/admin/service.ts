import type { AdminPayout } from "@salelink/contracts";
import type { Config } from "../../../config.ts";
import type { Db } from "../../../db/client.ts";
import { AppError } from "../../../lib/errors.ts";
import type { PayoutProvider } from "../../../providers/payouts/types.ts";
import { audit } from "../../audit/queries.ts";
import { approve, confirmPaid, failByOperator } from "../transitions.ts";
import { adminPayoutById, adminPayouts } from "./queries.ts";

/*
 * The operators' payout queue. Every transition locks the payout's row and checks its status under
 * the lock: repeating one (a double click, two operators) changes nothing and answers 409 with the
 * reason, so the second caller learns that someone else already moved it. Each is audited in its
 * own transaction.
 */

export const listAdminPayouts = (db: Db, query: Parameters<typeof adminPayouts>[1]) =>
  adminPayouts(db, query);

export async function adminPayoutView(db: Db, id: string): Promise<AdminPayout> {
  const payout = await adminPayoutById(db, id);
  if (!payout) throw new AppError("NotFoundException", "This payout was not found.");
  return payout;
}

/**
 * requested → processing, audited, with the timeline's approved step (by an operator); with a
 * provider that pays by itself, its submission is queued with the approval. Answers whether a job
 * was queued (the caller wakes the worker).
 */
export async function approvePayout(
  db: Db,
  config: Pick<Config, "PLATFORM_NAME">,
  provider: PayoutProvider,
  actorId: string,
  id: string,
  reason: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { queued } = await approve(tx, config, provider, id);
    await audit(tx, { actorId, action: "payout.approve", targetType: "payout", targetId: id, reason });
    return queued;
  });
}

/** processing → paid by an operator (manual provider), audited. */
export async function recordPayoutPaid(db: Db, actorId: string, id: string, reason: string): Promise<void> {
  await db.transaction(async (tx) => {
    await confirmPaid(tx, id);
    await audit(tx, { actorId, action: "payout.paid", targetType: "payout", targetId: id, reason });
  });
}

/**
 * requested or processing → failed by an operator, audited: the amount returns to available and the
 * creator is e-mailed the operator's reason (it is theirs to read: written for the creator).
 */
export async function failPayout(db: Db, actorId: string, id: string, reason: string): Promise<void> {
  await db.transaction(async (tx) => {
    await failByOperator(tx, id, reason);
    await audit(tx, { actorId, action: "payout.fail", targetType: "payout", targetId: id, reason });
  });
}
