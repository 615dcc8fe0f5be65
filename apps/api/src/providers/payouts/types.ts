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

/** What every kind of destination carries: the bank account as saved, and the one currency it takes. */
interface DestinationAccount {
  bankAccountId: string;
  holderName: string;
  /** Where the bank is (ISO 3166 alpha-2): the IBAN's country, GB or US. */
  country: string;
  currency: Currency;
  /** The provider's own record of this account, once created (Stripe Connect's external account). */
  stripeExternalAccountId: string | null;
}

/**
 * Where the money goes, with the account's number opened for this call only (issue 23): an IBAN (the
 * 30 countries and Switzerland), a British account (sort code and account number) or an American one
 * (ABA routing number, account number, checking or savings).
 */
export type PayoutDestination =
  | (DestinationAccount & { kind: "iban"; iban: string; bic: string | null })
  | (DestinationAccount & { kind: "gb"; sortCode: string; accountNumber: string })
  | (DestinationAccount & {
      kind: "us";
      routingNumber: string;
      accountNumber: string;
      accountType: "checking" | "savings";
    });

/**
 * Where a provider keeps what it created remotely for a user or a bank account, in the caller's
 * transaction: the payouts module owns the tables, the provider only names what to remember.
 */
export interface PayoutProviderStore {
  connectAccountOf(userId: string): Promise<string | null>;
  saveConnectAccount(userId: string, accountId: string): Promise<void>;
  saveExternalAccount(bankAccountId: string, externalAccountId: string): Promise<void>;
  /**
   * Stripe Connect (issue 32): whether the user's connected account was told to pay out only when
   * asked (a manual payout schedule), and noting that it now has been.
   */
  manualPayoutsSet(userId: string): Promise<boolean>;
  markManualPayouts(userId: string): Promise<void>;
  /** The sandbox's bank: its answer to a submitted payout arrives later, queued in this transaction. */
  bankAnswersLater(
    outcome: { providerPayoutId: string; payoutId: string; type: "paid" | "failed"; failureReason?: string },
    afterMs: number,
  ): Promise<void>;
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

/** A connected account's balance in one currency (Stripe Connect), for the reconciliation job. */
export interface ConnectedBalance {
  currency: Currency;
  /** Available and pending together: what the account holds that no payout has taken yet. */
  amountMinor: number;
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
  /**
   * Stripe Connect only (issue 32): takes a payout's transfer back from the connected account to
   * the platform, wholly, once (an idempotency key of the payout's): called before a payout that
   * failed after its transfer is marked failed, so the money is not both back in the creator's
   * balance and on the connected account. Resolves when nothing was transferred.
   */
  reverseTransfer?(payout: PayoutSubmission, store: PayoutProviderStore): Promise<void>;
  /** Stripe Connect only: what a connected account holds, per currency (reconciliation). */
  connectedBalances?(accountId: string): Promise<ConnectedBalance[]>;
}
