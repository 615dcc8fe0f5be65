import type { Currency } from "@salelink/contracts";

/*
 * The money model of the invariants test: what every balance should be, computed from the operations
 * alone with the business rules (DESIGN 3, decisions 010–012), never from the API's own code. The
 * commands (money/model-commands.ts) apply the same operation to the API and to this model, then
 * compare the two.
 */

export interface Rules {
  feeBps: number;
  commissionBps: number;
  payoutMinimum: number;
  /** A payout above this waits for an operator (the one risk rule of the runs); else approved at once. */
  reviewAbove: number;
}

/** `amount × bps / 10000`, rounded half up in integers (decision 012's worked examples). */
export const roundedShare = (amount: number, bps: number): number =>
  Math.floor((amount * bps + 5000) / 10000);

export interface Balances {
  pending: number;
  available: number;
  inTransit: number;
  affiliatePending: number;
  affiliateClaimable: number;
  partnerPending: number;
  partnerClaimable: number;
}

export const zeroBalances = (): Balances => ({
  pending: 0,
  available: 0,
  inTransit: 0,
  affiliatePending: 0,
  affiliateClaimable: 0,
  partnerPending: 0,
  partnerClaimable: 0,
});

/** A seller's partner programme in a run (decision 035): its one partner, their code and the rate. */
export interface ModelProgramme {
  partner: number;
  code: string;
  rateBps: number;
}

export interface ModelOrder {
  id: string;
  paymentId: string;
  seller: number;
  referrer: number | null;
  currency: Currency;
  gross: number;
  /** The VAT in the gross (what is left of it after partial refunds), owed to the buyer's country. */
  vat: number;
  fee: number;
  commission: number;
  /** The partner whose link brought the sale, when it earns (a blocked one does not). */
  partner: number | null;
  partnerCommission: number;
  net: number;
  /**
   * What refunds took back so far (issue 21: a creator's may be partial), and the total after each
   * partial one (its ledger reference). `fee`, `commission`, `partnerCommission` and `net` above are
   * what is left of each part.
   */
  refunded: number;
  partialRefunds: number[];
  status: "paid" | "refunded";
  released: boolean;
  claimed: boolean;
  partnerClaimed: boolean;
  /** An admin asked for its refund (the console refuses a second ask). */
  refundAsked: boolean;
  /** Its unclaimed commission was taken back: the seller turned out to be its referrer's own account. */
  voided: boolean;
  /** Every provider event id delivered for this order, with the result of its first delivery. */
  events: Map<string, "applied" | "ignored">;
}

export interface ModelPayout {
  id: string;
  user: number;
  currency: Currency;
  amount: number;
  status: "requested" | "processing" | "paid" | "failed";
}

export class MoneyModel {
  readonly orders: ModelOrder[] = [];
  readonly payouts: ModelPayout[] = [];
  /** Claims posted per user: one ledger transaction per currency of each. */
  readonly claimPostings: number[];
  /** Partner claims posted per user: one ledger transaction per currency of each. */
  readonly partnerClaimPostings: number[];
  /** Referred users found sharing their referrer's IBAN: self-referrals, earning nothing from then on. */
  readonly selfReferred: boolean[];
  /** Pairs of users holding the same IBAN ("a|b", a < b): a partner sharing it with the seller earns nothing. */
  readonly sharedIbans = new Set<string>();
  private readonly balances: Map<Currency, Balances>[];

  constructor(
    readonly rules: Rules,
    /** Each user's referrer (an index into the run's users), or null. */
    readonly referrers: (number | null)[],
    /** Each user's partner programme, or null. */
    readonly programmes: (ModelProgramme | null)[] = referrers.map(() => null),
  ) {
    this.balances = referrers.map(() => new Map());
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
    this.orders.splice(
      0,
      this.orders.length,
      ...other.orders.map((o) => ({
        ...o,
        partialRefunds: [...o.partialRefunds],
        events: new Map(o.events),
      })),
    );
    this.payouts.splice(0, this.payouts.length, ...other.payouts.map((p) => ({ ...p })));
    this.claimPostings.splice(0, this.claimPostings.length, ...other.claimPostings);
    this.partnerClaimPostings.splice(0, this.partnerClaimPostings.length, ...other.partnerClaimPostings);
    this.sharedIbans.clear();
    for (const pair of other.sharedIbans) this.sharedIbans.add(pair);
    this.selfReferred.splice(0, this.selfReferred.length, ...other.selfReferred);
    this.balances.splice(
      0,
      this.balances.length,
      ...other.balances.map((byCurrency) => new Map([...byCurrency].map(([c, b]) => [c, { ...b }]))),
    );
  }

