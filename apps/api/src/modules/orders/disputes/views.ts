import type { AdminDisputeList, DisputeStatusName, DisputeView } from "@salelink/contracts";
import type { Db } from "../../../db/client.ts";
import { AppError, notFound } from "../../../lib/errors.ts";
import { assembleEvidence } from "./evidence.ts";
import {
  type DisputeRow,
  disputeList,
  disputeRates,
  disputesOfOrder,
  evidenceFacts,
  lockDisputeById,
  updateDispute,
} from "./queries.ts";

/*
 * What people read and write of disputes (issue 32): the sale page's view and the creator's note,
 * the admin's list with each creator's dispute rate. What money does is service.ts's.
 */

/** A dispute as the sale page and the admin show it. */
export function disputeView(row: DisputeRow): DisputeView {
  const open = row.evidenceSubmittedAt === null && row.status === "needs_response";
  return {
    id: row.id,
    orderId: row.orderId,
    status: row.status,
    reason: row.reason,
    amountMinor: row.amountMinor,
    currency: row.currency,
    feeMinor: row.feeMinor,
    feeBorneBy: row.feeBorneBy,
    held:
      row.wonAt !== null
        ? { netMinor: 0, vatMinor: 0, feeMinor: 0, partnerCommissionMinor: 0, commissionMinor: 0 }
        : {
            netMinor: row.heldNetMinor,
            vatMinor: row.heldVatMinor,
            feeMinor: row.heldFeeMinor,
            partnerCommissionMinor: row.heldPartnerMinor,
            commissionMinor: row.heldCommissionMinor,
          },
    debtMinor: row.debtMinor,
    evidenceDueBy: row.evidenceDueBy?.toISOString() ?? null,
    evidence: row.evidence ?? null,
    evidenceSubmittedAt: row.evidenceSubmittedAt?.toISOString() ?? null,
    evidenceFailure: row.evidenceFailure,
    creatorNote: row.creatorNote,
    noteOpen: open,
    createdAt: row.createdAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
  };
}

/** The disputes of one of the creator's sales (the sale page). */
export async function disputesOf(db: Db, orderId: string): Promise<DisputeView[]> {
  return (await disputesOfOrder(db, orderId)).map(disputeView);
}

/** PUT /sales/{id}/disputes/{disputeId}/note: the creator's word, until the evidence leaves. */
export async function setDisputeNote(
  db: Db,
  creatorId: string,
  params: { orderId: string; disputeId: string },
  note: string,
): Promise<DisputeView> {
  return db.transaction(async (tx) => {
    const row = await lockDisputeById(tx, params.disputeId);
    if (!row || row.creatorId !== creatorId || row.orderId !== params.orderId) throw notFound("Dispute");
    if (row.evidenceSubmittedAt !== null || row.status !== "needs_response")
      throw new AppError("ConflictException", "The evidence of this dispute has already been sent.");
    const facts = await evidenceFacts(tx, row.orderId);
    const updated = await updateDispute(tx, row.id, {
      creatorNote: note,
      ...(facts ? { evidence: assembleEvidence(facts, row, note) } : {}),
    });
    return disputeView(updated);
  });
}

/** GET /admin/disputes: newest first, with each listed creator's dispute rate over 90 days. */
export async function adminDisputes(
  db: Db,
  query: { status?: DisputeStatusName | undefined; cursor?: string | undefined; limit: number },
): Promise<AdminDisputeList> {
  const rows = await disputeList(db, query);
  const page = rows.slice(0, query.limit);
  const creators = new Map(page.map((r) => [r.dispute.creatorId, r.creatorEmail]));
  const rates = await disputeRates(db, [...creators.keys()], new Date(Date.now() - 90 * 86_400_000));
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      ...disputeView(r.dispute),
      creator: { id: r.dispute.creatorId, email: r.creatorEmail },
      provider: r.dispute.provider,
      providerDisputeId: r.dispute.providerDisputeId,
    })),
    nextCursor: rows.length > query.limit && last ? last.dispute.id : null,
    rates: rates.map((r) => ({
      ...r,
      email: creators.get(r.creatorId) ?? "",
      rateBps: r.sales > 0 ? Math.round((r.disputes * 10_000) / r.sales) : null,
    })),
  };
}
