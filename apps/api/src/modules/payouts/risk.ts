import { type PayoutRiskRule, payoutRiskRules } from "@salelink/contracts";
import type { Config } from "../../config.ts";
import type { DbOrTx } from "../../db/client.ts";
import type { PayoutRow } from "./queries.ts";
import { bankAccountAddedAt, hasPaidPayout, payeeOf, refundedSince, reportedSince } from "./risk-queries.ts";

/*
 * The risk rules (issue 23, decision 041): a payout that none of them holds goes to the provider at
 * once; one that any holds waits for an operator, with the rules on record. Each rule can be turned
 * off (PAYOUT_REVIEW_RULES) and its threshold is a setting.
 */

export type RiskSettings = Pick<
  Config,
  | "PAYOUT_REVIEW_RULES"
  | "PAYOUT_REVIEW_ABOVE_MINOR"
  | "PAYOUT_REVIEW_ACCOUNT_AGE_DAYS"
  | "PAYOUT_REVIEW_RECENT_DAYS"
  | "PAYOUT_REVIEW_BANK_CHANGE_DAYS"
>;

const DAY_MS = 86_400_000;
const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

/** The rules that hold this payout, in the contract's order; empty: it goes straight on. */
export async function rulesHolding(
  db: DbOrTx,
  settings: RiskSettings,
  payout: Pick<PayoutRow, "userId" | "amountMinor" | "bankAccountId">,
  now = new Date(),
): Promise<PayoutRiskRule[]> {
  const on = new Set(settings.PAYOUT_REVIEW_RULES);
  const checks: Record<PayoutRiskRule, () => Promise<boolean>> = {
    first_payout: async () => !(await hasPaidPayout(db, payout.userId)),
    above_threshold: async () => payout.amountMinor > settings.PAYOUT_REVIEW_ABOVE_MINOR,
    young_account: async () => {
      const payee = await payeeOf(db, payout.userId);
      return payee !== null && payee.createdAt > daysBefore(now, settings.PAYOUT_REVIEW_ACCOUNT_AGE_DAYS);
    },
    recent_refunds: () =>
      refundedSince(db, payout.userId, daysBefore(now, settings.PAYOUT_REVIEW_RECENT_DAYS)),
    recent_reports: () =>
      reportedSince(db, payout.userId, daysBefore(now, settings.PAYOUT_REVIEW_RECENT_DAYS)),
    bank_account_changed: async () => {
      // The destination's age: a new account elsewhere does not redirect this payout (issue 23).
      const added = payout.bankAccountId
        ? await bankAccountAddedAt(db, payout.userId, payout.bankAccountId)
        : null;
      return added !== null && added > daysBefore(now, settings.PAYOUT_REVIEW_BANK_CHANGE_DAYS);
    },
  };
  const held: PayoutRiskRule[] = [];
  // One after the other: on a transaction, queries cannot run in parallel.
  for (const rule of payoutRiskRules) {
    if (on.has(rule) && (await checks[rule]())) held.push(rule);
  }
  return held;
}