  balance(user: number, currency: Currency): Balances {
    const byCurrency = this.balances[user];
    if (!byCurrency) throw new Error(`no user ${user}`);
    let b = byCurrency.get(currency);
    if (!b) {
      b = zeroBalances();
      byCurrency.set(currency, b);
    }
    return b;
  }

  /** Every non-zero balance of a user, by currency. */
  balancesOf(user: number): Map<Currency, Balances> {
    const out = new Map<Currency, Balances>();
    for (const [currency, b] of this.balances[user] ?? []) {
      if (Object.values(b).some((v) => v !== 0)) out.set(currency, { ...b });
    }
    return out;
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
  }) {
    const { viaPartner, vatBps = 0, ...facts } = p;
    const referrer = this.selfReferred[p.seller] ? null : (this.referrers[p.seller] ?? null);
    // The VAT in the price: the gross less the gross at 100/(100 + rate), rounded half up; the fee
    // and the commissions are shares of the rest (decision 039).
    const vat = p.gross - Math.floor((2 * p.gross * 10000 + (10000 + vatBps)) / (2 * (10000 + vatBps)));
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
      status: "paid",
      released: false,
      claimed: false,
      partnerClaimed: false,
      refundAsked: false,
      voided: false,
      events: new Map([[p.eventId, "applied"]]),
    };
    this.orders.push(order);
    this.balance(p.seller, p.currency).pending += order.net;
    if (referrer !== null) this.balance(referrer, p.currency).affiliatePending += commission;
    if (partner !== null) this.balance(partner, p.currency).partnerPending += partnerCommission;
    return order;
  }

  /** Whether a release at a time after every hold's end releases this order. */
  releasable = (o: ModelOrder) => o.status === "paid" && !o.released;

  release(o: ModelOrder) {
    if (!this.releasable(o)) return;
    o.released = true;
    const seller = this.balance(o.seller, o.currency);
    seller.pending -= o.net;
    seller.available += o.net;
    if (o.referrer !== null) {
      const ref = this.balance(o.referrer, o.currency);
      ref.affiliatePending -= o.commission;
      ref.affiliateClaimable += o.commission;
    }
    if (o.partner !== null) {
      const partner = this.balance(o.partner, o.currency);
      partner.partnerPending -= o.partnerCommission;
      partner.partnerClaimable += o.partnerCommission;
    }
  }

  /**
   * Refunded: everything goes back the way it came. After the hold, what the creator has already
   * withdrawn, and a referral commission already claimed, is borne by the platform (decisions 010
   * and 012); a partner commission already claimed is taken from the creator's available balance
   * with their own share, and what that cannot cover is borne by the platform (decision 035).
   */
  refund(o: ModelOrder) {
    if (o.status !== "paid") return;
    this.takeBack(o, { net: o.net, commission: o.commission, partner: o.partnerCommission });
    o.status = "refunded";
    // The first and whole refund is posted under the order's id, a later one under its total.
    if (o.refunded > 0) o.partialRefunds.push(o.gross);
    o.refunded = o.gross;
  }

  /**
   * A part of what is left of the sale refunded (issue 21, decision 037): each part of the split
   * gives back its share of `amount`, rounded to the largest remainders (ties to the part posted
   * first), so that the parts add up to the amount; then as a whole refund does. `amount` is all
   * that is left: a whole refund.
   */
  partialRefund(o: ModelOrder, amount: number) {
    const left = o.gross - o.refunded;
    if (o.status !== "paid" || amount <= 0 || amount > left) return;
    if (amount === left) {
      this.refund(o);
      return;
    }
    const platform = o.fee - o.commission;
    // The order of the sale's entries as posted: held, or after the hold's release.
    const parts: [keyof typeof taken, number][] = o.released
      ? [
          ["vat", o.vat],
          ["platform", platform],
          ["net", o.net],
          ["commission", o.commission],
          ["partner", o.partnerCommission],
        ]
      : [
          ["net", o.net],
          ["vat", o.vat],
          ["platform", platform],
          ["commission", o.commission],
          ["partner", o.partnerCommission],
        ];
    const taken = { net: 0, vat: 0, platform: 0, commission: 0, partner: 0 };
    const shares = parts
      .filter(([, x]) => x !== 0)
      .map(([name, x], index) => ({
        name,
        index,
        floor: Math.floor((x * amount) / left),
        rest: (x * amount) % left,
      }));
    let units = amount - shares.reduce((sum, p) => sum + p.floor, 0);
    for (const p of shares) taken[p.name] = p.floor;
    // Rounded up: the largest remainders; of equal ones, the part posted last (the ledger rounds
    // the reversal's entries down from the first posted).
    for (const p of [...shares].sort((a, b) => b.rest - a.rest || b.index - a.index)) {
      if (units <= 0 || p.rest === 0) break;
      taken[p.name] += 1;
      units -= 1;
    }
    this.takeBack(o, taken);
    o.net -= taken.net;
    o.vat -= taken.vat;
    o.fee -= taken.platform + taken.commission;
    o.commission -= taken.commission;
    o.partnerCommission -= taken.partner;
    o.refunded += amount;
    o.partialRefunds.push(o.refunded);
  }

  /** What a refund takes back of the seller's, the partner's and the referrer's parts. */
  private takeBack(o: ModelOrder, taken: { net: number; commission: number; partner: number }) {
    const seller = this.balance(o.seller, o.currency);
    const fromSeller = taken.net + (o.released && o.partnerClaimed ? taken.partner : 0);
    if (!o.released) seller.pending -= taken.net;
    else seller.available -= Math.min(fromSeller, Math.max(0, seller.available));
    if (o.partner !== null) {
      const partner = this.balance(o.partner, o.currency);
      if (!o.released) partner.partnerPending -= taken.partner;
      else if (!o.partnerClaimed) partner.partnerClaimable -= taken.partner;
    }
    if (o.referrer === null) return;
    const ref = this.balance(o.referrer, o.currency);
    if (!o.released) ref.affiliatePending -= taken.commission;
    else if (!o.claimed) ref.affiliateClaimable -= taken.commission;
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

  /** What a claim by `user` moves, per currency; empty when nothing is claimable. */
  claimable(user: number): Map<Currency, number> {
    const sums = new Map<Currency, number>();
    for (const o of this.orders) {
      if (o.referrer === user && o.status === "paid" && o.released && !o.claimed && o.commission > 0) {
        sums.set(o.currency, (sums.get(o.currency) ?? 0) + o.commission);
      }
    }
    return sums;
  }

  claim(user: number): Map<Currency, number> {
    const sums = this.claimable(user);
    for (const o of this.orders) {
      if (o.referrer === user && o.status === "paid" && o.released && !o.claimed) o.claimed = true;
    }
    for (const [currency, amount] of sums) {
      const b = this.balance(user, currency);
      b.affiliateClaimable -= amount;
      b.available += amount;
    }
    this.claimPostings[user] = (this.claimPostings[user] ?? 0) + sums.size;
    return sums;
  }

  /** What a partner claim by `user` moves, per currency; empty when nothing is claimable. */
  partnerClaimable(user: number): Map<Currency, number> {
    const sums = new Map<Currency, number>();
    for (const o of this.orders) {
      if (
        o.partner === user &&
        o.status === "paid" &&
        o.released &&
        !o.partnerClaimed &&
        o.partnerCommission > 0
      ) {
        sums.set(o.currency, (sums.get(o.currency) ?? 0) + o.partnerCommission);
      }
    }
    return sums;
  }

  partnerClaim(user: number): Map<Currency, number> {
    const sums = this.partnerClaimable(user);
    for (const o of this.orders) {
      if (o.partner === user && o.status === "paid" && o.released && o.partnerCommission > 0)
        o.partnerClaimed = true;
    }
    for (const [currency, amount] of sums) {
      const b = this.balance(user, currency);
      b.partnerClaimable -= amount;
      b.available += amount;
    }
    this.partnerClaimPostings[user] = (this.partnerClaimPostings[user] ?? 0) + sums.size;
    return sums;
  }

  /** At most one open payout per user and currency (issue 23). */
  openPayout(user: number, currency: Currency): ModelPayout | undefined {
    return this.payouts.find(
      (p) =>
        p.user === user && p.currency === currency && (p.status === "requested" || p.status === "processing"),
    );
  }

  /** The user and currency with the most available money, among those without an open payout. */
  richest(): { user: number; currency: Currency } {
    let best = { user: 0, currency: "EUR" as Currency, available: -1 };
    for (const [user, byCurrency] of this.balances.entries()) {
      for (const [currency, b] of byCurrency) {
        if (this.openPayout(user, currency)) continue;
        if (b.available > best.available) best = { user, currency, available: b.available };
      }
    }
    return { user: best.user, currency: best.currency };
  }

  /** The answer a withdrawal request should get: 409 with an open payout, 400 outside the limits. */
  withdrawalOutcome(
    user: number,
    currency: Currency,
    amount: number | null,
  ): { status: number; amount: number } {
    if (this.openPayout(user, currency)) return { status: 409, amount: 0 };
    const available = this.balance(user, currency).available;
    const wanted = amount ?? available;
    if (wanted < this.rules.payoutMinimum || wanted > available) return { status: 400, amount: 0 };
    return { status: 201, amount: wanted };
  }

  /** The status a new payout of `amount` starts in: held for an operator, or approved by the rules. */
  initialStatus(amount: number): "requested" | "processing" {
    return amount > this.rules.reviewAbove ? "requested" : "processing";
  }

  /**
   * What a scheduled run at a threshold pays `user` (issue 23): each currency whose available balance
   * reaches the minimum and the threshold, with no payout of it open, the whole balance.
   */
  scheduledPayouts(user: number, threshold: number): { currency: Currency; amount: number }[] {
    const floor = Math.max(this.rules.payoutMinimum, threshold);
    const out: { currency: Currency; amount: number }[] = [];
    for (const [currency, b] of this.balances[user] ?? []) {
      if (b.available >= floor && !this.openPayout(user, currency))
        out.push({ currency, amount: b.available });
    }
    return out.sort((a, b) => (a.currency < b.currency ? -1 : 1));
  }

  requested(p: ModelPayout) {
    this.payouts.push(p);
    const b = this.balance(p.user, p.currency);
    b.available -= p.amount;
    b.inTransit += p.amount;
  }

  /** Applies an operator's transition if the payout's status allows it; answers whether it did. */
  transition(p: ModelPayout, action: "approve" | "paid" | "fail"): boolean {
    const b = this.balance(p.user, p.currency);
    if (action === "approve" && p.status === "requested") {
      p.status = "processing";
      return true;
    }
    if (action === "paid" && p.status === "processing") {
      p.status = "paid";
      b.inTransit -= p.amount;
      return true;
    }
    if (action === "fail" && (p.status === "requested" || p.status === "processing")) {
      p.status = "failed";
      b.inTransit -= p.amount;
      b.available += p.amount;
      return true;
    }
    return false;
  }

  /** The ledger transactions that should exist for an order or payout reference, by kind. */
  expectedPostings(): Map<string, number> {
    const out = new Map<string, number>();
    const add = (kind: string, ref: string, n: number) => out.set(`${kind}|${ref}`, n);
    for (const o of this.orders) {
      add("order_paid", o.id, 1);
      add("hold_release", o.id, o.released ? 1 : 0);
      add("refund", o.id, o.status === "refunded" && o.partialRefunds.length === 0 ? 1 : 0);
      for (const total of o.partialRefunds) add("refund", `${o.id}:${total}`, 1);
      add("commission_void", o.id, o.voided ? 1 : 0);
    }
    for (const p of this.payouts) {
      add("payout_requested", p.id, 1);
      add("payout_paid", p.id, p.status === "paid" ? 1 : 0);
      add("payout_failed", p.id, p.status === "failed" ? 1 : 0);
    }
    return out;
  }
}
