import { isDeepStrictEqual } from "node:util";
import { claimResponseSchema, payoutSchema } from "@salelink/contracts";
import type fc from "fast-check";
import { expect } from "vitest";
import { sandboxEvent } from "../../src/providers/payments/index.ts";
import type { MoneyModel } from "./model.ts";
import { refundEventApplies } from "./model-refunds.ts";
import {
  call,
  checkInvariants,
  deliver,
  type RunUser,
  resultOf,
  userOf,
  type World,
  walletBalances,
} from "./model-world.ts";

/*
 * Different operations at once on the same money: a provider's refund of a sale, a withdrawal of the
 * richest balance, and the affiliate's claim. The outcome must be that of some serial order of the
 * three (the answers, the amounts and every balance): the model replays each order and one must fit.
 */

type Op = "refund" | "withdraw" | "claim";
const orders: Op[][] = [
  ["refund", "withdraw", "claim"],
  ["refund", "claim", "withdraw"],
  ["withdraw", "refund", "claim"],
  ["withdraw", "claim", "refund"],
  ["claim", "refund", "withdraw"],
  ["claim", "withdraw", "refund"],
];
const overdraft = "There is not enough money in this balance for that.";

export class Race implements fc.AsyncCommand<MoneyModel, World> {
  constructor(readonly p: { order: number; amount: number | null }) {}
  check = (m: Readonly<MoneyModel>) => m.orders.length > 0;
  async run(m: MoneyModel, w: World) {
    const index = this.p.order % m.orders.length;
    const order = m.orders[index];
    if (!order) throw new Error("no order");
    const { user: payee, currency } = m.richest();
    const event = sandboxEvent("refund.succeeded", {
      paymentId: order.paymentId,
      orderId: order.id,
      amountMinor: order.gross,
      currency: order.currency,
    });
    const [refundRes, payoutRes, claimRes] = await Promise.all([
      deliver(w.ctx, event),
      call(w.ctx, "POST", "/profile/payout", userOf(w, payee).cookie, {
        bankAccountId: userOf(w, payee).banks[currency as keyof RunUser["banks"]],
        currency,
        ...(this.p.amount === null ? {} : { amount: this.p.amount }),
      }),
      call(w.ctx, "POST", "/campaigns/claim", userOf(w, 0).cookie),
    ]);
    w.events.set(event.id, event);
    // A refund that read a balance a withdrawal then took is refused whole (409, nothing recorded);
    // the provider delivers it again, after the others.
    const refundLate = refundRes.statusCode !== 200;
    if (refundLate) expect(refundRes.json<{ message: string }>().message).toBe(overdraft);
    const refund = refundLate ? resultOf(await deliver(w.ctx, event)) : resultOf(refundRes);
    // A withdrawal that lost the same race is refused by the ledger's guard, and changes nothing.
    const payoutRefused =
      payoutRes.statusCode === 409 && payoutRes.json<{ message: string }>().message === overdraft;
    const payout = payoutRes.statusCode === 201 ? payoutSchema.parse(payoutRes.json()) : null;
    const claims =
      claimRes.statusCode === 200
        ? new Map(claimResponseSchema.parse(claimRes.json()).claims.map((c) => [c.currency, c.amount]))
        : null;
    const wallets = await walletBalances(w);

    const fits = orders.flatMap((sequence) => {
      if (refundLate && sequence[2] !== "refund") return [];
      const c = m.clone();
      const o = c.orders[index];
      if (!o) return [];
      for (const op of sequence) {
        if (op === "refund") {
          const expected = refundEventApplies(c, o) ? "applied" : "ignored";
          if (expected !== refund) return [];
          o.events.set(event.id, expected);
          c.refund(o);
        } else if (op === "withdraw") {
          if (payoutRefused) continue;
          const outcome = c.withdrawalOutcome(payee, currency, this.p.amount);
          if (outcome.status !== payoutRes.statusCode) return [];
          if (payout) {
            if (payout.amount !== outcome.amount) return [];
            if (payout.status !== c.initialStatus(payout.amount)) return [];
            c.requested({
              id: payout.id,
              user: payee,
              currency,
              amount: payout.amount,
              status: payout.status,
            });
          }
        } else {
          const expected = c.claimable(0);
          if ((expected.size > 0 ? 200 : 409) !== claimRes.statusCode) return [];
          if (claims && !isDeepStrictEqual(c.claim(0), claims)) return [];
        }
      }
      return wallets.every((b, user) => isDeepStrictEqual(b, c.balancesOf(user))) ? [c] : [];
    });
    const observed = `refund ${refundRes.statusCode} ${refund}, withdrawal ${payoutRes.statusCode}, claim ${claimRes.statusCode}`;
    expect(fits.length, `no serial order explains: ${observed}`).toBeGreaterThan(0);
    const [fit] = fits;
    if (fit) m.assign(fit);
    await checkInvariants(w, m);
  }
  toString = () =>
    `race(refund order ${this.p.order} ‖ withdraw richest ${this.p.amount ?? "all"} ‖ claim u0)`;
}
