import { sandboxCards } from "@salelink/contracts";
import type { Db } from "../../../db/client.ts";
import { AppError, notFound } from "../../../lib/errors.ts";
import { sandboxDeliverJob } from "./jobs.ts";
import { sandboxEvent } from "./provider.ts";
import { type SandboxPaymentRow, sandboxPaymentById, setSandboxPaymentStatus } from "./queries.ts";

/*
 * The sandbox's card form as a state machine: requires_payment_method (or failed) → succeeded,
 * failed, or requires_action → succeeded or failed. Each outcome but requires_action is reported as
 * a signed event through the payment webhook, like Stripe's.
 */

export interface SandboxPaymentDeps {
  db: Db;
  pokeJobs(): void;
}

export type DeclineReason = "card-declined" | "unknown-test-card" | "authentication-failed";

export type SandboxPaymentResult =
  | { status: "succeeded" }
  | { status: "requires_action" }
  | { status: "declined"; reason: DeclineReason };

async function findPayment(deps: SandboxPaymentDeps, paymentId: string): Promise<SandboxPaymentRow> {
  const payment = await sandboxPaymentById(deps.db, paymentId);
  if (!payment) throw notFound("Payment");
  return payment;
}

async function settle(
  deps: SandboxPaymentDeps,
  paymentId: string,
  outcome: "succeeded" | "failed" | "requires_action",
  reason?: DeclineReason,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const payment = await setSandboxPaymentStatus(tx, paymentId, outcome);
    if (!payment || outcome === "requires_action") return;
    await sandboxDeliverJob.enqueue(tx, {
      event: sandboxEvent(outcome === "succeeded" ? "payment.succeeded" : "payment.failed", {
        paymentId,
        orderId: payment.orderId,
        amountMinor: payment.amountMinor,
        currency: payment.currency,
        ...(reason ? { failureReason: reason } : {}),
      }),
    });
  });
  deps.pokeJobs();
}

/** Pays with a test card: the success card pays, the authentication card asks for the extra step. */
export async function payWithCard(
  deps: SandboxPaymentDeps,
  paymentId: string,
  card: string,
): Promise<SandboxPaymentResult> {
  const payment = await findPayment(deps, paymentId);
  if (payment.status === "succeeded") return { status: "succeeded" };
  if (payment.status !== "requires_payment_method" && payment.status !== "failed") {
    throw new AppError("ConflictException", "This payment cannot be paid again.");
  }
  if (card === sandboxCards.success) {
    await settle(deps, payment.id, "succeeded");
    return { status: "succeeded" };
  }
  if (card === sandboxCards.authenticate) {
    await settle(deps, payment.id, "requires_action");
    return { status: "requires_action" };
  }
  const reason = card === sandboxCards.declined ? "card-declined" : "unknown-test-card";
  await settle(deps, payment.id, "failed", reason);
  return { status: "declined", reason };
}

/** Completes or refuses the extra confirmation step of a payment waiting for it. */
export async function authenticatePayment(
  deps: SandboxPaymentDeps,
  paymentId: string,
  approve: boolean,
): Promise<SandboxPaymentResult> {
  const payment = await findPayment(deps, paymentId);
  if (payment.status === "succeeded") return { status: "succeeded" };
  if (payment.status !== "requires_action") {
    throw new AppError("ConflictException", "This payment is not waiting for a confirmation.");
  }
  if (approve) {
    await settle(deps, payment.id, "succeeded");
    return { status: "succeeded" };
  }
  await settle(deps, payment.id, "failed", "authentication-failed");
  return { status: "declined", reason: "authentication-failed" };
}
