import Stripe from "stripe";
import { DEFAULT_TOLERANCE_SECONDS } from "../payments/signature.ts";
import { apiAddress, constructStripeEvent } from "../payments/stripe.ts";
import type { PayoutsEnv } from "./env.ts";
import {
  type PayoutDestination,
  type PayoutEvent,
  type PayoutProvider,
  type PayoutProviderStore,
  PayoutRefusedError,
  type PayoutSubmission,
  type SubmittedPayout,
} from "./types.ts";

/** A payout job can wait: longer than a checkout, far shorter than the job's lease. */
const DEFAULT_TIMEOUT_MS = 30_000;

export interface StripeConnectOptions {
  secretKey: string;
  /** The Connect endpoint's signing secret: connected accounts' events come signed with it. */
  webhookSecret: string;
  /** Stripe's API address; only set to talk to a local fake (tests). */
  apiUrl?: string;
  toleranceSeconds?: number;
  timeoutMs?: number;
}

export function stripeConnectOptions(env: PayoutsEnv): StripeConnectOptions {
  // payoutsEnvSchema already requires them; checked again so a half-built env fails loudly here.
  if (!env.STRIPE_SECRET_KEY || !env.STRIPE_CONNECT_WEBHOOK_SECRET)
    throw new Error(
      "STRIPE_SECRET_KEY and STRIPE_CONNECT_WEBHOOK_SECRET are required when PAYOUT_PROVIDER is stripe",
    );
  return {
    secretKey: env.STRIPE_SECRET_KEY,
    webhookSecret: env.STRIPE_CONNECT_WEBHOOK_SECRET,
    apiUrl: env.STRIPE_API_URL,
  };
}

/*
 * Idempotency keys, derived from our own ids: a retried or concurrent submission replays Stripe's
 * first answer instead of creating a second account, bank account, transfer or payout. Stripe keeps
 * keys for at least 24 hours, longer than the job's retries last; the account and the bank account
 * are also remembered in our tables once created, so later payouts do not depend on the keys.
 */
export const stripeKeys = {
  account: (userId: string) => `salelink-connect-account-${userId}`,
  externalAccount: (bankAccountId: string) => `salelink-external-account-${bankAccountId}`,
  transfer: (payoutId: string) => `salelink-payout-transfer-${payoutId}`,
  payout: (payoutId: string) => `salelink-payout-${payoutId}`,
};

/** Stripe's bank account parameters, plus the US account type, which the SDK's types leave out. */
type ExternalBankAccount = Stripe.AccountCreateExternalAccountParams.BankAccount & {
  account_type?: "checking" | "savings";
};

/**
 * The destination as Stripe's external bank account, in the destination's currency (each currency
 * is paid to its own external account): an IBAN as the account number alone; a British account as
 * sort code and account number; an American one as ABA routing number, account number and type.
 */
export function externalBankAccount(destination: PayoutDestination): ExternalBankAccount {
  const common = {
    object: "bank_account" as const,
    country: destination.country,
    currency: destination.currency.toLowerCase(),
    account_holder_name: destination.holderName,
    account_holder_type: "individual",
  };
  if (destination.kind === "iban") return { ...common, account_number: destination.iban };
  if (destination.kind === "gb")
    return { ...common, routing_number: destination.sortCode, account_number: destination.accountNumber };
  return {
    ...common,
    routing_number: destination.routingNumber,
    account_number: destination.accountNumber,
    account_type: destination.accountType,
  };
}

/**
 * Stripe Connect with Custom accounts: the platform creates and controls each creator's connected
 * account, attaches each of the creator's bank accounts as an external account in that account's
 * currency, transfers the amount from the platform's balance in the payout's currency and pays it
 * out to the external account of that currency. Outcomes come back as `payout.paid` / `payout.failed`
 * events of the connected account, on the Connect webhook endpoint.
 */
export class StripeConnectPayoutProvider implements PayoutProvider {
  readonly kind = "stripe" as const;
  readonly #client: Stripe;
  readonly #secretKey: string;
  readonly #webhookSecret: string;
  readonly #toleranceSeconds: number;

