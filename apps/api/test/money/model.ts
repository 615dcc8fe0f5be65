import type { Currency } from "@salelink/contracts";
import { AccountsModel, type Debit, type Rules } from "./model-ledger.ts";
import { roundedShare, type SaleParts, shareOfParts, sumOf, vatIn } from "./model-shares.ts";

export type { Balances, ModelPayout, Rules } from "./model-ledger.ts";
export { zeroBalances } from "./model-ledger.ts";
export { roundedShare } from "./model-shares.ts";

/*
 * The money model of the invariants test: what every balance should be, computed from the operations
 * alone with the business rules (DESIGN 3, decisions 010–012, 042), never from the API's own code.
 * The commands (money/model-commands.ts) apply the same operation to the API and to this model, then
 * compare the two. The wallets, debts and payouts are money/model-ledger.ts's.
 */

/** A seller's partner programme in a run (decision 035): its one partner, their code and the rate. */
export interface ModelProgramme {
  partner: number;
  code: string;
  rateBps: number;
}

/** A chargeback of a sale (issue 32): what it took of each part, and how it ended. */
export interface ModelDispute {
  /** Our `disputes` row (the ledger's reference) and the sandbox bank's id. */
  id: string;
  bankId: string;
  /** What it took: all that was left of the sale when it opened. */
  amount: number;
  taken: SaleParts;
  /** What its hold and its fee left owed, all users together. */
  debt: number;
  status: "open" | "won" | "lost";
}

export interface ModelOrder {
  id: string;
  paymentId: string;
  seller: number;
  referrer: number | null;
  currency: Currency;
  gross: number;
  /**
   * The sale as the ledger now sees it: what refunds left of each part (issue 21: a creator's may be
   * partial), less what a chargeback holds or took. `vat` is owed to the buyer's country, `fee`
   * includes the referrer's `commission`; `partnerCommission` came out of the creator's part.
   */
  vat: number;
  fee: number;
  commission: number;
  /** The partner whose link brought the sale, when it earns (a blocked one does not). */
  partner: number | null;
  partnerCommission: number;
  net: number;
  /** What refunds took back so far, and the total after each partial one (its ledger reference). */
  refunded: number;
  partialRefunds: number[];
  /** Its first refund was the whole sale: one refund posted under the order's id. */
  refundedWhole: boolean;
  status: "paid" | "refunded";
  released: boolean;
  /** Its release moved money (nothing to move when a chargeback holds all of the sale). */
  releasePosted: boolean;
  claimed: boolean;
  partnerClaimed: boolean;
  /** An admin asked for its refund (the console refuses a second ask). */
  refundAsked: boolean;
  /** Its unclaimed commission was taken back: the seller turned out to be its referrer's own account. */
  voided: boolean;
  /**
   * The sandbox holds its payment as succeeded (paid through its card form) or refunded (a refund
   * asked of it, even of a sale paid by a bare provider event): its card issuer can dispute it.
   */
  sandboxPaid: boolean;
  dispute: ModelDispute | null;
  /** Every provider event id delivered for this order, with the result of its first delivery. */
  events: Map<string, "applied" | "ignored">;
}

export class MoneyModel extends AccountsModel {
  readonly orders: ModelOrder[] = [];
  /** Claims posted per user: one ledger transaction per currency of each. */
  readonly claimPostings: number[];
  /** Partner claims posted per user: one ledger transaction per currency of each. */
  readonly partnerClaimPostings: number[];
  /** Referred users found sharing their referrer's IBAN: self-referrals, earning nothing from then on. */
  readonly selfReferred: boolean[];
  /** Pairs of users holding the same IBAN ("a|b", a < b): a partner sharing it with the seller earns nothing. */
  readonly sharedIbans = new Set<string>();

  constructor(
    rules: Rules,
    referrers: (number | null)[],
    /** Each user's partner programme, or null. */
    readonly programmes: (ModelProgramme | null)[] = referrers.map(() => null),
  ) {
    super(rules, referrers);
    this.claimPostings = referrers.map(() => 0);
    this.partnerClaimPostings = referrers.map(() => 0);
    this.selfReferred = referrers.map(() => false);
  }

  /** A deep copy: concurrent operations are checked against each order they could have run in. */
  clone(): MoneyModel {
    const copy = new MoneyModel(this.rules, this.referrers, this.programmes);
    copy.assign(this);
    return copy;
  }

  /** Takes `other`'s state (one of this model's clones), in place. */
  assign(other: MoneyModel) {
    this.assignAccounts(other);
    this.orders.splice(
      0,
      this.orders.length,
      ...other.orders.map((o) => ({
        ...o,
        partialRefunds: [...o.partialRefunds],
        dispute: o.dispute && { ...o.dispute, taken: { ...o.dispute.taken } },
        events: new Map(o.events),
      })),
    );
    this.claimPostings.splice(0, this.claimPostings.length, ...other.claimPostings);
    this.partnerClaimPostings.splice(0, this.partnerClaimPostings.length, ...other.partnerClaimPostings);
    this.sharedIbans.clear();
    for (const pair of other.sharedIbans) this.sharedIbans.add(pair);
    this.selfReferred.splice(0, this.selfReferred.length, ...other.selfReferred);
  }

