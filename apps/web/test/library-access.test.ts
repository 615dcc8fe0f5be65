import { describe, expect, it } from "vitest";
import {
  forgetLibraryAccess,
  readLibraryAccess,
  saveLibraryAccess,
} from "@/features/purchases/library-access.ts";

/** sessionStorage's methods over a Map, so the helper runs without a browser. */
function fakeStore() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const now = Date.parse("2026-11-26T10:00:00.000Z");
const access = { accessToken: "a".repeat(43), expiresAt: "2026-11-26T11:00:00.000Z" };

describe("the library's access kept for the tab (issue 21)", () => {
  it("reads back what was saved while it is valid", () => {
    const store = fakeStore();
    saveLibraryAccess(access, store);
    expect(readLibraryAccess(now, store)).toEqual(access);
    expect(readLibraryAccess(Date.parse(access.expiresAt) - 1, store)).toEqual(access);
  });

  it("forgets an access at or past its expiry", () => {
    const store = fakeStore();
    saveLibraryAccess(access, store);
    expect(readLibraryAccess(Date.parse(access.expiresAt), store)).toBeNull();
    expect(store.items.size).toBe(0);
    // Gone for good: an earlier clock does not bring it back.
    expect(readLibraryAccess(now, store)).toBeNull();
  });

  it("forgets what it cannot read", () => {
    for (const raw of [
      "not json",
      "null",
      "{}",
      '{"accessToken":"x","expiresAt":"soon"}',
      '{"accessToken":""}',
    ]) {
      const store = fakeStore();
      store.setItem("salelink.library-access", raw);
      expect(readLibraryAccess(now, store), raw).toBeNull();
      expect(store.items.size, raw).toBe(0);
    }
  });

  it("has nothing when nothing was kept, and nothing after forgetting", () => {
    const store = fakeStore();
    expect(readLibraryAccess(now, store)).toBeNull();
    saveLibraryAccess(access, store);
    forgetLibraryAccess(store);
    expect(readLibraryAccess(now, store)).toBeNull();
  });

  it("keeps only the token and its expiry", () => {
    const store = fakeStore();
    saveLibraryAccess({ ...access, extra: "x" } as typeof access, store);
    expect(JSON.parse(store.items.get("salelink.library-access") ?? "")).toEqual(access);
  });

  it("works without storage (refused by the browser)", () => {
    expect(() => saveLibraryAccess(access, null)).not.toThrow();
    expect(readLibraryAccess(now, null)).toBeNull();
    const throwing = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
      removeItem: () => {
        throw new Error("denied");
      },
    };
    expect(() => saveLibraryAccess(access, throwing)).not.toThrow();
    expect(readLibraryAccess(now, throwing)).toBeNull();
  });
});
