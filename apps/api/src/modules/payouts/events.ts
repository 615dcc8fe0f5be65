import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Tx } from "../../db/client.ts";
import { bankAccounts, payoutEvents, payouts, stripeConnectAccounts } from "../../db/schema/index.ts";
import { type JobRegistry, jobKind } from "../../jobs/index.ts";
import {
  type PayoutEvent,
  type PayoutProvider,
  type PayoutProviderStore,
  PayoutRefusedError,
} from "../../providers/payouts/types.ts";
import { ibanBox } from "./bank-accounts.ts";
import type { PayoutRow } from "./queries.ts";
import { lockPayout, markFailed, markPaid } from "./service.ts";

/** Sends an approved payout to its provider; queued with the approval, retried on passing errors. */
export const submitPayoutJob = jobKind("payouts.submit", z.object({ payoutId: z.uuid() }));

/** What the provider creates remotely is remembered in the job's transaction. */
function storeIn(tx: Tx): PayoutProviderStore {
  return {
    async connectAccountOf(userId) {
      const [row] = await tx
        .select({ accountId: stripeConnectAccounts.accountId })
        .from(stripeConnectAccounts)
        .where(eq(stripeConnectAccounts.userId, userId));
      return row?.accountId ?? null;
    },
    async saveConnectAccount(userId, accountId) {
      await tx.insert(stripeConnectAccounts).values({ userId, accountId }).onConflictDoNothing();
    },
    async saveExternalAccount(bankAccountId, externalAccountId) {
      await tx
        .update(bankAccounts)
        .set({ stripeExternalAccountId: externalAccountId })
        .where(eq(bankAccounts.id, bankAccountId));
    },
  };
}

/**
 * Submits a processing payout, under its row lock: a second run (a retry, another worker, an
 * expired lease) finds it submitted or no longer processing and does nothing. A refusal that a
 * retry cannot change fails the payout, giving the money back; any other error retries the job.
 */
export async function submitPayout(tx: Tx, config: Config, provider: PayoutProvider, payoutId: string) {
  const row = await lockPayout(tx, payoutId);
  if (row.status !== "processing" || row.providerPayoutId !== null) return "skipped" as const;
  if (row.provider !== provider.kind)
    throw new Error(`payout ${row.id} belongs to the ${row.provider} provider, not ${provider.kind}`);
  const [bank] = await tx
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.id, row.bankAccountId ?? ""), eq(bankAccounts.ownerId, row.userId)));
  if (!bank) {
    // Only an account deletion removes it while a payout is open (a bank account alone cannot be).
    await markFailed(tx, row, "The bank account was removed before the payout was sent.");
    return "failed" as const;
  }
  try {
    const submitted = await provider.submit(
      { payoutId: row.id, userId: row.userId, amountMinor: row.amountMinor, currency: row.currency },
      {
        bankAccountId: bank.id,
        holderName: bank.holderName,
        iban: ibanBox(config).open(bank.ibanSealed),
        country: bank.ibanCountry,
        stripeExternalAccountId: bank.stripeExternalAccountId,
      },
      storeIn(tx),
    );
    if (submitted.providerPayoutId !== null) {
      await tx
        .update(payouts)
        .set({ providerPayoutId: submitted.providerPayoutId, updatedAt: new Date() })
        .where(eq(payouts.id, row.id));
    }
    return "submitted" as const;
  } catch (error) {
    if (!(error instanceof PayoutRefusedError)) throw error;
    await markFailed(tx, row, error.reason);
    return "failed" as const;
  }
}

export function registerPayoutJobs(registry: JobRegistry, config: Config, provider: PayoutProvider): void {
  registry.register(submitPayoutJob, async (tx, { payoutId }) => {
    await submitPayout(tx, config, provider, payoutId);
  });
}

export type ApplyResult = "applied" | "duplicate" | "ignored";

const uuid = z.uuid();

/**
 * Applies a provider's payout outcome once: the event is recorded under its provider id in the same
 * transaction as its effect, so a redelivery changes nothing, and an outcome the payout's status no
 * longer allows (paid twice, failed after paid) is recorded but not acted on.
 */
export async function applyPayoutEvent(
  tx: Tx,
  provider: PayoutProvider,
  event: PayoutEvent,
): Promise<ApplyResult> {
  const [recorded] = await tx
    .insert(payoutEvents)
    .values({ provider: provider.kind, eventId: event.id, type: event.type, payload: event.raw })
    .onConflictDoNothing({ target: [payoutEvents.provider, payoutEvents.eventId] })
    .returning({ id: payoutEvents.id });
  if (!recorded) return "duplicate";

  const ours = event.payoutId && uuid.safeParse(event.payoutId).success ? event.payoutId : null;
  const [found] = await tx
    .select({ id: payouts.id })
    .from(payouts)
    .where(
      and(
        eq(payouts.provider, provider.kind),
        ours ? eq(payouts.id, ours) : eq(payouts.providerPayoutId, event.providerPayoutId),
      ),
    );
  if (!found) return "ignored";
  const row: PayoutRow = await lockPayout(tx, found.id);
  await tx.update(payoutEvents).set({ payoutId: row.id }).where(eq(payoutEvents.id, recorded.id));
  // Another payout object than the one we created for it (metadata copied by hand, a test payout).
  if (row.providerPayoutId !== null && row.providerPayoutId !== event.providerPayoutId) return "ignored";
  if (event.account !== null) {
    const [connected] = await tx
      .select({ accountId: stripeConnectAccounts.accountId })
      .from(stripeConnectAccounts)
      .where(eq(stripeConnectAccounts.userId, row.userId));
    if (connected?.accountId !== event.account) return "ignored";
  }
  if (row.status !== "processing") return "ignored";
  if (event.type === "paid") await markPaid(tx, row, event.createdAt);
  else await markFailed(tx, row, event.failureReason ?? "The bank refused the transfer.", event.createdAt);
  return "applied";
}
