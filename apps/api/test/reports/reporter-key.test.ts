import { describe, expect, it } from "vitest";
import { reporterKey } from "../../src/modules/reports/service.ts";

describe("a reporter's key", () => {
  it("is the same for the same salt, address and browser, and keeps none of them readable", () => {
    const key = reporterKey("salt", "203.0.113.7", "Firefox");
    expect(key).toBe(reporterKey("salt", "203.0.113.7", "Firefox"));
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toContain("203.0.113.7");
  });

  it("differs with the salt, the address or the browser", () => {
    const key = reporterKey("salt", "203.0.113.7", "Firefox");
    expect(reporterKey("other", "203.0.113.7", "Firefox")).not.toBe(key);
    expect(reporterKey("salt", "203.0.113.8", "Firefox")).not.toBe(key);
    expect(reporterKey("salt", "203.0.113.7", "Safari")).not.toBe(key);
  });

  it("treats a missing browser as an empty one", () => {
    expect(reporterKey("salt", "203.0.113.7", undefined)).toBe(reporterKey("salt", "203.0.113.7", ""));
  });
});
