import type { DisputeStatusName } from "@salelink/contracts";
import { formatMoney } from "@salelink/contracts/money";
import { z } from "zod";
import type { Config } from "../../../config.ts";
import type { Tx } from "../../../db/client.ts";
import { type JobRegistry, jobKind } from "../../../jobs/index.ts";
import { StripeRequestError } from "../../../providers/payments/stripe.ts";
import {
  type DisputeEvent,
  type PaymentProvider,
  ProviderRefusedError,
} from "../../../providers/payments/types.ts";
import { issueCreditNote } from "../../invoices/service.ts";
import { queueMail } from "../../mail/jobs.ts";
import { debtsIncurred } from "../../wallet/debt-postings.ts";
import { queueDebtNotices } from "../../wallet/debts/service.ts";
import { disputeFee, disputeLost, disputeOpened, disputeWon } from "../../wallet/dispute-postings.ts";
import type { Posting } from "../../wallet/entries.ts";
import { balanceLookup, post } from "../../wallet/ledger.ts";
import { coverShortfall, type RefundedParts, refundedParts } from "../../wallet/postings.ts";
import type { ApplyResult } from "../events.ts";
import {
  linkPaymentEvent,
  linkTitle,
  lockOrder,
  type OrderRow,
  orderOfPayment,
  recordPaymentEvent,
  uncountSale,
} from "../queries.ts";
import { claimsOf, saleFacts } from "../sale-facts.ts";
import { assembleEvidence } from "./evidence.ts";
import {
  addDisputedParts,
  closeOrderByDispute,
  type DisputeRow,
  evidenceFacts,
  insertDispute,
  lockDispute,
  lockDisputeById,
  updateDispute,
} from "./queries.ts";

/*
 * Chargebacks (issue 32, decision 042). Every provider event carries the whole dispute, so each is
 * applied as "the dispute now stands so": its status only moves forward, and each movement of money
 * is posted once under the dispute's id, whatever the order or number of deliveries. The disputed
 * share of the sale is taken from the creator and the commissions' earners at once (into debt where
 * the money already left), the provider's fee from its bearer; a won dispute gives it all back, a
 * lost one makes it a refund, with its credit note.
 */

export type DisputeConfig = Pick<
  Config,
  "DISPUTE_FEE_BORNE_BY" | "DISPUTE_EVIDENCE_DELAY_MINUTES" | "WEB_ORIGIN"
>;

/** Sends a dispute's evidence once it is assembled (the creator's note included, if any by then). */
export const submitEvidenceJob = jobKind("orders.dispute-evidence", z.object({ disputeId: z.uuid() }));
/** Tells the creator a sale was disputed, with the deadline and the page to add a note. */
export const disputeNoticeJob = jobKind("orders.dispute-notice", z.object({ disputeId: z.uuid() }));

const rank: Record<DisputeStatusName, number> = {
  inquiry: 0,
  needs_response: 1,
  under_review: 2,
  inquiry_closed: 3,
  won: 3,
  lost: 3,
};
/** The bank took the disputed amount: every status of a chargeback (an inquiry takes nothing). */
const chargeback = (status: DisputeStatusName) => status !== "inquiry" && status !== "inquiry_closed";

/**
 * What the dispute's posting took of each part. Its amount is their sum (the referrer's commission is
 * inside the fee): never more than was left of the sale, whatever the bank disputed.
 */
const partsOf = (row: DisputeRow): RefundedParts => ({
  amountMinor: row.heldNetMinor + row.heldVatMinor + row.heldFeeMinor + row.heldPartnerMinor,
  vatMinor: row.heldVatMinor,
  feeMinor: row.heldFeeMinor,
  commissionMinor: row.heldCommissionMinor,
  partnerCommissionMinor: row.heldPartnerMinor,
  netMinor: row.heldNetMinor,
});

/** Posts a reversal with what its owners can no longer cover as their debts; answers those debts. */
async function postCovered(tx: Tx, order: OrderRow, posting: Posting): Promise<number> {
  const owners = posting.entries.flatMap((e) => (e.ownerId === null ? [] : [e.ownerId]));
  const covered: Posting = {
    ...posting,
    entries: coverShortfall(posting.entries, await balanceLookup(tx, owners), claimsOf(order)),
  };
  const { created } = await post(tx, covered);
  if (!created) return 0;
  await queueDebtNotices(tx, covered);
  return debtsIncurred(covered).reduce((sum, e) => sum - e.amountMinor, 0);
}