  constructor(options: StripeConnectOptions) {
    this.#secretKey = options.secretKey;
    this.#webhookSecret = options.webhookSecret;
    this.#toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    this.#client = new Stripe(options.secretKey, {
      // One network retry with the same idempotency key; anything more is the job's own retry.
      maxNetworkRetries: 1,
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      ...(options.apiUrl ? apiAddress(options.apiUrl) : {}),
    });
  }

  async submit(
    payout: PayoutSubmission,
    destination: PayoutDestination,
    store: PayoutProviderStore,
  ): Promise<SubmittedPayout> {
    // Before anything moves: a transfer in one currency could not be paid out to the other's account.
    if (destination.currency !== payout.currency)
      throw new PayoutRefusedError(
        `The bank account takes ${destination.currency}, not ${payout.currency}: a ${payout.currency} payout needs an account in ${payout.currency}.`,
      );
    const currency = payout.currency.toLowerCase();
    let accountId = await store.connectAccountOf(payout.userId);
    if (!accountId) {
      const account = await this.#call(() =>
        this.#client.accounts.create(
          {
            type: "custom",
            country: destination.country,
            business_type: "individual",
            capabilities: { transfers: { requested: true } },
            metadata: { userId: payout.userId },
          },
          { idempotencyKey: stripeKeys.account(payout.userId) },
        ),
      );
      accountId = account.id;
      await store.saveConnectAccount(payout.userId, accountId);
    }
    const connected = accountId;

    let externalAccountId = destination.stripeExternalAccountId;
    if (!externalAccountId) {
      const external = await this.#call(() =>
        this.#client.accounts.createExternalAccount(
          connected,
          {
            external_account: externalBankAccount(destination),
            metadata: { bankAccountId: destination.bankAccountId },
          },
          { idempotencyKey: stripeKeys.externalAccount(destination.bankAccountId) },
        ),
      );
      externalAccountId = external.id;
      await store.saveExternalAccount(destination.bankAccountId, externalAccountId);
    }
    const bank = externalAccountId;

    await this.#call(() =>
      this.#client.transfers.create(
        {
          amount: payout.amountMinor,
          currency,
          destination: connected,
          transfer_group: `payout-${payout.payoutId}`,
          metadata: { payoutId: payout.payoutId },
        },
        { idempotencyKey: stripeKeys.transfer(payout.payoutId) },
      ),
    );
    const created = await this.#call(() =>
      this.#client.payouts.create(
        { amount: payout.amountMinor, currency, destination: bank, metadata: { payoutId: payout.payoutId } },
        { idempotencyKey: stripeKeys.payout(payout.payoutId), stripeAccount: connected },
      ),
    );
    return { providerPayoutId: created.id };
  }

  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): PayoutEvent | null {
    const event = constructStripeEvent(
      this.#client,
      rawBody,
      headers,
      this.#webhookSecret,
      this.#toleranceSeconds,
    );
    if (event.type !== "payout.paid" && event.type !== "payout.failed") return null;
    const payout = event.data.object;
    const common = {
      id: event.id,
      providerPayoutId: payout.id,
      payoutId: payout.metadata?.payoutId ?? null,
      account: event.account ?? null,
      createdAt: new Date(event.created * 1000),
      raw: event,
    };
    if (event.type === "payout.paid") return { ...common, type: "paid" };
    const reason = payout.failure_message ?? payout.failure_code ?? "The bank refused the transfer.";
    return { ...common, type: "failed", failureReason: reason };
  }

  async #call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw this.#classify(error);
    }
  }

  /** Refusals that a retry cannot change fail the payout; the rest are retried by the job. */
  #classify(error: unknown): Error {
    // Stripe masks keys in its own messages, but a proxy might not: these messages reach logs and
    // the payout's failure reason.
    const safe = (text: string) => text.split(this.#secretKey).join("[redacted]");
    if (!(error instanceof Stripe.errors.StripeError)) {
      return new Error(
        safe(`Stripe request failed: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
    const status = error.statusCode;
    const passing =
      error instanceof Stripe.errors.StripeConnectionError ||
      status === undefined ||
      status === 409 ||
      status === 429 ||
      status >= 500;
    if (passing) return new Error(safe(`Stripe is unavailable (${status ?? "no answer"}): ${error.message}`));
    const code = error.code ? ` (${error.code})` : "";
    return new PayoutRefusedError(safe(`Stripe refused the payout${code}: ${error.message}`));
  }
}
