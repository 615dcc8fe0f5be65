import { sandboxCardCountries, sandboxCards } from "@salelink/contracts";
import type { Db, Tx } from "../../../db/client.ts";
import { AppError, notFound } from "../../../lib/errors.ts";
import { SANDBOX_DISPUTE_AFTER_MS, sandboxDisputeLaterJob } from "./dispute-service.ts";
import { sandboxDeliverJob } from "./jobs.ts";
import { sandboxEvent } from "./provider.ts";
import {
  type SandboxPaymentRow,
  sandboxPaymentById,
  setSandboxPaymentAmount,
  setSandboxPaymentStatus,
} from "./queries.ts";

/*
 * The sandbox's card form as a state machine: requires_payment_method (or failed) → succeeded,
 * failed, or requires_action → succeeded or failed. Each outcome but requires_action is reported as
 * a signed event through the payment webhook, like Stripe's.
 */

export interface SandboxPaymentDeps {
  db: Db;
  pokeJobs(): void;
  /** The fee the sandbox's issuer charges for a dispute (the dispute test card's). */
  disputeFeeMinor: number;
  /**
   * The card's issuing country, before the charge (issue 22): the checkout decides the VAT with it,
   * asks the buyer which country is theirs, or changes the amount (VAT added for another country).
   */
  cardCountry(
    orderId: string,
    country: string | null,
    confirmed: string | null,
  ): Promise<{ needs: { billing: string; card: string } } | { amountMinor: number } | null>;
}

export type DeclineReason = "card-declined" | "unknown-test-card" | "authentication-failed";

export type SandboxPaymentResult =
  | { status: "succeeded" }
  | { status: "requires_action" }
  | { status: "needs_country"; countries: { billing: string; card: string } }
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
  andThen?: (tx: Tx) => Promise<void>,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const payment = await setSandboxPaymentStatus(tx, paymentId, outcome);
    if (!payment || outcome === "requires_action") return;
    await andThen?.(tx);
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
  confirmedCountry: string | null = null,
): Promise<SandboxPaymentResult> {
  const payment = await findPayment(deps, paymentId);
  if (payment.status === "succeeded") return { status: "succeeded" };
  if (payment.status !== "requires_payment_method" && payment.status !== "failed") {
    throw new AppError("ConflictException", "This payment cannot be paid again.");
  }
  const paying =
    card === sandboxCards.authenticate ||
    card in sandboxCardCountries ||
    card === sandboxCards.success ||
    card === sandboxCards.disputed;
  if (paying) {
    // As a card network reports it before the charge: the VAT evidence's second piece.
    const decided = await deps.cardCountry(
      payment.orderId,
      sandboxCardCountries[card] ?? null,
      confirmedCountry,
    );
    if (decided && "needs" in decided) return { status: "needs_country", countries: decided.needs };
    if (decided && decided.amountMinor !== payment.amountMinor) {
      await setSandboxPaymentAmount(deps.db, payment.id, decided.amountMinor);
    }
  }
  if (card === sandboxCards.success || card in sandboxCardCountries) {
    await settle(deps, payment.id, "succeeded");
    return { status: "succeeded" };
  }
  if (card === sandboxCards.disputed) {
    // Paid, then disputed by the buyer's bank a moment later (issue 32), like Stripe's test card.
    await settle(deps, payment.id, "succeeded", undefined, async (tx) => {
      await sandboxDisputeLaterJob.enqueue(
        tx,
        { paymentId: payment.id, feeMinor: deps.disputeFeeMinor },
        {
          runAt: new Date(Date.now() + SANDBOX_DISPUTE_AFTER_MS),
          dedupeKey: `sandbox-dispute:${payment.id}`,
        },
      );
    });
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