  /** Whether the seller's partner shares a strong signal with the seller (an IBAN, in a run). */
  partnerBlocked(seller: number): boolean {
    const programme = this.programmes[seller];
    if (!programme) return false;
    const [a, b] = [seller, programme.partner].sort((x, y) => x - y);
    return this.sharedIbans.has(`${a}|${b}`);
  }

  /** `user` adds `other`'s IBAN as a payout account: the two share a strong signal from now on. */
  shareIban(user: number, other: number) {
    const [a, b] = [user, other].sort((x, y) => x - y);
    this.sharedIbans.add(`${a}|${b}`);
  }

  /**
   * A paid sale: the fee off the gross, the referrer's share of the fee, and (bought through the
   * seller's partner's link) the partner's share of the gross out of the seller's part, capped at it;
   * all held.
   */
  paid(p: {
    id: string;
    paymentId: string;
    eventId: string;
    seller: number;
    currency: Currency;
    gross: number;
    viaPartner?: boolean;
    /** The buyer's country's VAT rate, in the price (issue 22); 0 untaxed. */
    vatBps?: number;
    /** Paid through the sandbox's card form (not a bare provider event). */
    sandboxPaid?: boolean;
  }) {
    const { viaPartner, vatBps = 0, sandboxPaid = false, ...facts } = p;
    const referrer = this.selfReferred[p.seller] ? null : (this.referrers[p.seller] ?? null);
    // The fee and the commissions are shares of the price net of its VAT (decision 039).
    const vat = vatIn(p.gross, vatBps);
    const base = p.gross - vat;
    const fee = roundedShare(base, this.rules.feeBps);
    const commission = referrer === null ? 0 : roundedShare(fee, this.rules.commissionBps);
    const programme = viaPartner ? this.programmes[p.seller] : null;
    const partner = programme && !this.partnerBlocked(p.seller) ? programme.partner : null;
    const partnerCommission =
      programme && partner !== null ? Math.min(roundedShare(base, programme.rateBps), base - fee) : 0;
    const order: ModelOrder = {
      ...facts,
      referrer,
      vat,
      fee,
      commission,
      partner,
      partnerCommission,
      net: base - fee - partnerCommission,
      refunded: 0,
      partialRefunds: [],
      refundedWhole: false,
      status: "paid",
      released: false,
      releasePosted: false,
      claimed: false,
      partnerClaimed: false,
      refundAsked: false,
      voided: false,
      sandboxPaid,
      dispute: null,
      events: new Map([[p.eventId, "applied"]]),
    };
    this.orders.push(order);
    this.credit(p.seller, p.currency, "pending", order.net);
    if (referrer !== null) this.credit(referrer, p.currency, "affiliatePending", commission);
    if (partner !== null) this.credit(partner, p.currency, "partnerPending", partnerCommission);
    return order;
  }

  /** The parts of the sale as the ledger now sees it. */
  partsOf(o: ModelOrder): SaleParts {
    return {
      net: o.net,
      vat: o.vat,
      platform: o.fee - o.commission,
      commission: o.commission,
      partner: o.partnerCommission,
    };
  }

  private addParts(o: ModelOrder, parts: SaleParts, sign: 1 | -1) {
    o.net += sign * parts.net;
    o.vat += sign * parts.vat;
    o.fee += sign * (parts.platform + parts.commission);
    o.commission += sign * parts.commission;
    o.partnerCommission += sign * parts.partner;
  }

  /** What is left of the sale to refund or dispute: neither refunded nor held by a chargeback. */
  left(o: ModelOrder): number {
    return sumOf(this.partsOf(o));
  }

  disputeOpen = (o: ModelOrder): boolean => o.dispute?.status === "open";

  /** Whether a release at a time after every hold's end releases this order. */
  releasable = (o: ModelOrder) => o.status === "paid" && !o.released;

  release(o: ModelOrder) {
    if (!this.releasable(o)) return;
    o.released = true;
    o.releasePosted = o.net > 0 || o.commission > 0 || o.partnerCommission > 0;
    this.move(o.seller, o.currency, "pending", "available", o.net);
    if (o.referrer !== null)
      this.move(o.referrer, o.currency, "affiliatePending", "affiliateClaimable", o.commission);
    if (o.partner !== null)
      this.move(o.partner, o.currency, "partnerPending", "partnerClaimable", o.partnerCommission);
  }

