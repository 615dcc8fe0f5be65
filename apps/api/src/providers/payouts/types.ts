import type { Currency, PayoutProviderKind } from "@salelink/contracts";

/*
 * A payout provider moves an approved payout's money to the creator's bank. The ledger and the
 * payout's status never depend on which one: both report an outcome (paid, or failed with a reason)
 * that the payouts module applies once.
 */

export interface PayoutSubmission {
  /** Ours; every remote object is keyed on it, so submitting the same payout again creates nothing. */
  payoutId: string;
  userId: string;
  amountMinor: number;
  currency: Currency;
}

/** Where the money goes: the bank account as saved, with its IBAN opened for this call only. */
export interface PayoutDestination {
  bankAccountId: string;
  holderName: string;
  iban: string;
  country: string;
  /** The provider's own record of this IBAN, once created (Stripe Connect's external account). */
  stripeExternalAccountId: string | null;
}

/**
 * Where a provider keeps what it created remotely for a user or a bank account, in the caller's
 * transaction: the payouts module owns the tables, the provider only names what to remember.
 */
export interface PayoutProviderStore {
  connectAccountOf(userId: string): Promise<string | null>;
  saveConnectAccount(userId: string, accountId: string): Promise<void>;
  saveExternalAccount(bankAccountId: string, externalAccountId: string): Promise<void>;
}

export interface SubmittedPayout {
  /** The provider's id of the payout; null when nothing remote exists (the manual provider). */
  providerPayoutId: string | null;
}

/** A provider's payout outcome, verified and normalised; `id` is the provider's event id. */
export interface PayoutEvent {
  id: string;
  type: "paid" | "failed";
  providerPayoutId: string;
  /** Ours, from the payout's metadata. */
  payoutId: string | null;
  /** The connected account the event happened on (Stripe Connect). */
  account: string | null;
  failureReason?: string;
  createdAt: Date;
  /** The raw event, kept with the payout event row for audits. */
  raw: unknown;
}

/**
 * The provider refused the payout for good (an invalid IBAN, a closed account, a parameter it will
 * never accept): retrying cannot help, so the payout fails with this reason and the money returns.
 * Any other error is taken as passing (network, rate limit, outage) and the submission is retried.
 */
export class PayoutRefusedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "PayoutRefusedError";
  }
}

export interface PayoutProvider {
  readonly kind: PayoutProviderKind;
  /**
   * Sends an approved payout on its way. Idempotent: the same payout submitted again (a retried job,
   * two workers) answers the same provider payout and creates nothing new.
   */
  submit(
    payout: PayoutSubmission,
    destination: PayoutDestination,
    store: PayoutProviderStore,
  ): Promise<SubmittedPayout>;
  /**
   * Verifies a webhook delivery from its raw bytes and headers and answers its payout outcome, or
   * null for an event we do not act on. Throws WebhookSignatureError when it is not authentic.
   */
  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): PayoutEvent | null;
}
