import type { Locale, Payout, PayoutEligibility, payoutRequestBodySchema } from "@salelink/contracts";
import { formatMoney } from "@salelink/contracts/money";
import type { z } from "zod";
import type { Config } from "../../config.ts";
import type { Db, DbOrTx, Tx } from "../../db/client.ts";
import { AppError, validation } from "../../lib/errors.ts";
import { isUniqueViolation } from "../../lib/pg-errors.ts";
import type { PayoutProvider } from "../../providers/payouts/types.ts";
import { isSuspended } from "../admin/accounts/queries.ts";
import type { SessionUser } from "../auth/sessions.ts";
import { identityApproved } from "../kyc/queries.ts";
import { post } from "../wallet/ledger.ts";
import { payoutFailed, payoutPaid, payoutRequested } from "../wallet/postings.ts";
import { hasBankAccount, lockOwnBankAccount } from "./bank-accounts/queries.ts";
import { bankAccountNotFound } from "./bank-accounts/service.ts";
import {
  availableBalances,
  availableOf,
  insertPayout,
  lockPayoutRow,
  openPayoutOf,
  type PayoutRow,
  setFailed,
  setPaid,
  setProcessing,
  toPayout,
  transfersOf,
} from "./queries.ts";

/*
 * Withdrawals: a request moves the amount from available to in transit in the transaction that
 * creates the payout; paid sends it on to the bank; failed brings it back to available, once.
 */

export const openPayoutConflict = () =>
  new AppError(
    "ConflictException",
    "You already have a withdrawal in progress: wait until it is paid or failed.",
  );
const payoutNotFound = () => new AppError("NotFoundException", "This payout was not found.");

/** GET /profile/payout: limits, balances and what stands in the way, in the order to clear them. */
export async function payoutEligibility(
  db: Db,
  config: Config,
  provider: PayoutProvider,
  user: SessionUser,
): Promise<PayoutEligibility> {
  const [identity, bank, open, available] = await Promise.all([
    identityApproved(db, user.id),
    hasBankAccount(db, user.id),
    openPayoutOf(db, user.id),
    availableBalances(db, user.id),
  ]);
  // Payouts default to euros: the euro balance is always shown, even before the first sale.
  if (!available.some((a) => a.currency === "EUR")) available.unshift({ currency: "EUR", amount: 0 });
  const minimum = config.rules.payoutMinimumMinor;
  const blockers: PayoutEligibility["blockers"] = [];
  if (!user.onboardingCompletedAt) blockers.push("onboarding");
  if (!identity) blockers.push("identity");
  if (!bank) blockers.push("bank_account");
  if (open) blockers.push("open_payout");
  if (!available.some((a) => a.amount >= minimum)) blockers.push("below_minimum");
  return {
    minimum,
    available,
    blockers,
    openPayout: open ? toPayout(open) : null,
    provider: provider.kind,
  };
}

/** GET /profile/transfers: my payouts, newest first. */
export const listTransfers = (db: Db, userId: string, query: { cursor?: string; limit: number }) =>
  transfersOf(db, userId, query);

/** POST /profile/payout */
export async function requestPayout(
  db: Db,
  config: Config,
  provider: PayoutProvider,
  user: SessionUser,
  body: z.output<typeof payoutRequestBodySchema>,
  locale: Locale,
): Promise<Payout> {
  if (!user.onboardingCompletedAt)
    throw new AppError("ForbiddenException", "Finish setting up your account before withdrawing.");
  if (await isSuspended(db, user.id))
    throw new AppError(
      "ForbiddenException",
      "Your account is suspended: withdrawals are paused until it is reinstated. Contact support.",
    );
  if (!(await identityApproved(db, user.id)))
    throw new AppError(
      "ForbiddenException",
      "Verify your identity before withdrawing: it takes a few minutes, from your wallet.",
    );
  const minimum = config.rules.payoutMinimumMinor;
  try {
    return await db.transaction(async (tx) => {
      // The bank account's row lock orders this request against the account's deletion and against
      // other requests to it; requests to two different accounts meet at the one-open-payout index.
      const bank = await lockOwnBankAccount(tx, user.id, body.bankAccountId);
      if (!bank) throw bankAccountNotFound();
      if (await openPayoutOf(tx, user.id)) throw openPayoutConflict();
      const available = await availableOf(tx, user.id, body.currency);
      const amount = body.amount ?? available;
      if (amount < minimum) {
        throw validation(
          { amount: ["The minimum withdrawal is {minimum}."] },
          "The minimum withdrawal is {minimum}.",
          { minimum: formatMoney(minimum, body.currency, locale) },
        );
      }
      if (amount > available) {
        throw validation(
          { amount: ["You can withdraw at most {available}."] },
          "You can withdraw at most {available}.",
          { available: formatMoney(available, body.currency, locale) },
        );
      }
      const row = await insertPayout(tx, {
        userId: user.id,
        bankAccountId: bank.id,
        holderName: bank.holderName,
        ibanCountry: bank.ibanCountry,
        ibanLast4: bank.ibanLast4,
        amountMinor: amount,
        currency: body.currency,
        provider: provider.kind,
      });
      // Refuses an overdraft (the balance's CHECK) with a 409, rolling the payout back with it.
      await post(
        tx,
        payoutRequested({ payoutId: row.id, userId: user.id, currency: row.currency, amountMinor: amount }),
      );
      return toPayout(row);
    });
  } catch (err) {
    // Two requests to different bank accounts at the same moment: the second meets the index.
    if (isUniqueViolation(err, "payouts_one_open_idx")) throw openPayoutConflict();
    throw err;
  }
}