  /**
   * Where each part of the sale now sits, to take `taken` back from (decision 042): held, from the
   * held balances; after the release, the creator's net from their available balance, an unclaimed
   * commission from its claimable balance, a claimed one from its earner's available balance (never
   * the creator's, never the platform's).
   */
  private debitsOf(o: ModelOrder, taken: SaleParts): Debit[] {
    const out: Debit[] = [{ user: o.seller, field: o.released ? "available" : "pending", amount: taken.net }];
    if (o.referrer !== null) {
      const field = !o.released ? "affiliatePending" : o.claimed ? "available" : "affiliateClaimable";
      out.push({ user: o.referrer, field, amount: taken.commission });
    }
    if (o.partner !== null) {
      const field = !o.released ? "partnerPending" : o.partnerClaimed ? "available" : "partnerClaimable";
      out.push({ user: o.partner, field, amount: taken.partner });
    }
    return out;
  }

  /**
   * Whether refunding `amount` now would leave someone owing more than the limit in all (a creator's
   * refund's limit): it adds to some debt, and one of those who owe then owes more than the limit.
   */
  refundOverLimit(o: ModelOrder, amount: number): boolean {
    const taken = shareOfParts(this.partsOf(o), o.released, amount, this.left(o));
    const { owed } = this.shortfalls(o.currency, this.debitsOf(o, taken));
    return [...owed].some(
      ([user, added]) =>
        added > 0 && added - Math.min(0, this.balance(user, o.currency).debt) > this.rules.refundDebtLimit,
    );
  }

  /** A creator's refund of `amount`: refused while disputed, or when it would leave too much owed. */
  creatorRefundAllowed(o: ModelOrder, amount: number): boolean {
    return o.status === "paid" && !this.disputeOpen(o) && !this.refundOverLimit(o, amount);
  }

  /** An admin's refund (all that is left): refused while disputed, never for a debt. */
  adminRefundAllowed(o: ModelOrder): boolean {
    return o.status === "paid" && !o.refundAsked && !this.disputeOpen(o);
  }

  /** Refunded in whole: all that is left. */
  refund(o: ModelOrder) {
    if (o.status === "paid") this.partialRefund(o, this.left(o));
  }

  /**
   * A part of what is left of the sale refunded (issue 21, decision 037): each part gives back its
   * share of `amount` (money/model-shares.ts), from whoever holds it now; what they no longer hold
   * is their debt. All that is left closes the order.
   */
  partialRefund(o: ModelOrder, amount: number) {
    const left = this.left(o);
    if (o.status !== "paid" || amount <= 0 || amount > left) return;
    const taken = shareOfParts(this.partsOf(o), o.released, amount, left);
    this.cover(o.currency, this.debitsOf(o, taken));
    this.addParts(o, taken, -1);
    // The first and whole refund is posted under the order's id, any other under its total.
    if (o.refunded === 0 && amount === o.gross) o.refundedWhole = true;
    else o.partialRefunds.push(o.refunded + amount);
    o.refunded += amount;
    if (o.refunded === o.gross) o.status = "refunded";
  }

  /**
   * A chargeback opens (issue 32): all that is left of the sale is taken as a refund of it would take
   * it (the VAT and the platform's share wait in the platform's `disputes_held`), and the issuer's
   * fee from the creator's available balance; what is no longer there is owed.
   */
  disputeOpened(o: ModelOrder, ids: { id: string; bankId: string }): ModelDispute {
    const taken = this.partsOf(o);
    const debt = this.cover(o.currency, this.debitsOf(o, taken));
    this.addParts(o, taken, -1);
    const fee = this.cover(o.currency, [
      { user: o.seller, field: "available", amount: this.rules.disputeFee },
    ]);
    o.dispute = { ...ids, amount: sumOf(taken), taken, debt: debt + fee, status: "open" };
    return o.dispute;
  }

  /**
   * Won: the fee comes back to the creator's available balance, and every part to where that money
   * now belongs (held, or available and claimable, or a claimed commission's earner's wallet).
   */
  disputeWon(o: ModelOrder) {
    const d = o.dispute;
    if (d?.status !== "open") return;
    d.status = "won";
    this.credit(o.seller, o.currency, "available", this.rules.disputeFee);
    for (const debit of this.debitsOf(o, d.taken))
      this.credit(debit.user, o.currency, debit.field, debit.amount);
    this.addParts(o, d.taken, 1);
  }

  /** Lost: nobody's balance moves; the sale is closed when nothing is left of it. */
  disputeLost(o: ModelOrder) {
    const d = o.dispute;
    if (d?.status !== "open") return;
    d.status = "lost";
    if (o.status === "paid" && this.left(o) === 0) o.status = "refunded";
  }

