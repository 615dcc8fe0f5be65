import { describe, expect, it } from "vitest";
import { TtlCache } from "../../src/lib/ttl-cache.ts";

function clock() {
  let now = 1_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("TtlCache", () => {
  it("serves a value until its TTL ends, then loads again", async () => {
    const time = clock();
    const cache = new TtlCache<number>({ ttlMs: 100, maxEntries: 10, now: time.now });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get("a", load)).toBe(1);
    time.advance(99);
    expect(await cache.get("a", load)).toBe(1);
    time.advance(1);
    expect(await cache.get("a", load)).toBe(2);
  });

  it("shares one load between concurrent misses", async () => {
    const cache = new TtlCache<string>({ ttlMs: 1000, maxEntries: 10 });
    let loads = 0;
    let release: (v: string) => void = () => undefined;
    const load = () => {
      loads++;
      return new Promise<string>((resolve) => {
        release = resolve;
      });
    };
    const all = Promise.all([cache.get("k", load), cache.get("k", load), cache.get("k", load)]);
    release("v");
    expect(await all).toEqual(["v", "v", "v"]);
    expect(loads).toBe(1);
  });

  it("keeps chosen failures for the TTL and forgets the others at once", async () => {
    class Missing extends Error {}
    const cache = new TtlCache<number>({
      ttlMs: 1000,
      maxEntries: 10,
      cacheFailure: (e) => e instanceof Missing,
    });
    let loads = 0;
    const missing = () => {
      loads++;
      return Promise.reject(new Missing());
    };
    await expect(cache.get("m", missing)).rejects.toBeInstanceOf(Missing);
    await expect(cache.get("m", missing)).rejects.toBeInstanceOf(Missing);
    expect(loads).toBe(1);

    const broken = () => {
      loads++;
      return Promise.reject(new Error("database down"));
    };
    await expect(cache.get("b", broken)).rejects.toThrow("database down");
    await expect(cache.get("b", broken)).rejects.toThrow("database down");
    expect(loads).toBe(3);
  });

  it("drops invalidated keys and the oldest entry when full; a TTL of 0 never caches", async () => {
    const cache = new TtlCache<string>({ ttlMs: 1000, maxEntries: 2 });
    await cache.get("a", async () => "a1");
    await cache.get("b", async () => "b1");
    cache.invalidate(["a"]);
    expect(await cache.get("a", async () => "a2")).toBe("a2");
    // Full with b and a: c evicts b, the oldest.
    await cache.get("c", async () => "c1");
    expect(cache.size).toBe(2);
    expect(await cache.get("b", async () => "b2")).toBe("b2");

    const off = new TtlCache<number>({ ttlMs: 0, maxEntries: 10 });
    let n = 0;
    await off.get("x", async () => ++n);
    expect(await off.get("x", async () => ++n)).toBe(2);
    expect(off.size).toBe(0);
  });
});