// --- Transitions: each locks the payout's row and checks its status under the lock ---------------

export async function lockPayout(tx: Tx, id: string): Promise<PayoutRow> {
  const row = await lockPayoutRow(tx, id);
  if (!row) throw payoutNotFound();
  return row;
}

const facts = (row: PayoutRow) => ({
  payoutId: row.id,
  userId: row.userId,
  currency: row.currency,
  amountMinor: row.amountMinor,
});

/** processing → paid: the money leaves in transit for the bank. */
export async function markPaid(tx: DbOrTx, row: PayoutRow, at = new Date()): Promise<void> {
  await setPaid(tx, row.id, at);
  await post(tx, payoutPaid(facts(row)));
}

/** requested or processing → failed: the amount returns to available. */
export async function markFailed(tx: DbOrTx, row: PayoutRow, reason: string, at = new Date()): Promise<void> {
  await setFailed(tx, row.id, reason, at);
  await post(tx, payoutFailed(facts(row)));
}

/** A suspended account's payouts stop (issue 8); failing one stays possible, it returns the money. */
async function refuseSuspendedPayee(tx: Tx, row: PayoutRow): Promise<void> {
  if (await isSuspended(tx, row.userId))
    throw new AppError(
      "ConflictException",
      "This account is suspended: its payouts cannot go ahead until it is reinstated.",
    );
}

/** requested → processing: approved by an operator, to be paid by hand or submitted to Stripe. */
export async function approve(tx: Tx, provider: PayoutProvider, id: string): Promise<PayoutRow> {
  const row = await lockPayout(tx, id);
  if (row.status !== "requested")
    throw new AppError("ConflictException", "Only a requested payout can be approved.");
  await refuseSuspendedPayee(tx, row);
  if (row.provider !== provider.kind)
    throw new AppError("ConflictException", "This payout was requested through another payout provider.");
  const updated = await setProcessing(tx, id, new Date());
  if (!updated) throw payoutNotFound();
  return updated;
}

/** processing → paid, by an operator: only for payouts made by hand (Stripe reports its own). */
export async function confirmPaid(tx: Tx, id: string): Promise<void> {
  const row = await lockPayout(tx, id);
  if (row.provider !== "manual")
    throw new AppError("ConflictException", "Stripe reports this payout's outcome itself.");
  if (row.status !== "processing")
    throw new AppError("ConflictException", "Only a payout being processed can be marked paid.");
  await refuseSuspendedPayee(tx, row);
  await markPaid(tx, row);
}

/** requested or processing → failed, by an operator. */
export async function failByOperator(tx: Tx, id: string, reason: string): Promise<void> {
  const row = await lockPayout(tx, id);
  if (row.status !== "requested" && row.status !== "processing")
    throw new AppError("ConflictException", "Only a requested or processing payout can be failed.");
  // Once Stripe holds a payout, failing it here could pay it twice: its outcome comes from Stripe.
  if (row.providerPayoutId !== null)
    throw new AppError("ConflictException", "Stripe reports this payout's outcome itself.");
  await markFailed(tx, row, reason);
}
