import type { Config } from "../../config.ts";
import { AppError } from "../../lib/errors.ts";

/*
 * The one rule for what a limited stock (or a capped promo code) can still sell: paid sales plus the
 * checkouts under way, each holding one unit for CHECKOUT_RESERVATION_MINUTES from its start. The
 * public link answer, checkout and the payment's re-check all compute it here, so the page never
 * says "for sale" when checkout would say "sold out", and a payment never goes past the limit.
 * The counting is in queries.ts (heldBy, heldOnLinks); the rule on the counts is here.
 */

export interface Held {
  count: number;
  /** When the oldest live reservation started: the first unit comes back at its end. */
  oldest: Date | null;
}

export const noneHeld: Held = { count: 0, oldest: null };

export type StockState =
  | { state: "available" }
  | { state: "sold-out" }
  /** Every remaining unit is held by a checkout under way; one comes back by `availableAgainAt`. */
  | { state: "reserved-out"; availableAgainAt: Date };

/** What a limit (stock or promo uses) leaves for sale, given its sales and its live reservations. */
export function stockState(
  config: Config,
  limit: number | null,
  used: number,
  held: Held = noneHeld,
): StockState {
  if (limit === null) return { state: "available" };
  if (used >= limit) return { state: "sold-out" };
  if (used + held.count < limit) return { state: "available" };
  const oldest = held.oldest ?? new Date();
  return {
    state: "reserved-out",
    availableAgainAt: new Date(oldest.getTime() + config.CHECKOUT_RESERVATION_MINUTES * 60_000),
  };
}

/** Whole minutes until `at`, at least 1: what the buyer reads ("back in 4 min"). */
export const minutesUntil = (at: Date, now = Date.now()) =>
  Math.max(1, Math.ceil((at.getTime() - now) / 60_000));

export const soldOut = () => new AppError("ConflictException", "This link is sold out.");

/** The same answer the link page gives: not sold out, but not for sale for a few minutes. */
export const reservedOut = (availableAgainAt: Date) =>
  new AppError(
    "ConflictException",
    "All remaining units are reserved by buyers paying now. Try again in {minutes} min.",
    { params: { minutes: minutesUntil(availableAgainAt) } },
  );

export const promoUsedUp = () =>
  new AppError("ValidationException", "This promo code cannot be used.", {
    errors: {
      promoCode: ["This promo code is used up."],
    },
  });

export const promoReservedOut = (availableAgainAt: Date) =>
  new AppError("ValidationException", "This promo code cannot be used.", {
    errors: {
      promoCode: [
        "The remaining uses of this promo code are reserved by buyers paying now. Try again in {minutes} min.",
      ],
    },
    params: { minutes: minutesUntil(availableAgainAt) },
  });
