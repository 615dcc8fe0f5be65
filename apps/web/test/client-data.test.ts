import { describe, expect, it } from "vitest";
import { mergePages, type Page, pageUrl } from "@/components/ui/paged-items.ts";
import { makeQueryClient } from "@/lib/query-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

type Item = { id: string };
const page = (ids: string[], nextCursor: string | null, extra?: string): Page<Item, string, string> => ({
  items: ids.map((id) => ({ id })),
  nextCursor,
  extra,
});
const ids = (items: Item[]) => items.map((i) => i.id);

describe("mergePages", () => {
  it("lists the pages in order, with the last page's cursor and the first page's extra", () => {
    const merged = mergePages([page(["a", "b"], "c1", "first"), page(["c", "d"], "c2")], (i) => i.id);
    expect(ids(merged.items)).toEqual(["a", "b", "c", "d"]);
    expect(merged.nextCursor).toBe("c2");
    expect(merged.extra).toBe("first");
  });

  it("lists an item seen on two pages once, where it came first", () => {
    // An item added between two reads pushes the last of page one onto page two.
    const merged = mergePages([page(["new", "a"], "c1"), page(["a", "b"], null)], (i) => i.id);
    expect(ids(merged.items)).toEqual(["new", "a", "b"]);
    expect(merged.nextCursor).toBeNull();
  });

  it("tells items apart by the identity it is given", () => {
    const pages = [{ items: [{ orderId: "1" }, { orderId: "1" }], nextCursor: null, extra: undefined }];
    expect(mergePages(pages, (e) => e.orderId).items).toHaveLength(1);
  });

  it("answers an empty list for no pages", () => {
    expect(mergePages([], (i: Item) => i.id)).toEqual({ items: [], nextCursor: null, extra: undefined });
  });
});

describe("pageUrl", () => {
  it("asks for the first page without a cursor, later ones with it, the query after", () => {
    expect(pageUrl("/links", 20, null)).toBe("/links?limit=20");
    expect(pageUrl("/links", 20, "abc")).toBe("/links?limit=20&cursor=abc");
    expect(pageUrl("/admin/payouts", 20, 7, "status=paid")).toBe(
      "/admin/payouts?limit=20&cursor=7&status=paid",
    );
  });
});

describe("the dashboards' query client", () => {
  it("shows a failure at once (no silent retries) and does not re-read on focus", () => {
    const defaults = makeQueryClient().getDefaultOptions();
    expect(defaults.queries?.retry).toBe(false);
    expect(defaults.queries?.refetchOnWindowFocus).toBe(false);
    expect(defaults.mutations?.retry).toBe(false);
  });
});

describe("queryKeys", () => {
  it("puts each list under the key its writes invalidate", () => {
    const startsWith = (key: readonly unknown[], prefix: readonly unknown[]) =>
      prefix.every((part, i) => key[i] === part);
    expect(startsWith(queryKeys.myLinks, queryKeys.links)).toBe(true);
    for (const key of [
      queryKeys.affiliates.campaigns,
      queryKeys.affiliates.referrals,
      queryKeys.affiliates.earnings,
      queryKeys.affiliates.stats(""),
    ])
      expect(startsWith(key, queryKeys.affiliates.all)).toBe(true);
    // The wallet's balances are invalidated after a withdrawal without re-reading every movement.
    expect(startsWith(queryKeys.transactions, queryKeys.wallet)).toBe(false);
  });
});
