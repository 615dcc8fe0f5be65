import type { Currency } from "@salelink/contracts";
import type { MoneyModel } from "./model.ts";
import { Buy, Claim, type Cmd, ReleaseHolds, Withdraw } from "./model-commands.ts";
import { DisputeDecide, DisputeOpen } from "./model-disputes.ts";
import { AdminRefund, CreatorRefund } from "./model-refunds.ts";
import type { World } from "./model-world.ts";

/*
 * Whole stories of money that already left (issue 32), each step a command of its own and checked:
 * the random draws would reach these orders of steps too rarely. What each step should do is the
 * model's to say (money/model.ts), as for any draw.
 */

const newest = (m: MoneyModel) => m.orders.length - 1;

/**
 * A partner's sale from start to end (decision 035): bought through the partner's link, next to a
 * sale of the creator's own, their holds over, perhaps the partner's claim, then an admin's refund.
 * The claimed commission is taken from the partner's wallet (their debt if they no longer hold
 * it), never from the creator's available balance nor the platform's fees (decision 042).
 */
export class PartnerSaleRefunded implements Cmd {
  constructor(readonly p: { seller: 0 | 1; price: number; claim: boolean }) {}
  check = () => true;
  async run(m: MoneyModel, w: World) {
    const { seller, price } = this.p;
    // The creator has money of their own available: the refund must leave it to them.
    await new Buy({ seller, price, currency: "EUR" }).run(m, w);
    await new Buy({ seller, price, currency: "EUR", viaPartner: true }).run(m, w);
    const order = newest(m);
    await new ReleaseHolds({ orders: [order - 1, order], early: false }).run(m, w);
    const partner = m.programmes[seller]?.partner ?? 0;
    if (this.p.claim) await new Claim({ user: partner, times: 1, partner: true }).run(m, w);
    await new AdminRefund({ order, times: 1 }).run(m, w);
  }
  toString = () =>
    `partnerSaleRefunded(u${this.p.seller}, ${this.p.price}${this.p.claim ? ", claimed" : ""})`;
}

/**
 * Scenario 1 of issue 32: a sale through a partner, released, the partner claims and withdraws,
 * then the creator asks for the refund (refused past the debt limit) and an operator makes it.
 */
export class RefundAfterClaim implements Cmd {
  constructor(readonly p: { seller: 0 | 1; price: number }) {}
  check = () => true;
  async run(m: MoneyModel, w: World) {
    await new Buy({ seller: this.p.seller, price: this.p.price, currency: "EUR", viaPartner: true }).run(
      m,
      w,
    );
    const order = newest(m);
    await new ReleaseHolds({ orders: [order], early: false }).run(m, w);
    const partner = m.programmes[this.p.seller]?.partner ?? 0;
    await new Claim({ user: partner, times: 1, partner: true }).run(m, w);
    await new Withdraw({ user: partner, currency: "EUR", amount: null, times: 1 }).run(m, w);
    await new CreatorRefund({ order, share: 1, times: 1 }).run(m, w);
    await new AdminRefund({ order, times: 1 }).run(m, w);
  }
  toString = () => `refundAfterClaim(u${this.p.seller}, ${this.p.price})`;
}

/** A creator's own sale, released, the whole balance withdrawn, then an operator's refund. */
export class RefundAfterPayout implements Cmd {
  constructor(readonly p: { seller: number; price: number; currency: Currency }) {}
  check = () => true;
  async run(m: MoneyModel, w: World) {
    const { seller, currency } = this.p;
    await new Buy({ seller, price: this.p.price, currency }).run(m, w);
    const order = newest(m);
    await new ReleaseHolds({ orders: [order], early: false }).run(m, w);
    await new Withdraw({ user: seller, currency, amount: null, times: 1 }).run(m, w);
    await new AdminRefund({ order, times: 1 }).run(m, w);
  }
  toString = () => `refundAfterPayout(u${this.p.seller}, ${this.p.price} ${this.p.currency})`;
}

/**
 * A chargeback of a sale after part of it was refunded (held), or after its money left (released,
 * its commissions claimed, the creator's and the partner's balances withdrawn); then the bank's
 * decision.
 */
export class DisputeAfter implements Cmd {
  constructor(
    readonly p: {
      seller: number;
      price: number;
      viaPartner: boolean;
      after: "partialRefund" | "payout";
      outcome: "won" | "lost";
    },
  ) {}
  check = () => true;
  async run(m: MoneyModel, w: World) {
    const { seller } = this.p;
    await new Buy({ seller, price: this.p.price, currency: "EUR", viaPartner: this.p.viaPartner }).run(m, w);
    const order = newest(m);
    if (this.p.after === "partialRefund") {
      await new CreatorRefund({ order, share: 0.33, times: 1 }).run(m, w);
    } else {
      await new ReleaseHolds({ orders: [order], early: false }).run(m, w);
      const partner = m.programmes[seller]?.partner;
      if (this.p.viaPartner && partner !== undefined) {
        await new Claim({ user: partner, times: 1, partner: true }).run(m, w);
        await new Withdraw({ user: partner, currency: "EUR", amount: null, times: 1 }).run(m, w);
      }
      await new Withdraw({ user: seller, currency: "EUR", amount: null, times: 1 }).run(m, w);
    }
    await new DisputeOpen({ order, times: 1 }).run(m, w);
    await new DisputeDecide({ dispute: m.disputes().length - 1, outcome: this.p.outcome, times: 1 }).run(
      m,
      w,
    );
  }
  toString = () =>
    `disputeAfter(${this.p.after}, u${this.p.seller}, ${this.p.price}${this.p.viaPartner ? ", via partner" : ""}, ${this.p.outcome})`;
}

/** Whoever owes money (else user 0) sells again in that currency: the release repays the debt first. */
export class DebtRepaidBySales implements Cmd {
  constructor(readonly p: { price: number }) {}
  check = () => true;
  async run(m: MoneyModel, w: World) {
    const [first] = [...m.debts().keys()];
    const [user, currency] = first?.split("|") ?? ["0", "EUR"];
    await new Buy({ seller: Number(user), price: this.p.price, currency: currency as Currency }).run(m, w);
    await new ReleaseHolds({ orders: [newest(m)], early: false }).run(m, w);
  }
  toString = () => `debtRepaidBySales(${this.p.price})`;
}
