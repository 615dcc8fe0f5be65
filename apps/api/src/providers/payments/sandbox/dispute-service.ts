import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db, DbOrTx } from "../../../db/client.ts";
import { jobKind } from "../../../jobs/index.ts";
import { AppError, notFound } from "../../../lib/errors.ts";
import { isUniqueViolation } from "../../../lib/pg-errors.ts";
import { hashToken } from "../../../lib/tokens.ts";
import { type DisputeEvidence, ProviderRefusedError } from "../types.ts";
import {
  insertSandboxDispute,
  lockSandboxDispute,
  type SandboxDisputeRow,
  sandboxDisputeOfPayment,
  succeededSandboxPayment,
  updateSandboxDispute,
} from "./dispute-queries.ts";
import { sandboxDeliverJob, sandboxDisputeEvent } from "./events.ts";

/*
 * The sandbox's card issuer (issue 32): it disputes a payment when the buyer asks it to (the order
 * page's sandbox control) or a test card says so, takes the evidence, and decides when an operator
 * presses its sandbox buttons. Each change is reported as Stripe reports disputes: the whole dispute,
 * signed, through the payment webhook.
 */

/** The dispute test card's payment is disputed a moment after it succeeds. */
export const sandboxDisputeLaterJob = jobKind(
  "payments.sandbox-dispute-later",
  z.object({ paymentId: z.string(), feeMinor: z.number().int().min(0) }),
);
export const SANDBOX_DISPUTE_AFTER_MS = 2000;
/** How long the sandbox's issuer takes evidence, as card networks allow about a week. */
const EVIDENCE_DAYS = 7;

/** Reports the dispute as it now stands (delivered by the sandbox's job, signed). */
async function report(db: DbOrTx, row: SandboxDisputeRow): Promise<void> {
  const open = row.status === "needs_response";
  await sandboxDeliverJob.enqueue(db, {
    event: sandboxDisputeEvent({
      disputeId: row.id,
      paymentId: row.paymentId,
      orderId: row.orderId,
      amountMinor: row.amountMinor,
      currency: row.currency,
      reason: row.reason,
      status: row.status,
      evidenceDueBy: open ? row.evidenceDueBy.toISOString() : null,
      // Won: the bank gave the amount back, and the fee with it.
      fundsWithdrawn: row.status !== "won",
      feeMinor: row.status === "won" && row.feeReturned ? 0 : row.feeMinor,
    }),
  });
}

async function open(
  db: DbOrTx,
  payment: { id: string; orderId: string; amountMinor: number; currency: SandboxDisputeRow["currency"] },
  reason: string,
  feeMinor: number,
): Promise<SandboxDisputeRow> {
  if (await sandboxDisputeOfPayment(db, payment.id)) throw alreadyDisputed();
  const row = await insertSandboxDispute(db, {
    id: `sbx_dp_${randomBytes(12).toString("base64url")}`,
    paymentId: payment.id,
    orderId: payment.orderId,
    amountMinor: payment.amountMinor,
    currency: payment.currency,
    reason,
    status: "needs_response",
    feeMinor,
    evidenceDueBy: new Date(Date.now() + EVIDENCE_DAYS * 86_400_000),
  });
  await report(db, row);
  return row;
}

const alreadyDisputed = () => new AppError("ConflictException", "This payment is already disputed.");

/** The buyer disputes their payment with their bank (the sandbox control of the order page). */
export async function disputeByOrderToken(
  db: DbOrTx,
  token: string,
  reason: string,
  feeMinor: number,
): Promise<{ disputeId: string }> {
  const payment = await succeededSandboxPayment(db, { accessTokenHash: hashToken(token) });
  if (!payment) throw notFound("Order");
  return { disputeId: (await open(db, payment, reason, feeMinor)).id };
}

/** The dispute test card: its payment is disputed now (the job, a moment after it succeeded). */
export async function disputeLater(db: DbOrTx, paymentId: string, feeMinor: number): Promise<void> {
  const payment = await succeededSandboxPayment(db, { paymentId });
  if (!payment || (await sandboxDisputeOfPayment(db, paymentId))) return;
  await open(db, payment, "fraudulent", feeMinor);
}

/** The provider's side of `submitDisputeEvidence`: taken once, while the bank waits for it. */
export async function submitSandboxEvidence(
  db: DbOrTx,
  disputeId: string,
  evidence: DisputeEvidence,
): Promise<void> {
  const row = await lockSandboxDispute(db, disputeId);
  if (!row) throw new ProviderRefusedError(`No such dispute: ${disputeId}`);
  // Sent again with the same key after a crash: the first submission stands.
  if (row.submittedAt !== null) return;
  if (row.status !== "needs_response")
    throw new ProviderRefusedError("This dispute is closed: it no longer takes evidence.");
  const submitted = await updateSandboxDispute(db, row.id, {
    evidence: Object.fromEntries(Object.entries(evidence).filter(([, v]) => typeof v === "string")),
    submittedAt: new Date(),
    status: "under_review",
  });
  await report(db, submitted);
}

/** The bank decides (the sandbox's operator control): won gives the amount and the fee back. */
export async function decideSandboxDispute(
  db: DbOrTx,
  disputeId: string,
  outcome: "won" | "lost",
): Promise<void> {
  const row = await lockSandboxDispute(db, disputeId);
  if (!row) throw notFound("Dispute");
  if (row.status === "won" || row.status === "lost")
    throw new AppError("ConflictException", "This dispute is already decided.");
  const decided = await updateSandboxDispute(db, row.id, { status: outcome, feeReturned: outcome === "won" });
  await report(db, decided);
}

/** The routes' transactions: each change and its report commit together. */
export const sandboxDisputes = {
  byOrderToken: async (db: Db, token: string, reason: string, feeMinor: number) => {
    try {
      return await db.transaction((tx) => disputeByOrderToken(tx, token, reason, feeMinor));
    } catch (error) {
      // The same payment disputed twice at once: the unique index lets one through.
      if (isUniqueViolation(error, "sandbox_disputes_payment_idx")) throw alreadyDisputed();
      throw error;
    }
  },
  decide: (db: Db, disputeId: string, outcome: "won" | "lost") =>
    db.transaction((tx) => decideSandboxDispute(tx, disputeId, outcome)),
};
