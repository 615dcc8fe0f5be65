import { WebhookSignatureError } from "../payments/types.ts";
import type { PayoutProvider, SubmittedPayout } from "./types.ts";

/**
 * The operator pays each approved payout by bank transfer from the platform's bank, then marks it
 * paid (or failed, with the bank's reason) in the admin queue. Nothing is sent anywhere from here;
 * it is a real way of paying, not a sandbox.
 */
export class ManualPayoutProvider implements PayoutProvider {
  readonly kind = "manual" as const;

  async submit(): Promise<SubmittedPayout> {
    return { providerPayoutId: null };
  }

  parseWebhook(): never {
    // No one outside sends manual payouts' outcomes: an admin records them.
    throw new WebhookSignatureError("The manual payout provider has no webhook");
  }
}
