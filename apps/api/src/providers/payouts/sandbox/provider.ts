import { WebhookSignatureError } from "../../payments/types.ts";
import type {
  PayoutDestination,
  PayoutProvider,
  PayoutProviderStore,
  PayoutSubmission,
  SubmittedPayout,
} from "../types.ts";

/**
 * The account numbers (IBAN or account number) whose last four are these are refused by the
 * sandbox's bank, as Stripe's test account 000111111116 is: the failure path, on purpose.
 */
export const SANDBOX_FAILING_LAST4 = "1116";

const lastFour = (destination: PayoutDestination) =>
  (destination.kind === "iban" ? destination.iban : destination.accountNumber).slice(-4);

/**
 * The default payout provider of a development run (decision 041): nothing leaves, the sandbox's
 * bank answers after `settleAfterMs` through the same path as Stripe's webhook (the payout is paid,
 * or failed with the bank's reason for the failing test account). Labelled on screen; production
 * refuses it unless ALLOW_SANDBOX_PROVIDERS.
 */
export class SandboxPayoutProvider implements PayoutProvider {
  readonly kind = "sandbox" as const;

  constructor(private readonly settleAfterMs: number) {}

  async submit(
    payout: PayoutSubmission,
    destination: PayoutDestination,
    store: PayoutProviderStore,
  ): Promise<SubmittedPayout> {
    // Ours, derived from the payout: submitting it again names the same remote payout.
    const providerPayoutId = `sbx_po_${payout.payoutId}`;
    const fails = lastFour(destination) === SANDBOX_FAILING_LAST4;
    await store.bankAnswersLater(
      fails
        ? {
            providerPayoutId,
            payoutId: payout.payoutId,
            type: "failed",
            failureReason: "The bank could not find this account (sandbox test account ending 1116).",
          }
        : { providerPayoutId, payoutId: payout.payoutId, type: "paid" },
      this.settleAfterMs,
    );
    return { providerPayoutId };
  }

  parseWebhook(): never {
    // Its bank's answers are jobs of this process (sandbox/jobs.ts), never deliveries from outside.
    throw new WebhookSignatureError("The sandbox payout provider has no webhook");
  }
}
