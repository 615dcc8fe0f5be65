import type { Config } from "../../config.ts";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { AppError } from "../../lib/errors.ts";
import type { PayoutProvider } from "../../providers/payouts/types.ts";
import { isSuspended } from "../admin/accounts/queries.ts";
import { inDebt } from "../wallet/debts/service.ts";
import { post } from "../wallet/ledger.ts";
import { payoutFailed, payoutPaid, payoutReturned } from "../wallet/payout-postings.ts";
import { queuePayoutNotice } from "./notices.ts";
import {
  lockPayoutRow,
  type PayoutRow,
  setBankReference,
  setFailed,
  setHeldRules,
  setPaid,
  setProcessing,
} from "./queries.ts";
import { payoutReference } from "./reference.ts";
import { type RiskSettings, rulesHolding } from "./risk.ts";
import { insertStep } from "./steps-queries.ts";
import { queueSubmission } from "./submit-job.ts";

/*
 * A payout's transitions, each with its timeline step in its own transaction (issue 23): decided by
 * the risk rules when created, approved, sent, paid or failed. Each locks the payout's row and
 * checks its status under the lock.
 */

export const payoutNotFound = () => new AppError("NotFoundException", "This payout was not found.");

/**
 * A new payout (requested or scheduled), in the transaction that created it: held with the rules
 * that hold it, e-mailing the creator why, or approved by the rules and on its way to the provider.
 */
export async function decide(
  tx: Tx,
  config: RiskSettings & Pick<Config, "PLATFORM_NAME">,
  provider: PayoutProvider,
  row: PayoutRow,
): Promise<{ row: PayoutRow; queued: boolean }> {
  const rules = await rulesHolding(tx, config, row);
  if (rules.length > 0) {
    const held = (await setHeldRules(tx, row.id, rules)) ?? row;
    await insertStep(tx, row.id, "held", { rules });
    await queuePayoutNotice(tx, row.id, "held");
    return { row: held, queued: true };
  }
  return approveRow(tx, config, provider, row, "rules");
}

export async function lockPayout(tx: Tx, id: string): Promise<PayoutRow> {
  const row = await lockPayoutRow(tx, id);
  if (!row) throw payoutNotFound();
  return row;
}

const facts = (row: PayoutRow) => ({
  payoutId: row.id,
  userId: row.userId,
  currency: row.currency,
  amountMinor: row.amountMinor,
});

/** processing → paid: the money leaves in transit for the bank. */
export async function markPaid(tx: DbOrTx, row: PayoutRow, at = new Date()): Promise<void> {
  await setPaid(tx, row.id, at);
  await post(tx, payoutPaid(facts(row)));
  // The step is when we learnt it: a provider's own time (to the second) may precede our "sent".
  await insertStep(tx, row.id, "paid", row.bankReference ? { bankReference: row.bankReference } : {});
}

/**
 * requested or processing → failed: the amount returns to available, and the creator is e-mailed
 * the reason and what to do (an operator's refusal is told as the operator's reason).
 */
export async function markFailed(
  tx: DbOrTx,
  row: PayoutRow,
  reason: string,
  at = new Date(),
  options: { byOperator?: boolean } = {},
): Promise<void> {
  await setFailed(tx, row.id, reason, at);
  await post(tx, payoutFailed(facts(row)));
  await insertStep(tx, row.id, "failed", { reason });
  await queuePayoutNotice(tx, row.id, "failed", options.byOperator ?? false);
}

/**
 * paid → failed: the bank sent a paid payout back (Stripe reports payout.failed after payout.paid
 * when the bank returns the money days later). Its money returns to available, once, and the creator
 * is told, as for a failure.
 */
export async function markReturned(
  tx: DbOrTx,
  row: PayoutRow,
  reason: string,
  at = new Date(),
): Promise<void> {
  await setFailed(tx, row.id, reason, at);
  await post(tx, payoutReturned(facts(row)));
  await insertStep(tx, row.id, "failed", { reason });
  await queuePayoutNotice(tx, row.id, "failed");
}

/** processing → (still processing) sent: the provider accepted it; what the bank statement shows. */
export async function markSent(tx: DbOrTx, row: PayoutRow, bankReference: string): Promise<void> {
  await setBankReference(tx, row.id, bankReference);
  await insertStep(tx, row.id, "sent", { bankReference });
}

/** A suspended account's payouts stop (issue 8); failing one stays possible, it returns the money. */
async function refuseSuspendedPayee(tx: Tx, row: PayoutRow): Promise<void> {
  if (await isSuspended(tx, row.userId))
    throw new AppError(
      "ConflictException",
      "This account is suspended: its payouts cannot go ahead until it is reinstated.",
    );
}

/**
 * requested → processing, with its step. The bank reference is fixed here (the operator's transfer
 * or the provider's submission carries it); a provider that pays by itself gets its submission
 * queued in the same transaction. Answers whether a job was queued.
 */
async function approveRow(
  tx: Tx,
  config: Pick<Config, "PLATFORM_NAME">,
  provider: PayoutProvider,
  row: PayoutRow,
  by: "rules" | "admin",
): Promise<{ row: PayoutRow; queued: boolean }> {
  const now = new Date();
  await setBankReference(tx, row.id, payoutReference(config, row.id));
  const updated = await setProcessing(tx, row.id, now);
  if (!updated) throw payoutNotFound();
  await insertStep(tx, row.id, "approved", { by }, now);
  if (provider.kind === "manual") return { row: updated, queued: false };
  await queueSubmission(tx, row.id);
  return { row: updated, queued: true };
}

/** requested → processing: approved by an operator, to be paid by hand or submitted to Stripe. */
export async function approve(
  tx: Tx,
  config: Pick<Config, "PLATFORM_NAME">,
  provider: PayoutProvider,
  id: string,
): Promise<{ row: PayoutRow; queued: boolean }> {
  const row = await lockPayout(tx, id);
  if (row.status !== "requested")
    throw new AppError("ConflictException", "Only a requested payout can be approved.");
  await refuseSuspendedPayee(tx, row);
  if (await inDebt(tx, row.userId))
    throw new AppError(
      "ConflictException",
      "This account owes money from a refund or a dispute: its payouts wait until the debt is repaid or written off.",
    );
  if (row.provider !== provider.kind)
    throw new AppError("ConflictException", "This payout was requested through another payout provider.");
  return approveRow(tx, config, provider, row, "admin");
}

/** processing → paid, by an operator: only for payouts made by hand (Stripe reports its own). */
export async function confirmPaid(tx: Tx, id: string): Promise<void> {
  const row = await lockPayout(tx, id);
  if (row.provider !== "manual")
    throw new AppError("ConflictException", "Stripe reports this payout's outcome itself.");
  if (row.status !== "processing")
    throw new AppError("ConflictException", "Only a payout being processed can be marked paid.");
  await refuseSuspendedPayee(tx, row);
  await markPaid(tx, row);
}

/** requested or processing → failed, by an operator. */
export async function failByOperator(tx: Tx, id: string, reason: string): Promise<void> {
  const row = await lockPayout(tx, id);
  if (row.status !== "requested" && row.status !== "processing")
    throw new AppError("ConflictException", "Only a requested or processing payout can be failed.");
  // Once Stripe holds a payout, failing it here could pay it twice: its outcome comes from Stripe.
  if (row.providerPayoutId !== null)
    throw new AppError("ConflictException", "Stripe reports this payout's outcome itself.");
  await markFailed(tx, row, reason, new Date(), { byOperator: true });
}
