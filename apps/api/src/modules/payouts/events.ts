import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Db, Tx } from "../../db/client.ts";
import type { JobRegistry } from "../../jobs/index.ts";
import { sandboxPayoutOutcomeJob } from "../../providers/payouts/sandbox/jobs.ts";
import {
  type PayoutEvent,
  type PayoutProvider,
  type PayoutProviderStore,
  PayoutRefusedError,
} from "../../providers/payouts/types.ts";
import { inDebt } from "../wallet/debts/service.ts";
import { ownBankAccount, saveExternalAccount } from "./bank-accounts/queries.ts";
import { payoutDestination } from "./bank-accounts/service.ts";
import { payoutNoticeJob, sendPayoutNotice } from "./notices.ts";
import {
  connectAccountOf,
  linkPayoutEvent,
  manualPayoutsSet,
  markManualPayouts,
  type PayoutRow,
  payoutIdForEvent,
  recordPayoutEvent,
  saveConnectAccount,
  setProviderPayoutId,
} from "./queries.ts";
import { recordMismatch } from "./reconcile.ts";
import { payoutReference } from "./reference.ts";
import { submitPayoutJob } from "./submit-job.ts";
import { lockPayout, markFailed, markPaid, markReturned, markSent } from "./transitions.ts";

export { submitPayoutJob } from "./submit-job.ts";

/** What the provider creates remotely is remembered in the job's transaction. */
function storeIn(tx: Tx): PayoutProviderStore {
  return {
    connectAccountOf: (userId) => connectAccountOf(tx, userId),
    saveConnectAccount: (userId, accountId) => saveConnectAccount(tx, userId, accountId),
    saveExternalAccount: (bankAccountId, externalAccountId) =>
      saveExternalAccount(tx, bankAccountId, externalAccountId),
    manualPayoutsSet: (userId) => manualPayoutsSet(tx, userId),
    markManualPayouts: (userId) => markManualPayouts(tx, userId),
    bankAnswersLater: async (outcome, afterMs) => {
      await sandboxPayoutOutcomeJob.enqueue(tx, outcome, {
        runAt: new Date(Date.now() + afterMs),
        dedupeKey: `payouts.sandbox-outcome:${outcome.payoutId}`,
      });
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
  // A refund or a dispute left the account owing money since the payout was approved: nothing
  // leaves, and the amount returns to the balance, where it repays the debt first (decision 042).
  if (await inDebt(tx, row.userId)) {
    await markFailed(
      tx,
      row,
      "Held back: a refund or a dispute of a sale already paid out left the account owing money, repaid from this amount first.",
    );
    return "failed" as const;
  }
  const bank = await ownBankAccount(tx, row.userId, row.bankAccountId ?? "");
  if (!bank) {
    // Only an account deletion removes it while a payout is open (a bank account alone cannot be).
    await markFailed(tx, row, "The bank account was removed before the payout was sent.");
    return "failed" as const;
  }
  try {
    const submitted = await provider.submit(submission(row), payoutDestination(config, bank), storeIn(tx));
    if (submitted.providerPayoutId !== null) {
      await setProviderPayoutId(tx, row.id, submitted.providerPayoutId);
    }
    await markSent(tx, row, payoutReference(config, row.id));
    return "submitted" as const;
  } catch (error) {
    if (!(error instanceof PayoutRefusedError)) throw error;
    await markFailed(tx, row, error.reason);
    return "failed" as const;
  }
}

export function registerPayoutJobs(
  registry: JobRegistry,
  { config, payouts: provider }: { config: Config; payouts: PayoutProvider },
): void {
  registry.register(submitPayoutJob, async (tx, { payoutId }) => {
    await submitPayout(tx, config, provider, payoutId);
  });
  registry.register(payoutNoticeJob, (tx, payload) => sendPayoutNotice(tx, config, payload));
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
  const recorded = await recordPayoutEvent(tx, {
    provider: provider.kind,
    eventId: event.id,
    type: event.type,
    payload: event.raw,
  });
  if (!recorded) return "duplicate";

  const ours = event.payoutId && uuid.safeParse(event.payoutId).success ? event.payoutId : null;
  const found = await payoutIdForEvent(tx, provider.kind, ours, event.providerPayoutId);
  if (!found) return "ignored";
  const row: PayoutRow = await lockPayout(tx, found);
  await linkPayoutEvent(tx, recorded, row.id);
  // Another payout object than the one we created for it (metadata copied by hand, a test payout).
  if (row.providerPayoutId !== null && row.providerPayoutId !== event.providerPayoutId) return "ignored";
  if (event.account !== null) {
    if ((await connectAccountOf(tx, row.userId)) !== event.account) return "ignored";
  }
  // A paid payout the bank sends back later: the same reversal, then the money returns (issue 32).
  const returned = row.status === "paid" && event.type === "failed";
  if (row.status !== "processing" && !returned) return "ignored";
  if (event.type === "paid") {
    await markPaid(tx, row, event.createdAt);
    return "applied";
  }
  // The bank refused it: the money is back on the connected account. It is taken back to the
  // platform before the creator's balance gets it back (issue 32), or it could be paid twice: once
  // from that account, once again from the balance. A reversal that cannot happen yet throws, and
  // the provider delivers the event again.
  if (provider.reverseTransfer) {
    try {
      await provider.reverseTransfer(submission(row), storeIn(tx));
    } catch (error) {
      if (!(error instanceof PayoutRefusedError)) throw error;
      // Refused for good: the money stays on the connected account, the payout stays open for an
      // operator (never returned to the balance), and the reconciliation lists it.
      await recordMismatch(tx, {
        userId: row.userId,
        currency: row.currency,
        amountMinor: row.amountMinor,
        reason: error.reason,
      });
      return "applied";
    }
  }
  const reason = event.failureReason ?? "The bank refused the transfer.";
  if (returned) await markReturned(tx, row, reason, event.createdAt);
  else await markFailed(tx, row, reason, event.createdAt);
  return "applied";
}

const submission = (row: PayoutRow) => ({
  payoutId: row.id,
  userId: row.userId,
  amountMinor: row.amountMinor,
  currency: row.currency,
});

/** The webhook's side: one event, applied in its own transaction. */
export const applyPayoutWebhook = (db: Db, provider: PayoutProvider, event: PayoutEvent) =>
  db.transaction((tx) => applyPayoutEvent(tx, provider, event));
