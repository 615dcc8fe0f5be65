import type { Currency } from "@salelink/contracts";
import fc from "fast-check";
import {
  Buy,
  Claim,
  type Cmd,
  PayoutOutcome,
  Redeliver,
  ReleaseHolds,
  ScheduledRun,
  ShareReferrerIban,
  Withdraw,
} from "./model-commands.ts";
import { DisputeDecide, DisputeOpen, WriteOff } from "./model-disputes.ts";
import { LaunchSales } from "./model-launch.ts";
import { LateSale } from "./model-oversell.ts";
import { Race } from "./model-races.ts";
import { AdminRefund, CreatorRefund, ProviderRefund } from "./model-refunds.ts";
import {
  DebtRepaidBySales,
  DisputeAfter,
  PartnerSaleRefunded,
  RefundAfterClaim,
  RefundAfterPayout,
} from "./model-scenarios.ts";

/* The random operations of the money model, and how often each is drawn. */

export const user = fc.integer({ min: 0, max: 3 });
export const index = fc.nat({ max: 40 });
const times = fc.integer({ min: 1, max: 3 });
export const twice = fc.integer({ min: 1, max: 2 });
export const currency = fc.constantFrom<Currency>("EUR", "EUR", "USD", "GBP");

export const buy = fc
  .record({
    seller: user,
    // Prices around the rounding boundaries too (decision 012: 10.35 → fee 1.04, commission 0.21).
    price: fc.oneof(fc.integer({ min: 100, max: 6000 }), fc.constantFrom(100, 1035, 1045, 2000, 1005)),
    currency,
    // Through a partner's link half the time (users 0 and 1 run programmes: decision 035).
    viaPartner: fc.boolean(),
    // Taxed a third of the time (issue 22): the VAT of France or Hungary in the price.
    country: fc.constantFrom(null, null, null, null, "FR" as const, "HU" as const),
  })
  .map((p) => new Buy(p));
/** A stock of 1 sold, then a declined buyer's retry succeeds at the provider: refunded (issue 16). */
const lateSale = fc
  .record({ seller: user, price: fc.integer({ min: 100, max: 6000 }), currency })
  .map((p): Cmd => new LateSale(p));

/** Several buyers of one link, their payments delivered at once (and again): applied in batches. */
const launch = fc
  .record({
    seller: user,
    buyers: fc.integer({ min: 2, max: 6 }),
    price: fc.integer({ min: 100, max: 6000 }),
    currency,
    times,
  })
  .map((p): Cmd => new LaunchSales(p));

export const release = fc
  .record({
    // All the run's orders, or a few named ones (the route's orderIds).
    orders: fc.oneof(fc.constant<number[]>([]), fc.array(index, { minLength: 1, maxLength: 3 })),
    early: fc.constantFrom(false, false, false, true),
  })
  .map((p) => new ReleaseHolds(p));
export const withdraw = fc
  .record({
    user: fc.oneof(user, fc.constant("richest" as const), fc.constant("richest" as const)),
    currency,
    // Mostly the whole balance, else an amount around the minimum and the usual balances.
    amount: fc.oneof(fc.constant(null), fc.constant(null), fc.integer({ min: 500, max: 6_000 })),
    times: twice,
  })
  .map((p) => new Withdraw(p));
/** A schedule's run at a threshold around the minimum and the usual balances (issue 23). */
export const scheduledRun = fc
  .record({ user, threshold: fc.constantFrom(1_000, 1_000, 2_500, 5_000), times: twice })
  .map((p): Cmd => new ScheduledRun(p));
export const payoutOutcome = fc
  .record({
    payout: index,
    action: fc.constantFrom("approve" as const, "paid" as const, "fail" as const),
    times: twice,
  })
  .map((p) => new PayoutOutcome(p));

