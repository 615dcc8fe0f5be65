import { partnerCodeSchema, partnerViaListSchema } from "@salelink/contracts/partners";
import { describe, expect, it } from "vitest";
import { isPartnerCode, PARTNER_VIA_MAX, readPartnerVia, storePartnerVia } from "../lib/partner-via.ts";

function memoryStore() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

const DAY = 86_400_000;
const T0 = 1_800_000_000_000;
const code = (i: number) => `code${String(i).padStart(4, "0")}`;

describe("partner via codes", () => {
  it("accepts exactly the codes the contract accepts", () => {
    for (const sample of [
      "abcd_-12",
      "ABCDEFGH",
      "abc",
      "abcdefghi",
      "abcd efg",
      "abcd/efg",
      "<script>",
      "",
    ]) {
      expect(isPartnerCode(sample), sample).toBe(partnerCodeSchema.safeParse(sample).success);
    }
  });

  it("keeps the newest first, and a code seen again moves to the front with its new time", () => {
    const store = memoryStore();
    expect(storePartnerVia("aaaaaaaa", T0, store)).toBe(true);
    expect(storePartnerVia("bbbbbbbb", T0 + 1_000, store)).toBe(true);
    expect(storePartnerVia("cccccccc", T0 + 2_000, store)).toBe(true);
    expect(storePartnerVia("aaaaaaaa", T0 + 3_000, store)).toBe(true);
    const list = readPartnerVia(T0 + 4_000, store);
    expect(list).toEqual([
      { code: "aaaaaaaa", at: T0 + 3_000 },
      { code: "cccccccc", at: T0 + 2_000 },
      { code: "bbbbbbbb", at: T0 + 1_000 },
    ]);
    // What a checkout sends passes the contract.
    expect(partnerViaListSchema.safeParse(list).success).toBe(true);
  });

  it("keeps at most PARTNER_VIA_MAX codes, dropping the oldest", () => {
    const store = memoryStore();
    for (let i = 0; i < PARTNER_VIA_MAX + 5; i++) storePartnerVia(code(i), T0 + i, store);
    const list = readPartnerVia(T0 + 100, store);
    expect(list).toHaveLength(PARTNER_VIA_MAX);
    expect(list[0]?.code).toBe(code(PARTNER_VIA_MAX + 4));
    expect(list.at(-1)?.code).toBe(code(5));
    expect(partnerViaListSchema.safeParse(list).success).toBe(true);
  });

  it("forgets codes older than a year, and the list once all are", () => {
    const store = memoryStore();
    storePartnerVia("oldoldol", T0, store);
    storePartnerVia("newnewne", T0 + 100 * DAY, store);
    expect(readPartnerVia(T0 + 365 * DAY, store).map((v) => v.code)).toEqual(["newnewne", "oldoldol"]);
    expect(readPartnerVia(T0 + 365 * DAY + 1, store).map((v) => v.code)).toEqual(["newnewne"]);
    // Storing drops the expired ones too.
    storePartnerVia("thirdone", T0 + 366 * DAY, store);
    expect(JSON.parse(store.data.get("partner-via") ?? "[]")).toHaveLength(2);
    expect(readPartnerVia(T0 + 732 * DAY, store)).toEqual([]);
    expect(store.data.has("partner-via")).toBe(false);
  });

  it("ignores malformed codes and keeps what was stored", () => {
    const store = memoryStore();
    storePartnerVia("goodcode", T0, store);
    for (const bad of ["<script>", "short", "much-too-long", "bad code", "é-accent"]) {
      expect(storePartnerVia(bad, T0 + 1, store)).toBe(false);
    }
    expect(readPartnerVia(T0 + 2, store)).toEqual([{ code: "goodcode", at: T0 }]);
  });

  it("survives a damaged or edited store", () => {
    const store = memoryStore();
    store.setItem("partner-via", "not json");
    expect(readPartnerVia(T0, store)).toEqual([]);
    store.setItem(
      "partner-via",
      JSON.stringify([
        { code: "goodcode", at: T0 - 1 },
        { code: "<script>", at: T0 },
        { code: "goodcode", at: T0 - 5 },
        { code: "fromnext", at: T0 + DAY },
        { code: "nottime1", at: "yesterday" },
        "junk",
        null,
      ]),
    );
    // Unique, well-formed, a future time brought back to now.
    expect(readPartnerVia(T0, store)).toEqual([
      { code: "fromnext", at: T0 },
      { code: "goodcode", at: T0 - 1 },
    ]);
    expect(storePartnerVia("another1", T0, store)).toBe(true);
    expect(readPartnerVia(T0, store).map((v) => v.code)).toEqual(["another1", "fromnext", "goodcode"]);
  });

  it("does nothing without storage", () => {
    expect(storePartnerVia("goodcode", T0, null)).toBe(false);
    expect(readPartnerVia(T0, null)).toEqual([]);
  });
});
