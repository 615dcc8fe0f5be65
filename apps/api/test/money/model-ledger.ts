import type { Currency } from "@salelink/contracts";

/*
 * The money model's wallets and payouts (money/model.ts builds the sales on them): every user's
 * balances per currency, computed from the rules alone. Money that already left is its owner's debt,
 * never the platform's loss (decision 042): a debit takes what the balance it hits still holds and
 * the rest becomes its owner's debt; what next becomes available repays it first; payouts wait while
 * anything is owed.
 */

export interface Rules {
  feeBps: number;
  commissionBps: number;
  payoutMinimum: number;
  /** A payout above this waits for an operator (the one risk rule of the runs); else approved at once. */
  reviewAbove: number;
  /** A creator's refund that would add more debt than this is refused (REFUND_DEBT_LIMIT_MINOR). */
  refundDebtLimit: number;
  /** The sandbox issuer's fee for a dispute, borne by the creator. */
  disputeFee: number;
}

export interface Balances {
  pending: number;
  available: number;
  inTransit: number;
  affiliatePending: number;
  affiliateClaimable: number;
  partnerPending: number;
  partnerClaimable: number;
  /** What the user owes in this currency: negative, or 0. */
  debt: number;
}

export const zeroBalances = (): Balances => ({
  pending: 0,
  available: 0,
  inTransit: 0,
  affiliatePending: 0,
  affiliateClaimable: 0,
  partnerPending: 0,
  partnerClaimable: 0,
  debt: 0,
});

/** A balance a reversal takes money from. */
export type Field = Exclude<keyof Balances, "debt" | "inTransit">;

/** Money taken back from `user`'s `field` balance. */
export interface Debit {
  user: number;
  field: Field;
  amount: number;
}

export interface ModelPayout {
  id: string;
  user: number;
  currency: Currency;
  amount: number;
  status: "requested" | "processing" | "paid" | "failed";
  /** Whether the model said its payee owed money when it was created (never, by the rules). */
  owedWhenCreated: boolean;
}

export class AccountsModel {
  readonly payouts: ModelPayout[] = [];
  protected readonly balances: Map<Currency, Balances>[];

  constructor(
    readonly rules: Rules,
    /** Each user's referrer (an index into the run's users), or null. */
    readonly referrers: (number | null)[],
  ) {
    this.balances = referrers.map(() => new Map());
  }

  /** Takes `other`'s wallets and payouts, in place. */
  protected assignAccounts(other: AccountsModel) {
    this.payouts.splice(0, this.payouts.length, ...other.payouts.map((p) => ({ ...p })));
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

  /** Whether `user` owes anything, in any currency. */
  owes(user: number): boolean {
    return [...(this.balances[user]?.values() ?? [])].some((b) => b.debt < 0);
  }

  /** Each user's debt per currency (non-zero ones): what the ledger's `debt` accounts should hold. */
  debts(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [user, byCurrency] of this.balances.entries())
      for (const [currency, b] of byCurrency) if (b.debt !== 0) out.set(`${user}|${currency}`, b.debt);
    return out;
  }

  /**
   * What `debits` would leave owed, per user: each user's debits of one balance taken together, each
   * up to what that balance holds (a negative balance holds nothing), the rest owed.
   */
  shortfalls(currency: Currency, debits: readonly Debit[]): { taken: Debit[]; owed: Map<number, number> } {
    const merged = new Map<string, Debit>();
    for (const d of debits) {
      if (d.amount <= 0) continue;
      const key = `${d.user}|${d.field}`;
      const row = merged.get(key);
      if (row) row.amount += d.amount;
      else merged.set(key, { ...d });
    }
    const taken: Debit[] = [];
    const owed = new Map<number, number>();
    for (const d of merged.values()) {
      const held = Math.max(0, this.balance(d.user, currency)[d.field]);
      const take = Math.min(held, d.amount);
      if (take > 0) taken.push({ ...d, amount: take });
      if (d.amount > take) owed.set(d.user, (owed.get(d.user) ?? 0) + d.amount - take);
    }
    return { taken, owed };
  }