  /**
   * `user` adds its referrer's IBAN: a self-referral (issue 16). Its unclaimed commissions go back to
   * the platform, one reversal each; a claimed one stays claimed; later sales earn nothing.
   */
  selfReferral(user: number) {
    const referrer = this.referrers[user] ?? null;
    if (referrer === null || this.selfReferred[user]) return;
    this.selfReferred[user] = true;
    for (const o of this.orders) {
      if (o.seller !== user || o.referrer !== referrer || o.status !== "paid" || o.claimed) continue;
      if (o.commission === 0) continue;
      const b = this.balance(referrer, o.currency);
      if (o.released) b.affiliateClaimable -= o.commission;
      else b.affiliatePending -= o.commission;
      o.commission = 0;
      o.voided = true;
    }
  }

  /** The released, unclaimed orders whose commission (what is left of it) `user` claims now. */
  private claimableOrders(user: number, partner: boolean): ModelOrder[] {
    return this.orders.filter((o) =>
      partner
        ? o.partner === user &&
          o.status === "paid" &&
          o.released &&
          !o.partnerClaimed &&
          o.partnerCommission > 0
        : o.referrer === user && o.status === "paid" && o.released && !o.claimed && o.commission > 0,
    );
  }

  private sums(orders: ModelOrder[], amount: (o: ModelOrder) => number): Map<Currency, number> {
    const sums = new Map<Currency, number>();
    for (const o of orders) sums.set(o.currency, (sums.get(o.currency) ?? 0) + amount(o));
    return sums;
  }

  /** What a claim by `user` moves, per currency; empty when nothing is claimable. */
  claimable(user: number): Map<Currency, number> {
    return this.sums(this.claimableOrders(user, false), (o) => o.commission);
  }

  claim(user: number): Map<Currency, number> {
    const orders = this.claimableOrders(user, false);
    for (const o of orders) o.claimed = true;
    const sums = this.sums(orders, (o) => o.commission);
    for (const [currency, amount] of sums)
      this.move(user, currency, "affiliateClaimable", "available", amount);
    this.claimPostings[user] = (this.claimPostings[user] ?? 0) + sums.size;
    return sums;
  }

  /** What a partner claim by `user` moves, per currency; empty when nothing is claimable. */
  partnerClaimable(user: number): Map<Currency, number> {
    return this.sums(this.claimableOrders(user, true), (o) => o.partnerCommission);
  }

  partnerClaim(user: number): Map<Currency, number> {
    const orders = this.claimableOrders(user, true);
    for (const o of orders) o.partnerClaimed = true;
    const sums = this.sums(orders, (o) => o.partnerCommission);
    for (const [currency, amount] of sums) this.move(user, currency, "partnerClaimable", "available", amount);
    this.partnerClaimPostings[user] = (this.partnerClaimPostings[user] ?? 0) + sums.size;
    return sums;
  }

  /**
   * What the platform's fees hold of an order's own postings (sale, refunds, commission void): its
   * share of what is left, and of what a chargeback holds or took (a lost one's own posting takes
   * that back). Never a user's shortfall (decision 042).
   */
  platformFeesOf(o: ModelOrder): number {
    const disputed = o.dispute && o.dispute.status !== "won" ? o.dispute.taken.platform : 0;
    return o.fee - o.commission + disputed;
  }

  /** The ledger transactions that should exist for an order, payout or dispute reference, by kind. */
  expectedPostings(): Map<string, number> {
    const out = new Map<string, number>();
    const add = (kind: string, ref: string, n: number) => out.set(`${kind}|${ref}`, n);
    for (const o of this.orders) {
      add("order_paid", o.id, 1);
      add("hold_release", o.id, o.releasePosted ? 1 : 0);
      add("refund", o.id, o.refundedWhole ? 1 : 0);
      for (const total of o.partialRefunds) add("refund", `${o.id}:${total}`, 1);
      add("commission_void", o.id, o.voided ? 1 : 0);
      const d = o.dispute;
      if (!d) continue;
      add("dispute", d.id, d.amount > 0 ? 1 : 0);
      add("dispute_fee", d.id, 1);
      add("dispute_fee_returned", d.id, d.status === "won" ? 1 : 0);
      add("dispute_won", d.id, d.status === "won" && d.amount > 0 ? 1 : 0);
      add("dispute_lost", d.id, d.status === "lost" && d.taken.vat + d.taken.platform !== 0 ? 1 : 0);
    }
    for (const p of this.payouts) {
      add("payout_requested", p.id, 1);
      add("payout_paid", p.id, p.status === "paid" ? 1 : 0);
      add("payout_failed", p.id, p.status === "failed" ? 1 : 0);
    }
    return out;
  }

  /** Every dispute of the run, with its order. */
  disputes(): { order: ModelOrder; dispute: ModelDispute }[] {
    return this.orders.flatMap((order) => (order.dispute ? [{ order, dispute: order.dispute }] : []));
  }
}
