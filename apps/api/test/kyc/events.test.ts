import { describe, expect, it } from "vitest";
import { canMove, isFinal } from "../../src/modules/kyc/events.ts";

describe("an identity session's moves (no database)", () => {
  it("never replaces a final decision", () => {
    for (const final of ["approved", "declined", "expired", "abandoned"] as const) {
      expect(isFinal(final)).toBe(true);
      expect(canMove(final, "started")).toBe(false);
      expect(canMove(final, "approved")).toBe(false);
    }
  });

  it("moves progress forward only", () => {
    expect(canMove("created", "started")).toBe(true);
    expect(canMove("started", "submitted")).toBe(true);
    expect(canMove("submitted", "started")).toBe(false);
    expect(canMove("started", "started")).toBe(false);
  });

  it("keeps a decision in waiting when late progress arrives, and lets a decision replace it", () => {
    expect(isFinal("review")).toBe(false);
    expect(canMove("review", "submitted")).toBe(false);
    expect(canMove("resubmission_requested", "started")).toBe(false);
    expect(canMove("review", "approved")).toBe(true);
    expect(canMove("submitted", "declined")).toBe(true);
  });
});
