import type { Locale, RefundView, SaleView } from "@salelink/contracts";
import { formatMoney } from "@salelink/contracts/money";
import { z } from "zod";
import type { Config } from "../../../config.ts";
import type { Db, Tx } from "../../../db/client.ts";
import { jobKind } from "../../../jobs/index.ts";
import { AppError, notFound, validation } from "../../../lib/errors.ts";
import { pgErrorCode } from "../../../lib/pg-errors.ts";
import { sandboxDeliverJob } from "../../../providers/payments/sandbox/jobs.ts";
import { sandboxEvent } from "../../../providers/payments/sandbox/provider.ts";
import { StripeRequestError } from "../../../providers/payments/stripe.ts";
import type { PaymentProvider } from "../../../providers/payments/types.ts";
import { audit } from "../../audit/queries.ts";
import { openDisputeOf } from "../disputes/queries.ts";
import { disputesOf } from "../disputes/views.ts";
import { lockOrder } from "../queries.ts";
import { debtOfRefunding } from "../reversal.ts";
import {
  failRefund,
  insertRefund,
  type LockedSale,
  lockSale,
  payoutOfSale,
  refundsOf,
  refundToAsk,
  refundUnderWay,
  saleRow,
} from "./queries.ts";

/*
 * Refunds asked of the provider (issue 21, decision 037): by a sale's creator, full or partial,
 * within the link's refund window, or by an admin, in full. Each is a row first (at most one under
 * way per order), then a provider call with that row's idempotency key; the provider's refund event
 * reverses the ledger (orders/events.ts), however often it is delivered. A job asks again should the
 * process stop between the row and the call.
 */

export interface RefundDeps {
  db: Db;
  config: Pick<Config, "REFUND_DEBT_LIMIT_MINOR">;
  payments: PaymentProvider;
  pokeJobs(): void;
}

/** Asks the provider again for a refund still under way: after a crash, or a provider's hiccup. */
export const askRefundJob = jobKind("orders.ask-refund", z.object({ refundId: z.uuid() }));
/** How long after a refund's row the safety net asks again if nothing settled it. */
const ASK_AGAIN_MS = 2 * 60_000;

const DAY_MS = 86_400_000;

/** The end of a sale's refund window: its payment plus the link's days. */
export function refundableUntil(paidAt: Date, windowDays: number): Date {
  return new Date(paidAt.getTime() + windowDays * DAY_MS);
}

type Ask =
  | { by: "creator"; creatorId: string; amountMinor: number; reason: string; locale: Locale }
  | { by: "admin"; adminId: string; reason: string };

/**
 * Records a refund and asks the provider for it. A creator's is checked against the window and
 * what is left; an admin's takes what is left, whenever. Answers the refund's id.
 */
export async function askRefund(deps: RefundDeps, orderId: string, ask: Ask): Promise<string> {
  const { db, payments } = deps;
  let refund: AskedRefund;
  try {
    refund = await db.transaction(async (tx) => {
      const sale = await lockSale(tx, { orderId, creatorId: ask.by === "creator" ? ask.creatorId : null });
      if (!sale) throw notFound("Order");
      const paymentId = refundableSale(sale);
      if (await refundUnderWay(tx, sale.id)) throw underWay();
      // The buyer's bank decides a disputed payment; the provider refuses its refund meanwhile.
      if (await openDisputeOf(tx, sale.id))
        throw new AppError(
          "ConflictException",
          "This payment is disputed by the buyer's bank: it cannot be refunded until the dispute is closed.",
        );
      const left = sale.totalMinor - sale.refundedMinor - sale.disputedMinor;
      let amountMinor = left;
      if (ask.by === "creator") {
        if (sale.paidAt && refundableUntil(sale.paidAt, sale.refundWindowDays) <= new Date()) {
          throw new AppError("ConflictException", "The refund window of this sale is over.");
        }
        if (ask.amountMinor > left) {
          throw validation(
            { amountMinor: ["At most {amount} can be refunded."] },
            "Some fields are invalid.",
            { amount: formatMoney(left, sale.currency, ask.locale) },
          );
        }
        amountMinor = ask.amountMinor;
        // The money already paid out or claimed would become someone's debt (decision 042): past
        // the limit, only an operator may refund it.
        const order = await lockOrder(tx, sale.id);
        const debt = order ? await debtOfRefunding(tx, order, amountMinor) : null;
        if (debt && debt.addedMinor > 0 && debt.largestOwedMinor > deps.config.REFUND_DEBT_LIMIT_MINOR)
          throw new AppError(
            "ConflictException",
            "{amount} of this sale has already been paid out or claimed: refunding it would leave a debt. Ask our support to refund it.",
            { params: { amount: formatMoney(debt.addedMinor, sale.currency, ask.locale) } },
          );
      }
      const cumulative = sale.refundedMinor + amountMinor;
      const id = await insertRefund(tx, {
        orderId: sale.id,
        creatorId: sale.creatorId,
        amountMinor,
        currency: sale.currency,
        cumulativeMinor: cumulative,
        reason: ask.reason,
        by: ask.by,
        actorId: ask.by === "creator" ? ask.creatorId : ask.adminId,
      });
      if (ask.by === "admin") {
        await audit(tx, {
          actorId: ask.adminId,
          action: "order.refund",
          targetType: "order",
          targetId: sale.id,
          reason: ask.reason,
          details: { amountMinor, currency: sale.currency },
        });
      }
      await askRefundJob.enqueue(
        tx,
        { refundId: id },
        { runAt: new Date(Date.now() + ASK_AGAIN_MS), dedupeKey: `ask-refund:${id}` },
      );
      return { id, orderId: sale.id, paymentId, amountMinor, cumulative, currency: sale.currency };
    });
  } catch (error) {
    // Two asks at once: the partial unique index lets one through.
    if (pgErrorCode(error) === "23505") throw underWay();
    throw error;
  }
  try {
    await askProvider(db, payments, refund);
  } catch (error) {
    // A refusal ends the refund (the creator may try another); anything that may pass when asked
    // again is left to the job, with the same idempotency key.
    if (error instanceof StripeRequestError && !error.retryable) {
      await failRefund(db, { refundId: refund.id, failure: error.message });
      const failure = new AppError("PaymentProviderException", "The payment provider refused the refund.");
      failure.cause = error;
      throw failure;
    }
    deps.pokeJobs();
    return refund.id;
  }
  if (payments.kind === "sandbox") {
    await sandboxRefundEvent(db, refund);
    deps.pokeJobs();
  }
  return refund.id;
}