  /** Takes `debits` back, the shortfalls as debts, then repays; answers the debt added, all users. */
  cover(currency: Currency, debits: readonly Debit[]): number {
    const { taken, owed } = this.shortfalls(currency, debits);
    for (const d of taken) this.balance(d.user, currency)[d.field] -= d.amount;
    for (const [user, amount] of owed) this.balance(user, currency).debt -= amount;
    this.repay();
    return [...owed.values()].reduce((sum, n) => sum + n, 0);
  }

  /** Money into `user`'s `field` balance; what becomes available repays a debt first. */
  credit(user: number, currency: Currency, field: keyof Balances, amount: number) {
    this.balance(user, currency)[field] += amount;
    this.repay();
  }

  /** Moves money between two of `user`'s balances (a release, a claim), then repays. */
  move(user: number, currency: Currency, from: keyof Balances, to: keyof Balances, amount: number) {
    const b = this.balance(user, currency);
    b[from] -= amount;
    b[to] += amount;
    this.repay();
  }

  /** Nobody holds available money and a debt in the same currency: the first repays the second. */
  private repay() {
    for (const byCurrency of this.balances) {
      for (const b of byCurrency.values()) {
        const amount = Math.min(Math.max(0, b.available), Math.max(0, -b.debt));
        b.available -= amount;
        b.debt += amount;
      }
    }
  }

  /** An operator writes the whole debt off (POST /admin/debts/write-off); answers what was owed. */
  writeOff(user: number, currency: Currency): number {
    const b = this.balance(user, currency);
    const owed = -b.debt;
    b.debt = 0;
    return owed;
  }

  /** At most one open payout per user and currency (issue 23). */
  openPayout(user: number, currency: Currency): ModelPayout | undefined {
    return this.payouts.find(
      (p) =>
        p.user === user && p.currency === currency && (p.status === "requested" || p.status === "processing"),
    );
  }

  /** The user and currency with the most available money, among those who may withdraw it. */
  richest(): { user: number; currency: Currency } {
    let best = { user: 0, currency: "EUR" as Currency, available: -1 };
    for (const [user, byCurrency] of this.balances.entries()) {
      if (this.owes(user)) continue;
      for (const [currency, b] of byCurrency) {
        if (this.openPayout(user, currency)) continue;
        if (b.available > best.available) best = { user, currency, available: b.available };
      }
    }
    return { user: best.user, currency: best.currency };
  }

  /**
   * The answer a withdrawal request should get: 409 while anything is owed, in any currency (before
   * anything else), or with an open payout; 400 outside the limits.
   */
  withdrawalOutcome(
    user: number,
    currency: Currency,
    amount: number | null,
  ): { status: number; amount: number } {
    if (this.owes(user)) return { status: 409, amount: 0 };
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
   * What a scheduled run at a threshold pays `user` (issue 23): nothing while anything is owed;
   * else each currency whose available balance reaches the minimum and the threshold, with no payout
   * of it open, the whole balance.
   */
  scheduledPayouts(user: number, threshold: number): { currency: Currency; amount: number }[] {
    if (this.owes(user)) return [];
    const floor = Math.max(this.rules.payoutMinimum, threshold);
    const out: { currency: Currency; amount: number }[] = [];
    for (const [currency, b] of this.balances[user] ?? []) {
      if (b.available >= floor && !this.openPayout(user, currency))
        out.push({ currency, amount: b.available });
    }
    return out.sort((a, b) => (a.currency < b.currency ? -1 : 1));
  }

  requested(p: Omit<ModelPayout, "owedWhenCreated">) {
    this.payouts.push({ ...p, owedWhenCreated: this.owes(p.user) });
    this.move(p.user, p.currency, "available", "inTransit", p.amount);
  }

  /**
   * Applies an operator's transition if the payout's status allows it; answers whether it did. An
   * approval waits while the payee owes anything; a failure brings the money back (repaying first).
   */
  transition(p: ModelPayout, action: "approve" | "paid" | "fail"): boolean {
    if (action === "approve" && p.status === "requested" && !this.owes(p.user)) {
      p.status = "processing";
      return true;
    }
    if (action === "paid" && p.status === "processing") {
      p.status = "paid";
      this.balance(p.user, p.currency).inTransit -= p.amount;
      return true;
    }
    if (action === "fail" && (p.status === "requested" || p.status === "processing")) {
      p.status = "failed";
      this.move(p.user, p.currency, "inTransit", "available", p.amount);
      return true;
    }
    return false;
  }
}
