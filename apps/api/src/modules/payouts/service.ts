import type {
  Currency,
  Locale,
  Payout,
  PayoutBlocker,
  PayoutDetail,
  PayoutEligibility,
  payoutRequestBodySchema,
} from "@salelink/contracts";
import { formatMoney } from "@salelink/contracts/money";
import type { z } from "zod";
import type { Config } from "../../config.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { AppError, validation } from "../../lib/errors.ts";
import { isUniqueViolation } from "../../lib/pg-errors.ts";
import type { PayoutProvider } from "../../providers/payouts/types.ts";
import { isSuspended, suspensionOf } from "../admin/accounts/queries.ts";
import type { SessionUser } from "../auth/sessions.ts";
import { identityApproved } from "../kyc/queries.ts";
import { debtsOf } from "../wallet/debts/queries.ts";
import { debtSummaries } from "../wallet/debts/service.ts";
import { post } from "../wallet/ledger.ts";
import { payoutRequested } from "../wallet/payout-postings.ts";
import { hasBankAccount, lockOwnBankAccount } from "./bank-accounts/queries.ts";
import { bankAccountNotFound } from "./bank-accounts/service.ts";
import {
  availableBalances,
  availableOf,
  insertPayout,
  openPayoutOf,
  openPayoutsOf,
  ownPayout,
  toPayout,
  transfersOf,
} from "./queries.ts";
import { bankAccountCurrencies } from "./risk-queries.ts";
import { insertStep, stepsOf } from "./steps-queries.ts";
import { decide, payoutNotFound } from "./transitions.ts";

/*
 * Withdrawals: a request moves the amount from available to in transit in the transaction that
 * creates the payout; paid sends it on to the bank; failed brings it back to available, once.
 */

/** The refusal of a payout while the account owes money (decision 042), naming what it owes. */
export const owesMoney = (debt: { currency: Currency; balanceMinor: number }, locale: Locale) =>
  new AppError(
    "ConflictException",
    "You owe {amount} from a refund or a dispute of a sale already paid out: it is repaid from your next sales before any payout.",
    { params: { amount: formatMoney(-debt.balanceMinor, debt.currency, locale) } },
  );

export const openPayoutConflict = () =>
  new AppError(
    "ConflictException",
    "You already have a withdrawal in progress: wait until it is paid or failed.",
  );

/**
 * GET /profile/payout: limits, balances and what stands in the way, in the order to clear them;
 * per currency too, since each currency is paid on its own to an account that takes it (issue 23).
 */
export async function payoutEligibility(
  db: Db,
  config: Config,
  provider: PayoutProvider,
  user: SessionUser,
): Promise<PayoutEligibility> {
  const [identity, bank, open, available, accountCurrencies, suspension, debts] = await Promise.all([
    identityApproved(db, user.id),
    hasBankAccount(db, user.id),
    openPayoutsOf(db, user.id),
    availableBalances(db, user.id),
    bankAccountCurrencies(db, user.id),
    suspensionOf(db, user.id),
    debtSummaries(db, user.id),
  ]);
  // Payouts default to euros: the euro balance is always shown, even before the first sale.
  if (!available.some((a) => a.currency === "EUR")) available.unshift({ currency: "EUR", amount: 0 });
  const minimum = config.rules.payoutMinimumMinor;
  const currencies = [...available];
  for (const currency of accountCurrencies)
    if (!currencies.some((a) => a.currency === currency)) currencies.push({ currency, amount: 0 });
  const perCurrency = currencies.map(({ currency, amount }) => {
    const openPayout = open.find((p) => p.currency === currency) ?? null;
    const blockers: PayoutBlocker[] = [];
    if (!accountCurrencies.includes(currency)) blockers.push("bank_account");
    // A debt in any currency holds every payout (decision 042): it is repaid first.
    if (debts.length > 0) blockers.push("debt");
    if (openPayout) blockers.push("open_payout");
    if (amount < minimum) blockers.push("below_minimum");
    return { currency, available: amount, blockers, openPayout: openPayout ? toPayout(openPayout) : null };
  });
  const blockers: PayoutEligibility["blockers"] = [];
  if (!user.onboardingCompletedAt) blockers.push("onboarding");
  if (!identity) blockers.push("identity");
  if (!bank) blockers.push("bank_account");
  if (debts.length > 0) blockers.push("debt");
  const someCurrencyReady = perCurrency.some((c) => c.blockers.length === 0);
  if (open.length > 0 && !someCurrencyReady) blockers.push("open_payout");
  if (!available.some((a) => a.amount >= minimum)) blockers.push("below_minimum");
  const [firstOpen] = open;
  return {
    minimum,
    available,
    blockers,
    openPayout: firstOpen ? toPayout(firstOpen) : null,
    perCurrency,
    provider: provider.kind,
    suspension,
    debts,
  };
}

