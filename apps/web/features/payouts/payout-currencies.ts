import type { Currency } from "@salelink/contracts/business-rules";
import { type PayoutEligibility, payoutRequestBodySchema } from "@salelink/contracts/payouts";

type Balance = PayoutEligibility["available"][number];

/** The currency a request names when it names none: the contract's default. */
const contractDefault: Currency = payoutRequestBodySchema.shape.currency.parse(undefined);

/**
 * The balances a withdrawal can come from (those with money in them; else one at zero, so the form
 * and the minimum still have a currency) and the largest one, which the form starts with.
 */
export function payoutCurrencies(eligibility: PayoutEligibility): {
  options: Balance[];
  preferred: Currency;
  balance: number;
} {
  const funded = eligibility.available.filter((b) => b.amount > 0);
  const options: Balance[] =
    funded.length > 0
      ? funded
      : [{ currency: eligibility.available[0]?.currency ?? contractDefault, amount: 0 }];
  const largest = options.reduce((top, b) => (b.amount > top.amount ? b : top));
  return { options, preferred: largest.currency, balance: largest.amount };
}
