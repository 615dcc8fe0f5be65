import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("@/lib/runtime-config.ts", () => ({
  runtimeConfig: () => Promise.resolve({ apiUrl: "https://api.test" }),
}));

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe("following a partner link (?via=)", () => {
  let storage: ReturnType<typeof memoryStorage>;
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    vi.resetModules();
    storage = memoryStorage();
    fetchMock = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
    vi.stubGlobal("localStorage", storage);
    vi.stubGlobal("fetch", fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("keeps the code and reports its click once per page load", async () => {
    const { followVia } = await import("../features/partners/follow-via.ts");
    followVia("abcd_-12");
    followVia("abcd_-12");
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(fetchMock).toHaveBeenCalledWith("https://api.test/programmes/clicks/abcd_-12", {
      method: "PATCH",
      cache: "no-store",
    });
    expect(JSON.parse(storage.data.get("partner-via") ?? "[]")).toMatchObject([{ code: "abcd_-12" }]);
  });

  it("ignores a malformed code without a word", async () => {
    const { followVia } = await import("../features/partners/follow-via.ts");
    for (const bad of ["<script>", "short", "much-too-long-code", "abc def!"]) followVia(bad);
    await new Promise((r) => setTimeout(r, 10));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(storage.data.size).toBe(0);
  });

  it("never throws when the report fails", async () => {
    fetchMock.mockImplementation(() => Promise.reject(new Error("offline")));
    const { followVia } = await import("../features/partners/follow-via.ts");
    expect(() => followVia("goodcode")).not.toThrow();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(storage.data.has("partner-via")).toBe(true);
  });
});
