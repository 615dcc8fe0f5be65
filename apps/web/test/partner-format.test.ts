import { partnerListQuerySchema, partnerRateBpsSchema } from "@salelink/contracts/partners";
import { describe, expect, it } from "vitest";
import {
  amountsOf,
  bpsToPercentInput,
  creatorLabel,
  DEFAULT_PARTNER_SORT,
  formatRate,
  nextSort,
  partnerCreatorUrl,
  partnerLinkUrl,
  partnersPath,
  percentToBps,
} from "../features/partners/partner-format.ts";

describe("partner rates on screen", () => {
  it("turns whole percents into basis points, anything else into what the contract refuses", () => {
    expect(percentToBps("10")).toBe(1000);
    expect(percentToBps(" 1 ")).toBe(100);
    expect(percentToBps("90%")).toBe(9000);
    for (const bad of ["", "abc", "12.5", "-5", "1e2", "10 0", "1000"]) {
      expect(partnerRateBpsSchema.safeParse(percentToBps(bad)).success, bad).toBe(false);
    }
    // In range on screen is in range for the API, and the bounds hold.
    expect(partnerRateBpsSchema.safeParse(percentToBps("1")).success).toBe(true);
    expect(partnerRateBpsSchema.safeParse(percentToBps("90")).success).toBe(true);
    expect(partnerRateBpsSchema.safeParse(percentToBps("0")).success).toBe(false);
    expect(partnerRateBpsSchema.safeParse(percentToBps("91")).success).toBe(false);
  });

  it("shows saved rates back as typed, and as percents in the page's language", () => {
    expect(bpsToPercentInput(1000)).toBe("10");
    expect(percentToBps(bpsToPercentInput(4500))).toBe(4500);
    expect(formatRate(1000, "en")).toBe("10%");
    expect(formatRate(1250, "en")).toBe("12.5%");
    expect(formatRate(1000, "fr").replace(/\s/g, " ")).toBe("10 %");
  });
});

describe("partner links", () => {
  it("carries the code in `via` on the buyer page and the creator page", () => {
    expect(partnerLinkUrl("https://salelink.test", "abcDEF123", "Code_-12")).toBe(
      "https://salelink.test/v/abcDEF123?via=Code_-12",
    );
    expect(
      partnerCreatorUrl("http://localhost:3000", "0b7c1a52-5f7c-4c1e-9d3a-0d2b7a1e9f10", "abcdefgh"),
    ).toBe("http://localhost:3000/c/0b7c1a52-5f7c-4c1e-9d3a-0d2b7a1e9f10?via=abcdefgh");
  });

  it("names a creator by name, else handle, else not at all", () => {
    const base = { id: "0b7c1a52-5f7c-4c1e-9d3a-0d2b7a1e9f10", profileId: null };
    expect(creatorLabel({ ...base, displayName: "Maya", handle: "maya" })).toBe("Maya");
    expect(creatorLabel({ ...base, displayName: "  ", handle: "maya" })).toBe("@maya");
    expect(creatorLabel({ ...base, displayName: null, handle: null })).toBeNull();
  });

  it("picks one sum per currency", () => {
    const money = [
      { currency: "EUR" as const, revenueMinor: 1000, heldMinor: 100, owedMinor: 50, paidMinor: 0 },
      { currency: "USD" as const, revenueMinor: 200, heldMinor: 20, owedMinor: 0, paidMinor: 7 },
    ];
    expect(amountsOf(money, "heldMinor")).toEqual([
      { currency: "EUR", amount: 100 },
      { currency: "USD", amount: 20 },
    ]);
  });
});

describe("partners table order", () => {
  it("turns the current column around and starts another with the largest first", () => {
    expect(DEFAULT_PARTNER_SORT).toEqual({ sort: "createdAt", dir: "desc" });
    expect(nextSort(DEFAULT_PARTNER_SORT, "createdAt")).toEqual({ sort: "createdAt", dir: "asc" });
    expect(nextSort({ sort: "createdAt", dir: "asc" }, "createdAt")).toEqual({
      sort: "createdAt",
      dir: "desc",
    });
    expect(nextSort({ sort: "clicks", dir: "asc" }, "revenue")).toEqual({ sort: "revenue", dir: "desc" });
  });

  it("asks for what the contract reads", () => {
    const path = partnersPath("applied", { sort: "owed", dir: "asc" }, 50, 50);
    const query = Object.fromEntries(new URL(path, "http://x").searchParams);
    expect(path.startsWith("/partner-programme/partners?")).toBe(true);
    expect(partnerListQuerySchema.parse(query)).toEqual({
      status: "applied",
      sort: "owed",
      dir: "asc",
      offset: 50,
      limit: 50,
    });
    // No filter: no status at all (the contract refuses an empty one).
    const all = Object.fromEntries(
      new URL(partnersPath("", DEFAULT_PARTNER_SORT, 0, 50), "http://x").searchParams,
    );
    expect(all.status).toBeUndefined();
    expect(partnerListQuerySchema.safeParse(all).success).toBe(true);
  });
});
