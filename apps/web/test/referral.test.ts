import { describe, expect, it } from "vitest";
import { readReferral, storeReferral } from "../lib/referral.ts";

function memoryStore() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

const DAY = 86_400_000;

describe("referral token", () => {
  it("keeps the last valid token for the configured window, then forgets it", () => {
    const store = memoryStore();
    expect(storeReferral("first-token", 0, store)).toBe(true);
    expect(storeReferral("second-token", 1_000, store)).toBe(true);
    expect(readReferral(30, 1_000 + 30 * DAY, store)).toBe("second-token");
    expect(readReferral(30, 1_001 + 30 * DAY, store)).toBeNull();
    // Forgotten for good once expired.
    expect(readReferral(365, 2_000, store)).toBeNull();
  });

  it("refuses malformed tokens and keeps the previous one", () => {
    const store = memoryStore();
    storeReferral("good-token", 0, store);
    expect(storeReferral("<script>", 1, store)).toBe(false);
    expect(storeReferral("abc", 1, store)).toBe(false);
    expect(readReferral(30, 2, store)).toBe("good-token");
  });
});
