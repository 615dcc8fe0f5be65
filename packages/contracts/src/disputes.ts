import { z } from "zod";
import { currencySchema } from "./business-rules.ts";

/*
 * Chargebacks (issue 32, decision 042). The buyer's bank takes a payment back from the platform, the
 * deemed supplier; the platform holds the disputed share of the sale and the provider's fee from the
 * creator at once (into debt if their balance no longer has it), sends the evidence it holds, and
 * gives everything back if the dispute is won, or keeps it as a refund if it is lost.
 */

/**
 * An issuer's question before a chargeback (`inquiry`, no money moves), a chargeback waiting for
 * evidence, evidence under the bank's review, and the two outcomes.
 */
export const disputeStatuses = [
  "inquiry",
  "inquiry_closed",
  "needs_response",
  "under_review",
  "won",
  "lost",
] as const;
export const disputeStatusSchema = z.enum(disputeStatuses);
export type DisputeStatusName = z.infer<typeof disputeStatusSchema>;

/** Who bears the provider's fee of a dispute (DISPUTE_FEE_BORNE_BY): the creator by default. */
export const disputeFeeBearers = ["creator", "platform"] as const;
export const disputeFeeBearerSchema = z.enum(disputeFeeBearers);

export const DISPUTE_NOTE_MAX = 2000;

/** The evidence as it was (or will be) sent to the provider, field by field. */
export const disputeEvidenceSchema = z.object({
  productDescription: z.string(),
  customerEmailAddress: z.string(),
  customerName: z.string().optional(),
  billingAddress: z.string().optional(),
  accessActivityLog: z.string(),
  refundPolicyDisclosure: z.string(),
  serviceDate: z.string(),
  uncategorizedText: z.string(),
});
export type DisputeEvidenceView = z.infer<typeof disputeEvidenceSchema>;

/** A dispute as its creator sees it on the sale page (and the admin on the disputes screen). */
export const disputeViewSchema = z.object({
  id: z.uuid(),
  orderId: z.uuid(),
  status: disputeStatusSchema,
  /** The provider's reason code (fraudulent, product_not_received…): the page words it. */
  reason: z.string(),
  amountMinor: z.number().int(),
  currency: currencySchema,
  /** The provider's fee, and who bears it. */
  feeMinor: z.number().int(),
  feeBorneBy: disputeFeeBearerSchema,
  /** What the dispute holds of each part of the sale (0 once won). */
  held: z.object({
    netMinor: z.number().int(),
    vatMinor: z.number().int(),
    feeMinor: z.number().int(),
    partnerCommissionMinor: z.number().int(),
    commissionMinor: z.number().int(),
  }),
  /** The part of what was held that the creator's balance no longer had: added to their debt. */
  debtMinor: z.number().int(),
  evidenceDueBy: z.iso.datetime().nullable(),
  evidence: disputeEvidenceSchema.nullable(),
  /** When the evidence left for the provider; null while it is being assembled (within the hour). */
  evidenceSubmittedAt: z.iso.datetime().nullable(),
  evidenceFailure: z.string().nullable(),
  creatorNote: z.string().nullable(),
  /** Whether the creator may still add a note (before the evidence leaves). */
  noteOpen: z.boolean(),
  createdAt: z.iso.datetime(),
  closedAt: z.iso.datetime().nullable(),
});
export type DisputeView = z.infer<typeof disputeViewSchema>;

/** PUT /sales/{id}/disputes/{disputeId}/note: the creator's word, sent with the evidence. */
export const disputeNoteBodySchema = z.object({
  note: z.string().trim().min(1).max(DISPUTE_NOTE_MAX),
});
export type DisputeNoteBody = z.infer<typeof disputeNoteBodySchema>;

export const disputeParamsSchema = z.object({ id: z.uuid(), disputeId: z.uuid() });

/** The reasons a buyer's bank gives (Stripe's codes); the sale page words each. */
export const disputeReasons = [
  "fraudulent",
  "product_not_received",
  "product_unacceptable",
  "duplicate",
  "unrecognized",
  "credit_not_processed",
  "general",
] as const;

/** POST /sandbox/orders/{token}/dispute: the sandbox buyer asks their bank to dispute the payment. */
export const sandboxDisputeBodySchema = z.object({ reason: z.enum(disputeReasons) });
export const sandboxDisputeResultSchema = z.object({ disputeId: z.string() });
/** POST /admin/sandbox/disputes/{id}/decide: the sandbox's bank decides (an operator's control). */
export const sandboxDisputeDecisionBodySchema = z.object({ outcome: z.enum(["won", "lost"]) });

/** GET /admin/disputes: every dispute, newest first, with its creator and their dispute rate. */
export const adminDisputeSchema = disputeViewSchema.extend({
  creator: z.object({ id: z.uuid(), email: z.string() }),
  provider: z.string(),
  /** The provider's id (the sandbox's decision controls use it). */
  providerDisputeId: z.string(),
});
export const adminDisputeListSchema = z.object({
  items: z.array(adminDisputeSchema),
  nextCursor: z.uuid().nullable(),
  /** The last 90 days of each creator listed: disputes opened over sales paid. */
  rates: z.array(
    z.object({
      creatorId: z.uuid(),
      email: z.string(),
      sales: z.number().int(),
      disputes: z.number().int(),
      /** disputes / sales, in basis points (100 = 1 %); null without sales. */
      rateBps: z.number().int().nullable(),
    }),
  ),
});
export type AdminDisputeList = z.infer<typeof adminDisputeListSchema>;
