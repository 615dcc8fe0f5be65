import { currencySchema } from "@salelink/contracts";
import Stripe from "stripe";
import { DEFAULT_TOLERANCE_SECONDS } from "../payments/signature.ts";
import { apiAddress, constructStripeEvent } from "../payments/stripe.ts";
import type { PayoutsEnv } from "./env.ts";
import {
  type ConnectedBalance,
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
  manualPayouts: (userId: string) => `salelink-connect-manual-payouts-${userId}`,
  externalAccount: (bankAccountId: string) => `salelink-external-account-${bankAccountId}`,
  transfer: (payoutId: string) => `salelink-payout-transfer-${payoutId}`,
  payout: (payoutId: string) => `salelink-payout-${payoutId}`,
  transferReversal: (payoutId: string) => `salelink-payout-transfer-reversal-${payoutId}`,
};

/** Only a payout we ask for leaves a connected account: Stripe's default schedule pays out daily. */
const MANUAL_PAYOUTS = { payouts: { schedule: { interval: "manual" as const } } };
/** The transfer group of a payout's transfer, by which the transfer is found again. */
const transferGroup = (payoutId: string) => `payout-${payoutId}`;

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
 * events of the connected account, on the Connect webhook endpoint. Connected accounts pay out only
 * when asked (a manual schedule, issue 32): with Stripe's daily default, a transfer could leave for
 * the bank on its own before, or instead of, the payout we make.
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
            settings: MANUAL_PAYOUTS,
            metadata: { userId: payout.userId },
          },
          { idempotencyKey: stripeKeys.account(payout.userId) },
        ),
      );
      accountId = account.id;
      await store.saveConnectAccount(payout.userId, accountId);
      await store.markManualPayouts(payout.userId);
    } else if (!(await store.manualPayoutsSet(payout.userId))) {
      // An account created before schedules were set: told once, and remembered.
      const existing = accountId;
      await this.#call(() =>
        this.#client.accounts.update(
          existing,
          { settings: MANUAL_PAYOUTS },
          { idempotencyKey: stripeKeys.manualPayouts(payout.userId) },
        ),
      );
      await store.markManualPayouts(payout.userId);
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

    const transfer = await this.#call(() =>
      this.#client.transfers.create(
        {
          amount: payout.amountMinor,
          currency,
          destination: connected,
          transfer_group: transferGroup(payout.payoutId),
          metadata: { payoutId: payout.payoutId },
        },
        { idempotencyKey: stripeKeys.transfer(payout.payoutId) },
      ),
    );
    try {
      const created = await this.#call(() =>
        this.#client.payouts.create(
          {
            amount: payout.amountMinor,
            currency,
            destination: bank,
            metadata: { payoutId: payout.payoutId },
          },
          { idempotencyKey: stripeKeys.payout(payout.payoutId), stripeAccount: connected },
        ),
      );
      return { providerPayoutId: created.id };
    } catch (error) {
      if (!(error instanceof PayoutRefusedError)) throw error;
      // Failing the payout gives the money back to the creator's balance: it must not also stay on
      // the connected account. Until the transfer is back, the job retries instead of failing it.
      // The transfer is read again: a replayed creation answers it as it was first made, before any
      // reversal of an earlier attempt.
      try {
        const current = await this.#call(() => this.#client.transfers.retrieve(transfer.id));
        await this.#reverse(current, stripeKeys.transferReversal(payout.payoutId), payout.payoutId);
      } catch (reversal) {
        throw new Error(
          `Stripe refused the payout, and its transfer could not be taken back yet: ${reversal instanceof Error ? reversal.message : String(reversal)}`,
        );
      }
      throw error;
    }
  }

  /**
   * Takes back what is left of the payout's transfer (found by its transfer group), once: the same
   * key each time. Resolves when there was no transfer or it is wholly reversed already. Call it once
   * the payout has failed: while the money is not back on the connected account (a payout on its
   * way) it throws a plain Error, to be retried. PayoutRefusedError when Stripe refuses the reversal
   * otherwise (an operator's case), a plain Error when Stripe is unavailable.
   */
  async reverseTransfer(payout: PayoutSubmission, _store: PayoutProviderStore): Promise<void> {
    const { data } = await this.#call(() =>
      this.#client.transfers.list({ transfer_group: transferGroup(payout.payoutId) }),
    );
    const key = stripeKeys.transferReversal(payout.payoutId);
    // One transfer per payout (its key); should a second exist, each gets a key of its own.
    for (const transfer of data)
      await this.#reverse(transfer, data.length === 1 ? key : `${key}-${transfer.id}`, payout.payoutId);
  }

  /** What a connected account holds that no payout has taken yet, per currency we know. */
  async connectedBalances(accountId: string): Promise<ConnectedBalance[]> {
    const balance = await this.#call(() => this.#client.balance.retrieve({}, { stripeAccount: accountId }));
    const totals = new Map<ConnectedBalance["currency"], number>();
    for (const entry of [...balance.available, ...balance.pending]) {
      const currency = currencySchema.safeParse(entry.currency.toUpperCase());
      if (!currency.success) continue;
      totals.set(currency.data, (totals.get(currency.data) ?? 0) + entry.amount);
    }
    return [...totals]
      .map(([currency, amountMinor]) => ({ currency, amountMinor }))
      .sort((a, b) => a.currency.localeCompare(b.currency));
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

  /**
   * Reverses what is left of a transfer. No amount is sent (Stripe then takes what is left), so a
   * retry with the same key is the same request and replays, even after a partial reversal. Stripe
   * also keeps a refusal under its key for a day: the reversal is asked only once the connected
   * account holds the money again, or a premature try would block the key's later ones.
   */
  async #reverse(transfer: Stripe.Transfer, idempotencyKey: string, payoutId: string): Promise<void> {
    const left = transfer.amount - transfer.amount_reversed;
    if (left <= 0) return;
    const account =
      typeof transfer.destination === "string" ? transfer.destination : transfer.destination?.id;
    if (!account) throw new Error(`Stripe's transfer ${transfer.id} names no connected account`);
    const balance = await this.#call(() => this.#client.balance.retrieve({}, { stripeAccount: account }));
    const available = balance.available
      .filter((entry) => entry.currency === transfer.currency)
      .reduce((sum, entry) => sum + entry.amount, 0);
    if (available < left)
      throw new Error(
        `The ${left} ${transfer.currency} of transfer ${transfer.id} are not back on the connected account yet (${available} available)`,
      );
    await this.#call(() =>
      this.#client.transfers.createReversal(transfer.id, { metadata: { payoutId } }, { idempotencyKey }),
    );
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