/** Applies one verified dispute event inside `tx`: once, whatever the order of deliveries. */
export async function applyDisputeEvent(
  tx: Tx,
  config: DisputeConfig,
  provider: PaymentProvider["kind"],
  event: DisputeEvent,
): Promise<ApplyResult> {
  const d = event.dispute;
  const recorded = await recordPaymentEvent(tx, provider, {
    id: event.id,
    type: `dispute.${d.status}`,
    paymentId: d.paymentId,
    amountMinor: d.amountMinor,
    raw: event.raw,
  });
  if (!recorded) return "duplicate";
  const found = await orderOfPayment(tx, provider, d.paymentId, d.orderId);
  if (!found) return "ignored";
  const order = await lockOrder(tx, found.id);
  if (!order) return "ignored";
  await linkPaymentEvent(tx, recorded, order.id);
  if (d.currency !== order.currency) return "ignored";
  // Deliveries come in any order: a dispute never precedes its payment, so its delivery is refused
  // (rolled back, not recorded) until the payment's has been applied, and the provider retries it.
  if (order.paidAt === null) throw new Error(`dispute ${d.disputeId} before its payment was applied`);

  let row = await lockDispute(tx, provider, d.disputeId);
  const fresh = row === null;
  if (!row) {
    row = await insertDispute(tx, {
      orderId: order.id,
      creatorId: order.creatorId,
      provider,
      providerDisputeId: d.disputeId,
      amountMinor: d.amountMinor,
      currency: d.currency,
      reason: d.reason,
      status: d.status,
      evidenceDueBy: d.evidenceDueBy,
      feeBorneBy: config.DISPUTE_FEE_BORNE_BY,
    });
  } else if (rank[d.status] > rank[row.status]) {
    row = await updateDispute(tx, row.id, {
      status: d.status,
      // A closed dispute's provider says no deadline any more: the one the creator had is kept.
      ...(d.evidenceDueBy ? { evidenceDueBy: d.evidenceDueBy } : {}),
      ...(rank[d.status] === 3 ? { closedAt: event.createdAt } : {}),
    });
  } else if (
    rank[d.status] === rank[row.status] &&
    d.evidenceDueBy &&
    d.evidenceDueBy.getTime() !== row.evidenceDueBy?.getTime()
  ) {
    row = await updateDispute(tx, row.id, { evidenceDueBy: d.evidenceDueBy });
  }
  if (fresh && rank[d.status] === 3) row = await updateDispute(tx, row.id, { closedAt: event.createdAt });

  if (chargeback(row.status) && row.heldAt === null) row = await hold(tx, config, order, row);
  row = await chargeFee(tx, order, row, d.feeMinor);
  if (row.status === "won" && row.heldAt !== null && row.wonAt === null) row = await giveBack(tx, order, row);
  if (row.status === "lost" && row.heldAt !== null && row.lostAt === null) await keep(tx, order, row);
  return "applied";
}

/**
 * The bank took the disputed amount: that share of the sale as it stands is taken back (never more
 * than is left of it), the order records what the dispute holds, the evidence is queued and the
 * creator told.
 */
async function hold(tx: Tx, config: DisputeConfig, order: OrderRow, row: DisputeRow): Promise<DisputeRow> {
  const facts = saleFacts(order);
  const amountMinor = Math.min(row.amountMinor, facts.split.grossMinor);
  let parts: RefundedParts = { ...partsOf(row), amountMinor: 0 };
  let debt = 0;
  if (amountMinor > 0) {
    const { posting, taken } = disputeOpened(facts, order.releasedAt !== null, {
      amountMinor,
      reference: row.id,
    });
    debt = await postCovered(tx, order, posting);
    parts = refundedParts(taken);
    await addDisputedParts(tx, order.id, parts, 1);
  }
  const held = await updateDispute(tx, row.id, {
    heldNetMinor: parts.netMinor,
    heldVatMinor: parts.vatMinor,
    heldFeeMinor: parts.feeMinor,
    heldCommissionMinor: parts.commissionMinor,
    heldPartnerMinor: parts.partnerCommissionMinor,
    debtMinor: row.debtMinor + debt,
    heldAt: new Date(),
  });
  // Evidence only while the bank still takes it.
  if (held.status === "needs_response") {
    const known = await evidenceFacts(tx, order.id);
    if (known) await updateDispute(tx, held.id, { evidence: assembleEvidence(known, held, null) });
    await submitEvidenceJob.enqueue(
      tx,
      { disputeId: held.id },
      {
        runAt: new Date(Date.now() + config.DISPUTE_EVIDENCE_DELAY_MINUTES * 60_000),
        dedupeKey: `dispute-evidence:${held.id}`,
      },
    );
  }
  await disputeNoticeJob.enqueue(tx, { disputeId: held.id }, { dedupeKey: `dispute-notice:${held.id}` });
  return (await lockDisputeById(tx, held.id)) ?? held;
}

