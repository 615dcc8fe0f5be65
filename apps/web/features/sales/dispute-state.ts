import {
  type DisputeEvidenceView,
  type DisputeView,
  disputeEvidenceSchema,
  disputeReasons,
} from "@salelink/contracts/disputes";

/*
 * What the sale page decides about a chargeback without React (issue 32): where its evidence stands,
 * whether its reason has words, and which of the evidence's fields it shows, in the contract's order.
 */

export type DisputeReason = (typeof disputeReasons)[number];

/** A reason code the page words; another provider code is shown as the provider names it. */
export const knownReason = (reason: string): reason is DisputeReason =>
  (disputeReasons as readonly string[]).includes(reason);

/** Where the evidence stands: refused by the provider, sent, being assembled, or never sent. */
export type EvidenceState =
  | { kind: "failed"; failure: string }
  | { kind: "sent"; at: string }
  | { kind: "assembling" }
  | { kind: "notSent" };

export function evidenceState(
  dispute: Pick<DisputeView, "evidenceFailure" | "evidenceSubmittedAt" | "status">,
): EvidenceState {
  if (dispute.evidenceSubmittedAt !== null) return { kind: "sent", at: dispute.evidenceSubmittedAt };
  if (dispute.evidenceFailure !== null) return { kind: "failed", failure: dispute.evidenceFailure };
  // The job sends it within the hour, while the bank still takes evidence.
  if (dispute.status === "needs_response") return { kind: "assembling" };
  return { kind: "notSent" };
}

export type EvidenceField = keyof DisputeEvidenceView;

/** The evidence's fields in the contract's order; the optional ones only when the evidence has them. */
export function evidenceFields(evidence: DisputeEvidenceView): { field: EvidenceField; text: string }[] {
  return (Object.keys(disputeEvidenceSchema.shape) as EvidenceField[]).flatMap((field) => {
    const text = evidence[field];
    return typeof text === "string" && text !== "" ? [{ field, text }] : [];
  });
}

/** The parts of the sale a dispute holds (or kept, once lost), in the order the page lists them. */
export const heldParts = [
  "netMinor",
  "vatMinor",
  "feeMinor",
  "partnerCommissionMinor",
  "commissionMinor",
] as const;

/** Whether the dispute holds anything now: nothing once won, nor for an inquiry. */
export const holdsAnything = (dispute: Pick<DisputeView, "held">): boolean =>
  heldParts.some((part) => dispute.held[part] !== 0);
