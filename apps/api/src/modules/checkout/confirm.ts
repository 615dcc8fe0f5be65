import type { CheckoutConfirmBody } from "@salelink/contracts";
import { AppError } from "../../lib/errors.ts";
import { StripeRequestError } from "../../providers/payments/stripe.ts";
import type { ServerConfirmation } from "../../providers/payments/types.ts";
import { applyCardCountry, orderBySecret } from "./service.ts";
import type { CheckoutDeps } from "./types.ts";
import { checkoutVat } from "./vat.ts";

export type ConfirmOutcome =
  | ServerConfirmation
  | { status: "needs_country"; countries: { billing: string; card: string } };

/**
 * Confirms a Stripe checkout on the server (decision 040): reads the card's issuing country from
 * the buyer's ConfirmationToken, decides the VAT with it and the billing country (or answers the
 * question for the buyer), sets the payment's amount to the order's total, then confirms with the
 * same token. The outcome is applied later by the provider's webhook, as for every payment.
 */
export async function confirmCheckout(deps: CheckoutDeps, orderId: string, body: CheckoutConfirmBody) {
  const confirming = deps.payments.serverConfirmation;
  if (!confirming)
    throw new AppError("ConflictException", "This checkout is paid on the payment provider's own form.");
  const order = await orderBySecret(deps.db, orderId, body.secret);
  const answer = async (outcome: ConfirmOutcome) => {
    const now = await orderBySecret(deps.db, orderId, body.secret);
    return { outcome, total: now.totalMinor, vat: checkoutVat(now) };
  };
  if (order.status === "paid") return answer({ status: "succeeded" });
  // A failed checkout may still be paid: after a declined card, the buyer tries another.
  const unpaid = (status: string) => status === "pending" || status === "failed";
  if (!unpaid(order.status) || !order.providerPaymentId)
    throw new AppError("ConflictException", "This checkout has ended. Please start again from the link.");

  const preview = await provider(() => confirming.readConfirmation(body.confirmationToken));
  const decided = await applyCardCountry(
    deps.db,
    deps.config,
    order.id,
    preview.cardCountry,
    body.country ?? null,
  );
  if (decided && "needs" in decided) return answer({ status: "needs_country", countries: decided.needs });
  const current = await orderBySecret(deps.db, orderId, body.secret);
  if (!unpaid(current.status))
    throw new AppError("ConflictException", "This checkout has ended. Please start again from the link.");
  const paymentId = order.providerPaymentId;
  const outcome = await provider(() =>
    confirming.confirmPayment({
      paymentId,
      token: body.confirmationToken,
      amountMinor: current.totalMinor,
      // One confirmation per token: a retried request replays it, a new card is a new attempt.
      idempotencyKey: `order-${order.id}-confirm-${body.confirmationToken}`,
    }),
  );
  return answer(outcome);
}

/**
 * The provider refused or failed: a token that is unknown, expired or used (the buyer waited, or
 * sent it twice for two checkouts) is the buyer's to enter again; the rest is a 502.
 */
async function provider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (
      error instanceof StripeRequestError &&
      (error.code === "resource_missing" || error.code?.startsWith("confirmation_token"))
    ) {
      throw new AppError(
        "BadRequestException",
        "Your payment details have expired. Please enter them again.",
      );
    }
    const failure = new AppError(
      "PaymentProviderException",
      "The payment could not be completed. Please try again.",
    );
    failure.cause = error;
    throw failure;
  }
}