interface AskedRefund {
  id: string;
  orderId: string;
  paymentId: string;
  amountMinor: number;
  /** What the payment's refunds add up to once this one is through. */
  cumulative: number;
  currency: RefundView["currency"];
}

function refundableSale(sale: LockedSale): string {
  if (sale.status !== "paid" || !sale.paymentId)
    throw new AppError("ConflictException", "Only a paid order can be refunded.");
  return sale.paymentId;
}

const underWay = () => new AppError("ConflictException", "A refund of this order is already under way.");

/**
 * One refund asked of the provider, with its row's key: asked twice, it is one refund. Stripe
 * reports it with its own event; the sandbox sends its own the same way, carrying (as Stripe's
 * charge does) what the payment's refunds add up to.
 */
async function askProvider(db: Db | Tx, payments: PaymentProvider, refund: AskedRefund): Promise<void> {
  await payments.refund(
    { paymentId: refund.paymentId, amountMinor: refund.amountMinor, idempotencyKey: `refund-${refund.id}` },
    db,
  );
}

async function sandboxRefundEvent(tx: Db | Tx, refund: AskedRefund): Promise<void> {
  await sandboxDeliverJob.enqueue(
    tx,
    {
      event: sandboxEvent("refund.succeeded", {
        paymentId: refund.paymentId,
        orderId: refund.orderId,
        amountMinor: refund.cumulative,
        currency: refund.currency,
      }),
    },
    { dedupeKey: `sandbox-refund:${refund.id}` },
  );
}

/** The job: a refund still under way is asked again (the provider's key makes it the same one). */
export async function askRefundAgain(tx: Tx, payments: PaymentProvider, refundId: string): Promise<void> {
  const refund = await refundToAsk(tx, refundId);
  if (refund?.status !== "asked" || !refund.paymentId) return;
  const ask: AskedRefund = {
    id: refund.id,
    orderId: refund.orderId,
    paymentId: refund.paymentId,
    amountMinor: refund.amountMinor,
    cumulative: refund.cumulativeMinor,
    currency: refund.currency,
  };
  try {
    await askProvider(tx, payments, ask);
  } catch (error) {
    if (error instanceof StripeRequestError && !error.retryable) {
      await failRefund(tx, { refundId, failure: error.message });
      return;
    }
    throw error;
  }
  if (payments.kind === "sandbox") await sandboxRefundEvent(tx, ask);
}

/** One of the creator's sales: its figures, its refunds, and what may still be refunded. */
export async function saleOf(
  db: Db,
  creatorId: string,
  orderId: string,
  now = new Date(),
): Promise<SaleView> {
  const row = await saleRow(db, { orderId, creatorId });
  if (!row) throw notFound("Order");
  const [refunds, payout, disputes] = await Promise.all([
    refundsOf(db, row.id),
    payoutOfSale(db, { creatorId, orderId: row.id, currency: row.currency }),
    disputesOf(db, row.id),
  ]);
  const until = row.paidAt ? refundableUntil(row.paidAt, row.refundWindowDays) : null;
  const disputed = disputes.some((d) => d.status === "needs_response" || d.status === "under_review");
  const open =
    row.status === "paid" &&
    until !== null &&
    until > now &&
    !disputed &&
    !refunds.some((r) => r.status === "asked");
  return {
    id: row.id,
    linkId: row.linkId,
    linkTitle: row.linkTitle,
    buyerEmail: row.buyerEmail,
    status: row.status,
    currency: row.currency,
    totalMinor: row.totalMinor,
    feeMinor: row.feeMinor,
    partnerCommissionMinor: row.partnerCommissionMinor,
    netMinor: row.netMinor,
    refundedMinor: row.refundedMinor,
    paidAt: row.paidAt?.toISOString() ?? null,
    availableAt: row.availableAt?.toISOString() ?? null,
    refundableMinor: open ? row.totalMinor - row.refundedMinor - row.disputedMinor : 0,
    refundableUntil: until?.toISOString() ?? null,
    refundWindowDays: row.refundWindowDays,
    disputedMinor: row.disputedMinor,
    disputes,
    refunds: refunds.map(
      (r): RefundView => ({
        ...r,
        createdAt: r.createdAt.toISOString(),
        settledAt: r.settledAt?.toISOString() ?? null,
      }),
    ),
    vatMinor: row.vatMinor,
    vatRateBps: row.vatRateBps,
    vatCountry: row.vatCountry,
    payout: payout && {
      id: payout.id,
      status: payout.status,
      requestedAt: payout.requestedAt.toISOString(),
      paidAt: payout.paidAt?.toISOString() ?? null,
    },
  };
}