/** GET /profile/payouts/:id: the owner's payout with its timeline; anyone else's is not found. */
export async function payoutDetail(db: Db, userId: string, id: string): Promise<PayoutDetail> {
  const row = await ownPayout(db, userId, id);
  if (!row) throw payoutNotFound();
  return { ...toPayout(row), steps: await stepsOf(db, row.id) };
}

/** GET /profile/transfers: my payouts, newest first. */
export const listTransfers = (db: Db, userId: string, query: { cursor?: string; limit: number }) =>
  transfersOf(db, userId, query);

/** The refusals a request and a schedule share: what the account itself lacks. */
export async function accountBlockers(
  db: DbOrTx,
  user: Pick<SessionUser, "id" | "onboardingCompletedAt">,
): Promise<("onboarding" | "identity" | "suspended")[]> {
  const blockers: ("onboarding" | "identity" | "suspended")[] = [];
  if (!user.onboardingCompletedAt) blockers.push("onboarding");
  if (await isSuspended(db, user.id)) blockers.push("suspended");
  if (!(await identityApproved(db, user.id))) blockers.push("identity");
  return blockers;
}

/** POST /profile/payout: answers the payout and whether a submission job was queued. */
export async function requestPayout(
  db: Db,
  config: Config,
  provider: PayoutProvider,
  user: SessionUser,
  body: z.output<typeof payoutRequestBodySchema>,
  locale: Locale,
): Promise<{ payout: Payout; queued: boolean }> {
  const [blocker] = await accountBlockers(db, user);
  if (blocker === "onboarding")
    throw new AppError("ForbiddenException", "Finish setting up your account before withdrawing.");
  if (blocker === "suspended")
    throw new AppError(
      "ForbiddenException",
      "Your account is suspended: withdrawals are paused until it is reinstated. Contact support.",
    );
  if (blocker === "identity")
    throw new AppError(
      "ForbiddenException",
      "Verify your identity before withdrawing: it takes a few minutes, from your wallet.",
    );
  const [debt] = await debtsOf(db, user.id);
  if (debt) throw owesMoney(debt, locale);
  const minimum = config.rules.payoutMinimumMinor;
  try {
    return await db.transaction(async (tx) => {
      // The bank account's row lock orders this request against the account's deletion and against
      // other requests to it; requests to two different accounts meet at the one-open-payout index.
      const bank = await lockOwnBankAccount(tx, user.id, body.bankAccountId);
      if (!bank) throw bankAccountNotFound();
      if (bank.currency !== body.currency)
        throw validation(
          {
            bankAccountId: [
              "This bank account is paid in {accountCurrency}: choose one that takes {currency}.",
            ],
          },
          "This bank account is paid in {accountCurrency}: choose one that takes {currency}.",
          { accountCurrency: bank.currency, currency: body.currency },
        );
      if (await openPayoutOf(tx, user.id, body.currency)) throw openPayoutConflict();
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
      await insertStep(tx, row.id, "requested");
      const decided = await decide(tx, config, provider, row);
      return { payout: toPayout(decided.row), queued: decided.queued };
    });
  } catch (err) {
    // Two requests to different bank accounts at the same moment: the second meets the index.
    if (isUniqueViolation(err, "payouts_one_open_idx")) throw openPayoutConflict();
    throw err;
  }
}