/** The provider's fee as it now stands: taken from its bearer once, given back once if returned. */
async function chargeFee(tx: Tx, order: OrderRow, row: DisputeRow, feeNow: number): Promise<DisputeRow> {
  const fee = (amountMinor: number, returned: boolean) =>
    disputeFee({
      disputeId: row.id,
      creatorId: order.creatorId,
      currency: order.currency,
      amountMinor,
      borneBy: row.feeBorneBy,
      returned,
    });
  if (feeNow > row.feeMinor && row.feeMinor === 0) {
    const debt = await postCovered(tx, order, fee(feeNow, false));
    return updateDispute(tx, row.id, { feeMinor: feeNow, debtMinor: row.debtMinor + debt });
  }
  if (feeNow < row.feeMinor && row.status === "won") {
    await post(tx, fee(row.feeMinor - feeNow, true));
    return updateDispute(tx, row.id, { feeMinor: feeNow });
  }
  return row;
}

/** Won: what the dispute held goes back to where that money now belongs; the order has it again. */
async function giveBack(tx: Tx, order: OrderRow, row: DisputeRow): Promise<DisputeRow> {
  const parts = partsOf(row);
  if (parts.amountMinor > 0) {
    await post(
      tx,
      disputeWon(
        saleFacts(order),
        parts,
        { released: order.releasedAt !== null, claimed: claimsOf(order) },
        row.id,
      ),
    );
    await addDisputedParts(tx, order.id, parts, -1);
  }
  return updateDispute(tx, row.id, { wonAt: new Date() });
}

/**
 * Lost: what the dispute held is kept as a refund would be. The platform's part leaves the VAT owed
 * and the fees, and a credit note corrects the invoice, in the same transaction (the One-Stop Shop
 * figures and the ledger stay equal); a sale with nothing left is closed.
 */
async function keep(tx: Tx, order: OrderRow, row: DisputeRow): Promise<void> {
  const parts = partsOf(row);
  const lost = disputeLost(saleFacts(order), parts, row.id);
  if (lost) await post(tx, lost);
  await updateDispute(tx, row.id, { lostAt: new Date() });
  if (parts.amountMinor > 0) {
    const title = (await linkTitle(tx, order.linkId)) ?? "";
    await issueCreditNote(tx, order, { parts, reference: `dispute:${row.id}`, title });
  }
  if (await closeOrderByDispute(tx, order.id)) await uncountSale(tx, order.linkId);
}

/** The job: assembles the evidence the platform holds and sends it, once, while the bank takes it. */
export async function submitEvidence(tx: Tx, payments: PaymentProvider, disputeId: string): Promise<void> {
  const row = await lockDisputeById(tx, disputeId);
  if (!row || row.evidenceSubmittedAt !== null || row.status !== "needs_response") return;
  const facts = await evidenceFacts(tx, row.orderId);
  if (!facts) return;
  const evidence = assembleEvidence(facts, row, row.creatorNote);
  try {
    await payments.submitDisputeEvidence(
      { disputeId: row.providerDisputeId, evidence, idempotencyKey: `dispute-evidence-${row.id}` },
      tx,
    );
  } catch (error) {
    // Refused for good (the dispute closed meanwhile, a field the provider will never take): kept
    // for the creator and the admin to read; anything else is retried by the job.
    if ((error instanceof StripeRequestError && !error.retryable) || error instanceof ProviderRefusedError) {
      await updateDispute(tx, row.id, { evidence, evidenceFailure: error.message.slice(0, 500) });
      return;
    }
    throw error;
  }
  // The provider reports the review itself (its next event moves the status on).
  await updateDispute(tx, row.id, { evidence, evidenceSubmittedAt: new Date(), evidenceFailure: null });
}

async function sendDisputeNotice(tx: Tx, config: DisputeConfig, disputeId: string): Promise<void> {
  const row = await lockDisputeById(tx, disputeId);
  if (!row) return;
  const facts = await evidenceFacts(tx, row.orderId);
  if (!facts) return;
  const { locale } = facts.sale;
  await queueMail(tx, {
    to: facts.sale.creatorEmail,
    locale,
    template: "dispute-opened",
    params: {
      title: facts.sale.title.slice(0, 200),
      amount: formatMoney(row.amountMinor, row.currency, locale),
      ...(row.evidenceDueBy
        ? {
            dueBy: new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(
              row.evidenceDueBy,
            ),
          }
        : {}),
      url: `${config.WEB_ORIGIN}/account/sales/${row.orderId}`,
    },
  });
}

export function registerDisputeJobs(
  registry: JobRegistry,
  deps: { config: DisputeConfig; payments: PaymentProvider },
): void {
  registry.register(submitEvidenceJob, (tx, { disputeId }) => submitEvidence(tx, deps.payments, disputeId));
  registry.register(disputeNoticeJob, (tx, { disputeId }) => sendDisputeNotice(tx, deps.config, disputeId));
}
