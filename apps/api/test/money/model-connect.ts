import type { Currency } from "@salelink/contracts";
import { type ModelPayout, MoneyModel } from "./model.ts";

/*
 * The money model with payouts through Stripe Connect (issue 32, decision 042): what Stripe should
 * hold for each payout, from the rules alone. An approved payout waits for its submission job; the
 * job fails it back into the balance when its payee owes money (no transfer), else transfers the
 * amount to the payee's connected account and pays it out from there. Stripe reports the outcome:
 * paid, or failed, when its transfer is taken back before the money returns to the balance. A payout
 * Stripe refuses after its transfer has the transfer taken back and fails. Operators no longer mark
 * payouts paid, nor fail one Stripe holds.
 */

/** What Stripe holds of one payout. */
export interface StripeFacts {
  /** The submission transferred the amount to the payee's connected account. */
  transferred: boolean;
  /** That transfer was taken back (a reversal of all of it). */
  reversed: boolean;
  /** Stripe's payout on the connected account, once made: the payout is sent. */
  stripeId: string | null;
}

/** How a payout's submission ended, as seen in its row. */
export type Submission = { payout: ModelPayout; outcome: "sent" | "failed" };

export class ConnectModel extends MoneyModel {
  /** By our payout id; a payout never submitted has none. */
  readonly stripe = new Map<string, StripeFacts>();

  override clone(): ConnectModel {
    const copy = new ConnectModel(this.rules, this.referrers, this.programmes);
    copy.assign(this);
    return copy;
  }

  override assign(other: MoneyModel) {
    super.assign(other);
    if (!(other instanceof ConnectModel)) return;
    this.stripe.clear();
    for (const [id, facts] of other.stripe) this.stripe.set(id, { ...facts });
    this.returned.clear();
    for (const id of other.returned) this.returned.add(id);
  }

  factsOf(p: ModelPayout): StripeFacts {
    return this.stripe.get(p.id) ?? { transferred: false, reversed: false, stripeId: null };
  }

  /** Stripe holds it: it was paid out there (and is processing, paid, or failed since). */
  sent = (p: ModelPayout): boolean => this.factsOf(p).stripeId !== null;

  /** Approved, its submission job not run yet (held by the run until a command lets it run). */
  awaitingSubmission = (p: ModelPayout): boolean => p.status === "processing" && !this.sent(p);

  /** Sent and not settled: Stripe's bank will pay it or send it back. */
  atStripe = (p: ModelPayout): boolean => p.status === "processing" && this.sent(p);

  /**
   * An operator's step: marking paid is refused (Stripe reports its own outcomes), failing is
   * refused once Stripe holds the payout; an approval queues the submission.
   */
  override transition(p: ModelPayout, action: "approve" | "paid" | "fail"): boolean {
    if (action === "paid") return false;
    if (action === "fail" && this.sent(p)) return false;
    return super.transition(p, action);
  }

  /** The amount goes back to the payee's balance, where it repays any debt first. */
  private backToBalance(p: ModelPayout) {
    p.status = "failed";
    this.move(p.user, p.currency, "inTransit", "available", p.amount);
  }

  /**
   * The submission job of each payout in `order` (one payee's, all awaiting it), as if run one
   * after the other: failed back without a transfer while the payee owes anything, else sent (which
   * `sent` then records, with Stripe's id).
   */
  submitInOrder(order: readonly ModelPayout[]): Submission[] {
    return order.map((payout) => {
      if (!this.owes(payout.user)) return { payout, outcome: "sent" };
      this.backToBalance(payout);
      return { payout, outcome: "failed" };
    });
  }

  /** Submitted: the amount transferred to the connected account and paid out from it as `stripeId`. */
  submitted(p: ModelPayout, stripeId: string) {
    this.stripe.set(p.id, { transferred: true, reversed: false, stripeId });
  }

  /** Stripe refused the payout after its transfer: the transfer is taken back, the payout fails. */
  refusedAfterTransfer(p: ModelPayout) {
    this.stripe.set(p.id, { transferred: true, reversed: true, stripeId: null });
    this.backToBalance(p);
  }

  /** `payout.paid`: the money left for the bank. */
  stripePaid(p: ModelPayout) {
    p.status = "paid";
    this.balance(p.user, p.currency).inTransit -= p.amount;
  }

  /** `payout.failed`: the transfer is taken back, then the amount returns to the balance. */
  stripeFailed(p: ModelPayout) {
    this.stripe.set(p.id, { ...this.factsOf(p), reversed: true });
    this.backToBalance(p);
  }

  /** Payouts the bank sent back after Stripe had paid them (`payout.failed` after `payout.paid`). */
  readonly returned = new Set<string>();

  /** Paid, and its bank may still send it back. */
  paidAtStripe = (p: ModelPayout): boolean => p.status === "paid" && this.sent(p);

  /** Sent back after it was paid: the transfer is taken back and the amount returns to the balance. */
  stripeReturned(p: ModelPayout) {
    this.stripe.set(p.id, { ...this.factsOf(p), reversed: true });
    this.returned.add(p.id);
    p.status = "failed";
    this.credit(p.user, p.currency, "available", p.amount);
  }

  override expectedPostings(): Map<string, number> {
    const out = super.expectedPostings();
    for (const id of this.returned) {
      out.set(`payout_paid|${id}`, 1);
      out.set(`payout_failed|${id}`, 0);
      out.set(`payout_returned|${id}`, 1);
    }
    return out;
  }

  /** What the payout's transfer leaves on the connected account, less its reversals. */
  transferNet(p: ModelPayout): number {
    const f = this.factsOf(p);
    return f.transferred && !f.reversed ? p.amount : 0;
  }

  /** Stripe's status of the payout made on the connected account, if any. */
  stripeStatus(p: ModelPayout): "pending" | "paid" | "failed" | null {
    if (!this.sent(p)) return null;
    return p.status === "processing" ? "pending" : p.status === "paid" ? "paid" : "failed";
  }

  /**
   * What `user`'s connected account holds, per currency (non-zero ones): what transfers left there,
   * less the payouts made from it that have not failed. Only a payout still processing and not yet
   * made at Stripe can leave money there, and none does once its submission has run.
   */
  connectedBalance(user: number): Map<Currency, number> {
    const out = new Map<Currency, number>();
    for (const p of this.payouts) {
      if (p.user !== user) continue;
      const status = this.stripeStatus(p);
      const paidOut = status === "pending" || status === "paid" ? p.amount : 0;
      const held = this.transferNet(p) - paidOut;
      if (held !== 0) out.set(p.currency, (out.get(p.currency) ?? 0) + held);
    }
    return new Map([...out].filter(([, amount]) => amount !== 0));
  }
}
