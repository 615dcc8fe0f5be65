import type { Currency, PaymentProviderKind } from "@salelink/contracts";
import type { DbOrTx } from "../../db/client.ts";

/*
 * A payment provider: creates payments and turns its webhook deliveries into provider events. Both
 * implementations (Stripe, and the sandbox the app uses by default) deliver their outcomes through
 * the same signed webhook and the same handler, so what happens after a payment never depends on
 * which provider took it.
 */

export interface CreatePaymentInput {
  orderId: string;
  amountMinor: number;
  currency: Currency;
  buyerEmail: string;
  description: string;
  /** The same key for the same order: a retried checkout never creates a second payment. */
  idempotencyKey: string;
}

export interface CreatedPayment {
  paymentId: string;
  /** For the browser's payment form (Stripe.js); the sandbox has none. */
  clientSecret?: string;
}

export type PaymentEventType = "payment.succeeded" | "payment.failed" | "refund.succeeded";

/** A provider's event, verified and normalised; `id` is the provider's own, unique per provider. */
export interface PaymentEvent {
  id: string;
  type: PaymentEventType;
  paymentId: string;
  /** Our order, from the payment's metadata. */
  orderId: string | null;
  amountMinor: number;
  currency: Currency;
  failureReason?: string;
  /** When the provider says it happened. */
  createdAt: Date;
  /** The raw event, kept with the payment event row for audits. */
  raw: unknown;
}

/**
 * A chargeback (issue 32), as the provider's dispute object stands in the event: every dispute event
 * carries the whole dispute, so applying the latest snapshot is right whatever the order of delivery.
 * `inquiry` is an issuer's question before a chargeback (Stripe's `warning_*`): no money moves.
 */
export type DisputeStatus = "inquiry" | "inquiry_closed" | "needs_response" | "under_review" | "won" | "lost";

export interface DisputeSnapshot {
  /** The provider's id of the dispute. */
  disputeId: string;
  /** The disputed payment (our order's provider payment id). */
  paymentId: string;
  /** Our order, from the payment's metadata, when the provider carries it. */
  orderId: string | null;
  /** The disputed amount: usually the whole payment, sometimes a part. */
  amountMinor: number;
  currency: Currency;
  /** The provider's reason code (fraudulent, product_not_received…). */
  reason: string;
  status: DisputeStatus;
  /** When evidence must reach the provider; null once it no longer takes any. */
  evidenceDueBy: Date | null;
  /** Whether the provider has taken the disputed amount from the platform's balance (and not given it back). */
  fundsWithdrawn: boolean;
  /** The fees the provider took for the dispute, less those it gave back (its balance transactions). */
  feeMinor: number;
}

/** A verified dispute event; `id` is the provider's event id (applied once, like a payment's). */
export interface DisputeEvent {
  id: string;
  type: "dispute";
  dispute: DisputeSnapshot;
  createdAt: Date;
  raw: unknown;
}

/** What a webhook delivery of the payments endpoint can carry. */
export type ProviderEvent = PaymentEvent | DisputeEvent;

/**
 * The evidence the platform holds for a sale (issue 32), in the provider's field names (Stripe's
 * `evidence[...]`): texts only, each at most 20,000 characters.
 */
export interface DisputeEvidence {
  productDescription: string;
  customerEmailAddress: string;
  customerName?: string;
  billingAddress?: string;
  /** The purchase and every delivery and download of the content, with their times. */
  accessActivityLog: string;
  /** The refund window shown to the buyer before paying. */
  refundPolicyDisclosure: string;
  serviceDate: string;
  /** The receipt, the invoice and the VAT evidence, any report, and the creator's note. */
  uncategorizedText: string;
}

export class WebhookSignatureError extends Error {}

/** A provider refused a request for good (asking again cannot change it): the sandbox's refusals. */
export class ProviderRefusedError extends Error {
  readonly retryable = false;
}

/** What a server-side confirmation came to (decision 040). */
export type ServerConfirmation =
  | { status: "succeeded" | "processing" | "requires_action" }
  /** The card was refused; `code` is the provider's (card_declined, expired_card…). */
  | { status: "declined"; code: string | null };

/**
 * A provider whose payments the API confirms itself (Stripe): the browser sends the payment details
 * as a token, the API reads the card's issuing country from it before anything is charged (the
 * second piece of VAT evidence, issue 22), then confirms with that token, so the card charged is the
 * card whose country was read.
 */
export interface ServerConfirmedPayments {
  /** The card's issuing country in the token, or null when the method has none (a wallet, a bank). */
  readConfirmation(token: string): Promise<{ cardCountry: string | null }>;
  /** Sets the amount (VAT may have changed it), then confirms the payment with the token. */
  confirmPayment(input: {
    paymentId: string;
    token: string;
    amountMinor: number;
    idempotencyKey: string;
  }): Promise<ServerConfirmation>;
}

export interface PaymentProvider {
  readonly kind: PaymentProviderKind;
  /** Stripe.js's publishable key (Stripe only). */
  readonly publishableKey?: string;
  /** Present when the API confirms payments itself (Stripe); the sandbox has its own card form. */
  readonly serverConfirmation?: ServerConfirmedPayments;
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  /**
   * Verifies a webhook delivery from its raw bytes and headers (signature, timestamp within the
   * tolerance) and answers its event, or null for an event type we do not act on. Throws
   * WebhookSignatureError when the delivery is not authentic.
   */
  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): ProviderEvent | null;
  /**
   * Refunds a payment in full; the same idempotency key is one refund. `db` is the caller's
   * transaction, for a provider that keeps its own rows (the sandbox): a job runs inside one.
   */
  refund(
    input: { paymentId: string; amountMinor: number; idempotencyKey: string },
    db?: DbOrTx,
  ): Promise<void>;
  /**
   * Sends a dispute's evidence and submits it (no later change is possible): the same idempotency
   * key is one submission. `db` as for `refund`.
   */
  submitDisputeEvidence(
    input: { disputeId: string; evidence: DisputeEvidence; idempotencyKey: string },
    db?: DbOrTx,
  ): Promise<void>;
}
