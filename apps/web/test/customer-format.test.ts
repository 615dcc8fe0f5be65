import { customerListQuerySchema } from "@salelink/contracts/customers";
import { describe, expect, it } from "vitest";
import {
  customersExportUrl,
  customersPath,
  filterQuery,
  formatTotals,
  NO_FILTER,
} from "../features/customers/customer-format.ts";

const linkId = "7b0a2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e";

describe("the customers list's addresses", () => {
  it("carries only the filters that are set, the search trimmed and encoded", () => {
    expect(filterQuery(NO_FILTER).toString()).toBe("");
    expect(filterQuery({ q: "  ann@ex ", linkId: "" }).toString()).toBe("q=ann%40ex");
    expect(filterQuery({ q: "50%_&x", linkId }).toString()).toBe(`q=50%25_%26x&linkId=${linkId}`);
  });

  it("builds a list path the API's contract reads back", () => {
    const path = customersPath({ q: " 50%_ ", linkId }, "orders", 50, 25);
    expect(path.startsWith("/customers?")).toBe(true);
    const parsed = customerListQuerySchema.parse(Object.fromEntries(new URL(path, "http://x").searchParams));
    expect(parsed).toEqual({ q: "50%_", linkId, sort: "orders", offset: 50, limit: 25 });
  });

  it("points the export at the API with the same filter", () => {
    expect(customersExportUrl("https://api.example", NO_FILTER)).toBe(
      "https://api.example/customers/export.csv",
    );
    expect(customersExportUrl("https://api.example", { q: "bob", linkId })).toBe(
      `https://api.example/customers/export.csv?q=bob&linkId=${linkId}`,
    );
  });
});

describe("what a customer paid", () => {
  it("shows each currency, and zero when refunds took everything back", () => {
    expect(
      formatTotals(
        [
          { currency: "EUR", amountMinor: 4500 },
          { currency: "USD", amountMinor: 300 },
        ],
        "en",
        "EUR",
      ),
    ).toBe("€45.00, $3.00");
    expect(formatTotals([], "fr", "EUR")).toMatch(/^0,00\s€$/);
  });
});
