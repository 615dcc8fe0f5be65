import { describe, expect, it } from "vitest";
import { sandboxDecision } from "../../src/providers/identity/sandbox/provider.ts";

describe("the identity sandbox's decision webhook (no database)", () => {
  const now = new Date("2026-01-01T10:00:00Z");

  it("approves with no reason, for the session it names", () => {
    const sent = sandboxDecision("veriff-session-1", { outcome: "approved", reason: "ignored" }, now);
    expect(sent).toMatchObject({
      status: "success",
      verification: {
        id: "veriff-session-1",
        status: "approved",
        reason: null,
        decisionTime: now.toISOString(),
      },
    });
  });

  it("says the sandbox's own words when no reason is given, the person's otherwise", () => {
    expect(sandboxDecision("s", { outcome: "declined", reason: "" }, now).verification.reason).toBe(
      "Declined on the sandbox page.",
    );
    expect(
      sandboxDecision("s", { outcome: "resubmission_requested", reason: "" }, now).verification.reason,
    ).toBe("A new attempt was asked for on the sandbox page.");
    expect(sandboxDecision("s", { outcome: "declined", reason: "Blurry" }, now).verification.reason).toBe(
      "Blurry",
    );
  });

  it("is a new attempt each time", () => {
    const a = sandboxDecision("s", { outcome: "approved", reason: "" }, now);
    const b = sandboxDecision("s", { outcome: "approved", reason: "" }, now);
    expect(a.verification.attemptId).not.toBe(b.verification.attemptId);
  });
});