export const refund = fc.oneof(
  fc
    .record({ order: index, events: fc.integer({ min: 1, max: 2 }), times })
    .map((p): Cmd => new ProviderRefund(p)),
  fc.record({ order: index, times: twice }).map((p): Cmd => new AdminRefund(p)),
  fc
    .record({ order: index, share: fc.constantFrom(0.5, 0.33, 0.01, 1), times: twice })
    .map((p): Cmd => new CreatorRefund(p)),
);

/** A referrer's claim (user 0 refers users 1 and 2; the others have nothing to claim), a partner's. */
export const claim = fc
  .record({ user: fc.constantFrom(0, 0, 0, 1, 3), times: twice })
  .map((p): Cmd => new Claim(p));
export const partnerClaim = fc
  .record({ user: fc.constantFrom(0, 3, 3), times: twice })
  .map((p): Cmd => new Claim({ ...p, partner: true }));
/** A refund, a withdrawal and a claim at once (money/model-races.ts). */
export const race = fc
  .record({ order: index, amount: fc.oneof(fc.constant(null), fc.integer({ min: 1_000, max: 4_000 })) })
  .map((p): Cmd => new Race(p));

/** Chargebacks (issue 32): opened on any order (sometimes twice at once), decided either way. */
export const disputeOpen = fc.record({ order: index, times: twice }).map((p): Cmd => new DisputeOpen(p));
export const disputeDecide = fc
  .record({ dispute: index, outcome: fc.constantFrom("won" as const, "lost" as const), times: twice })
  .map((p): Cmd => new DisputeDecide(p));
export const writeOff = fc
  .record({
    user: fc.oneof(fc.constant("debtor" as const), fc.constant("debtor" as const), user),
    currency,
    times: twice,
  })
  .map((p): Cmd => new WriteOff(p));

/** Prices whose commissions and nets reach the payout minimum, so that money leaves before it is taken back. */
export const bigPrice = fc.integer({ min: 3_000, max: 12_000 });

/** Whole stories of money that already left (issue 32, money/model-scenarios.ts). */
export const alreadyLeft = fc.oneof(
  fc
    .record({ seller: fc.constantFrom<0 | 1>(0, 1), price: bigPrice })
    .map((p): Cmd => new RefundAfterClaim(p)),
  fc.record({ seller: user, price: bigPrice, currency }).map((p): Cmd => new RefundAfterPayout(p)),
  fc
    .record({
      seller: user,
      price: bigPrice,
      viaPartner: fc.boolean(),
      after: fc.constantFrom("partialRefund" as const, "payout" as const),
      outcome: fc.constantFrom("won" as const, "lost" as const),
    })
    .map((p): Cmd => new DisputeAfter(p)),
  fc.record({ price: bigPrice }).map((p): Cmd => new DebtRepaidBySales(p)),
);

/**
 * The operations, weighted so that money reaches every balance (sold, released, claimed, withdrawn)
 * before a refund takes it back: a refund is one draw in 28 (two with the race); a chargeback's
 * opening and decision one each, and issue 32's stories (money taken back after it left) two.
 */
export const moneyCommands: fc.Arbitrary<Cmd>[] = [
  buy,
  buy,
  buy,
  release,
  release,
  release,
  withdraw,
  withdraw,
  withdraw,
  scheduledRun,
  scheduledRun,
  payoutOutcome,
  payoutOutcome,
  payoutOutcome,
  claim,
  partnerClaim,
  fc.record({ order: index, event: fc.nat({ max: 3 }), times }).map((p) => new Redeliver(p)),
  refund,
  race,
  fc.record({ user: fc.constantFrom(1, 2) }).map((p): Cmd => new ShareReferrerIban(p)),
  lateSale,
  launch,
  fc
    .record({
      seller: fc.constantFrom<0 | 1>(0, 1),
      price: fc.oneof(fc.integer({ min: 100, max: 6000 }), fc.constantFrom(101, 1035, 3333)),
      claim: fc.boolean(),
    })
    .map((p): Cmd => new PartnerSaleRefunded(p)),
  disputeOpen,
  disputeDecide,
  writeOff,
  alreadyLeft,
  alreadyLeft,
];
