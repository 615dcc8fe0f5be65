import { describe, expect, it } from "vitest";
import { maskEmail, referralPseudonym } from "../../src/modules/affiliates/pseudonyms.ts";
import { earningStatus, earnsUntil } from "../../src/modules/affiliates/service.ts";

/* The affiliate programme's rules that need no database: how a referred account is shown, a
 * commission's state, the end of its commission period. */

describe("pseudonyms", () => {
  it("masks an address down to its first letter and its domain", () => {
    expect(maskEmail("rachel@example.test")).toBe("r•••@example.test");
    expect(maskEmail("a@b.c")).toBe("a•••@b.c");
    expect(maskEmail("no-at-sign")).toBe("n•••@");
  });

  it("gives a referred account a stable pseudonym that is neither its id nor shared across secrets", () => {
    const id = "7f3c1a52-8d0e-4b8f-9a51-0c2d9e4f6a11";
    const a = referralPseudonym("secret-one", id);
    expect(a).toBe(referralPseudonym("secret-one", id));
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a).not.toContain(id.slice(0, 8));
    expect(referralPseudonym("secret-two", id)).not.toBe(a);
    expect(referralPseudonym("secret-one", "0b8f0e2c-4a7d-4c36-8e3c-2b1f6d5a9c70")).not.toBe(a);
  });
});

describe("earningStatus", () => {
  const released = new Date("2026-01-08T00:00:00Z");
  it("reverses a claimed commission whose order was refunded: it came back from the referrer (decision 042)", () => {
    expect(earningStatus({ claimId: "c", status: "refunded", releasedAt: released })).toBe("reversed");
    expect(earningStatus({ claimId: "c", status: "paid", releasedAt: released })).toBe("claimed");
  });
  it("reverses an unclaimed commission of a refunded order", () => {
    expect(earningStatus({ claimId: null, status: "refunded", releasedAt: released })).toBe("reversed");
    expect(earningStatus({ claimId: null, status: "refunded", releasedAt: null })).toBe("reversed");
  });
  it("is claimable once the hold is released, pending before", () => {
    expect(earningStatus({ claimId: null, status: "paid", releasedAt: released })).toBe("claimable");
    expect(earningStatus({ claimId: null, status: "paid", releasedAt: null })).toBe("pending");
  });
});

describe("earnsUntil", () => {
  it("ends the commission period whole UTC months after joining", () => {
    expect(earnsUntil(new Date("2026-03-15T10:30:00Z"), 12).toISOString()).toBe("2027-03-15T10:30:00.000Z");
    expect(earnsUntil(new Date("2026-11-30T23:59:59Z"), 1).toISOString()).toBe("2026-12-30T23:59:59.000Z");
  });
  it("does not change the date it is given", () => {
    const joined = new Date("2026-03-15T10:30:00Z");
    earnsUntil(joined, 12);
    expect(joined.toISOString()).toBe("2026-03-15T10:30:00.000Z");
  });
});
