import type { Currency } from "@salelink/contracts";
import { debtWriteOffResultSchema } from "@salelink/contracts";
import { and, eq, like } from "drizzle-orm";
import { expect } from "vitest";
import { disputes, paymentEvents } from "../../src/db/schema/index.ts";
import { orderAccessToken } from "../../src/modules/checkout/order-access.ts";
import type { ModelOrder, MoneyModel } from "./model.ts";
import { type Cmd, concurrently, expectOnce, pick } from "./model-commands.ts";
import { runJobs } from "./model-jobs.ts";
import { call, checkInvariants, userOf, type World } from "./model-world.ts";

/*
 * Chargebacks and debts in the money model (issue 32, decision 042). The sandbox's card issuer
 * disputes a payment (its control on the order page, by the order's token); its event, delivered by
 * a job, takes all that is left of the sale as a refund would, and its fee from the creator; the
 * evidence goes at once (DISPUTE_EVIDENCE_DELAY_MINUTES=0), and an operator plays the bank's
 * decision. An operator may write a debt off.
 */

/** The dispute events recorded for an order since `known`, by type: what the sandbox delivered. */
async function newDisputeEvents(w: World, order: ModelOrder): Promise<string[]> {
  const rows = await w.ctx.database.db
    .select({ eventId: paymentEvents.eventId, type: paymentEvents.type, payload: paymentEvents.payload })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.orderId, order.id), like(paymentEvents.type, "dispute.%")));
  const fresh = rows.filter((r) => !order.events.has(r.eventId));
  for (const r of fresh) {
    w.events.set(r.eventId, r.payload);
    order.events.set(r.eventId, "applied");
  }
  return fresh.map((r) => r.type).sort();
}

/**
 * The buyer disputes an order's payment with their bank, `times` at once: one dispute of a sandbox
 * payment of a sale not wholly refunded (two at once meet the issuer's unique index), 409 once
 * disputed, 404 for a payment the sandbox never took (a bare provider event's sale, never refunded
 * through it) or a sale with nothing left.
 */
export class DisputeOpen implements Cmd {
  constructor(readonly p: { order: number; times: number }) {}
  check = (m: Readonly<MoneyModel>) => m.orders.length > 0;
  async run(m: MoneyModel, w: World) {
    const order = pick(m.orders, this.p.order);
    const token = orderAccessToken(w.ctx.config, order.id);
    const answers = await concurrently(this.p.times, () =>
      call(w.ctx, "POST", `/sandbox/orders/${token}/dispute`, undefined, { reason: "fraudulent" }),
    );
    const codes = answers.map((a) => a.statusCode);
    // A sale refunded in whole has nothing left to dispute (issue 32).
    if (!order.sandboxPaid || order.status !== "paid")
      expect(codes, "dispute of a payment the sandbox never took, or of nothing left").toEqual(
        codes.map(() => 404),
      );
    else expectOnce(codes, order.dispute === null, 201);
    await runJobs(w);
    if (order.sandboxPaid && order.status === "paid" && order.dispute === null) {
      // Opened, then under review once the evidence job has sent the evidence.
      expect(await newDisputeEvents(w, order), "dispute events").toEqual([
        "dispute.needs_response",
        "dispute.under_review",
      ]);
      const rows = await w.ctx.database.db.select().from(disputes).where(eq(disputes.orderId, order.id));
      expect(rows, "one dispute of the order").toHaveLength(1);
      const [row] = rows;
      if (!row) throw new Error("no dispute");
      const d = m.disputeOpened(order, { id: row.id, bankId: row.providerDisputeId });
      expect(
        {
          status: row.status,
          // The bank disputes the whole payment; what is taken is at most what is left of the sale.
          disputed: row.amountMinor,
          amount: row.heldNetMinor + row.heldVatMinor + row.heldFeeMinor + row.heldPartnerMinor,
          net: row.heldNetMinor,
          vat: row.heldVatMinor,
          platform: row.heldFeeMinor - row.heldCommissionMinor,
          commission: row.heldCommissionMinor,
          partner: row.heldPartnerMinor,
          fee: row.feeMinor,
          debt: row.debtMinor,
        },
        "what the dispute took",
      ).toEqual({
        status: "under_review",
        disputed: order.gross,
        amount: d.amount,
        ...d.taken,
        fee: m.rules.disputeFee,
        debt: d.debt,
      });
    }
    await checkInvariants(w, m);
  }
  toString = () => `disputeOpen(order ${this.p.order}${this.p.times > 1 ? `, ×${this.p.times}` : ""})`;
}

/** The bank decides one of the run's disputes (the sandbox's operator control), `times` at once. */
export class DisputeDecide implements Cmd {
  constructor(readonly p: { dispute: number; outcome: "won" | "lost"; times: number }) {}
  check = (m: Readonly<MoneyModel>) => m.disputes().length > 0;
  async run(m: MoneyModel, w: World) {
    const { order, dispute } = pick(m.disputes(), this.p.dispute);
    const answers = await concurrently(this.p.times, () =>
      call(w.ctx, "POST", `/admin/sandbox/disputes/${dispute.bankId}/decide`, w.admin, {
        outcome: this.p.outcome,
      }),
    );
    const open = dispute.status === "open";
    expectOnce(
      answers.map((a) => a.statusCode),
      open,
      204,
    );
    await runJobs(w);
    if (open) {
      expect(await newDisputeEvents(w, order), "decision events").toEqual([`dispute.${this.p.outcome}`]);
      if (this.p.outcome === "won") m.disputeWon(order);
      else m.disputeLost(order);
    }
    await checkInvariants(w, m);
  }
  toString = () =>
    `disputeDecide(dispute ${this.p.dispute}, ${this.p.outcome}${this.p.times > 1 ? `, ×${this.p.times}` : ""})`;
}

/**
 * An operator writes a debt off (POST /admin/debts/write-off): the whole of it, once; 409 when
 * nothing is owed. "debtor": the first debt of the run, if any (else user 0 in euros).
 */
export class WriteOff implements Cmd {
  constructor(readonly p: { user: number | "debtor"; currency: Currency; times: number }) {}
  check = () => true;
  async run(m: MoneyModel, w: World) {
    const [first] = [...m.debts().keys()];
    const [debtor, owedIn] = first?.split("|") ?? ["0", "EUR"];
    const index = this.p.user === "debtor" ? Number(debtor) : this.p.user;
    const currency = this.p.user === "debtor" ? (owedIn as Currency) : this.p.currency;
    const owed = -m.balance(index, currency).debt;
    const answers = await concurrently(this.p.times, () =>
      call(w.ctx, "POST", "/admin/debts/write-off", w.admin, {
        userId: userOf(w, index).id,
        currency,
        reason: "Written off by the money model",
      }),
    );
    expectOnce(
      answers.map((a) => a.statusCode),
      owed > 0,
      200,
    );
    const ok = answers.find((a) => a.statusCode === 200);
    if (ok) {
      expect(debtWriteOffResultSchema.parse(ok.json()).amount, "written off").toBe(owed);
      expect(m.writeOff(index, currency)).toBe(owed);
    }
    await checkInvariants(w, m);
  }
  toString = () =>
    `writeOff(${this.p.user === "debtor" ? "debtor" : `u${this.p.user} ${this.p.currency}`}${this.p.times > 1 ? `, ×${this.p.times}` : ""})`;
}
