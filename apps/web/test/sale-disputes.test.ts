import type { DisputeEvidenceView } from "@salelink/contracts/disputes";
import { describe, expect, it } from "vitest";
import {
  evidenceFields,
  evidenceState,
  holdsAnything,
  knownReason,
} from "../features/sales/dispute-state.ts";

const sentAt = "2026-11-02T10:00:00.000Z";
const evidence: DisputeEvidenceView = {
  productDescription: '"Sunset pack": digital content delivered online at once.',
  customerEmailAddress: "buyer@example.com",
  accessActivityLog: "2026-11-01T10:00:00Z  Checkout started.",
  refundPolicyDisclosure: "Refunds within 14 days of purchase.",
  serviceDate: "2026-11-01",
  uncategorizedText: "Dispute of €20.00 (fraudulent).",
};

describe("where a dispute's evidence stands (issue 32)", () => {
  it("is being assembled while the bank waits for it and nothing left yet", () => {
    expect(
      evidenceState({ status: "needs_response", evidenceSubmittedAt: null, evidenceFailure: null }),
    ).toEqual({ kind: "assembling" });
  });

  it("is sent once it left, whatever the status became", () => {
    for (const status of ["under_review", "won", "lost"] as const)
      expect(evidenceState({ status, evidenceSubmittedAt: sentAt, evidenceFailure: null })).toEqual({
        kind: "sent",
        at: sentAt,
      });
  });

  it("says the provider's refusal", () => {
    expect(
      evidenceState({ status: "needs_response", evidenceSubmittedAt: null, evidenceFailure: "closed" }),
    ).toEqual({ kind: "failed", failure: "closed" });
  });

  it("was never sent when the dispute closed first (decided before the hour, an inquiry)", () => {
    for (const status of ["lost", "won", "inquiry", "inquiry_closed"] as const)
      expect(evidenceState({ status, evidenceSubmittedAt: null, evidenceFailure: null })).toEqual({
        kind: "notSent",
      });
  });
});

describe("the evidence's fields", () => {
  it("follow the contract's order and leave out the optional ones it does not have", () => {
    expect(evidenceFields(evidence).map((f) => f.field)).toEqual([
      "productDescription",
      "customerEmailAddress",
      "accessActivityLog",
      "refundPolicyDisclosure",
      "serviceDate",
      "uncategorizedText",
    ]);
    expect(
      evidenceFields({ ...evidence, customerName: "Ada", billingAddress: "" }).map((f) => f.field),
    ).toContain("customerName");
    expect(evidenceFields({ ...evidence, billingAddress: "" }).map((f) => f.field)).not.toContain(
      "billingAddress",
    );
  });
});

describe("a dispute's words", () => {
  it("knows the contract's reasons and leaves another provider's code as it is", () => {
    expect(knownReason("product_not_received")).toBe(true);
    expect(knownReason("subscription_canceled")).toBe(false);
  });

  it("holds something until it is won", () => {
    const none = { netMinor: 0, vatMinor: 0, feeMinor: 0, partnerCommissionMinor: 0, commissionMinor: 0 };
    expect(holdsAnything({ held: none })).toBe(false);
    expect(holdsAnything({ held: { ...none, netMinor: 1800 } })).toBe(true);
  });
});
