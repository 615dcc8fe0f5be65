import type { Link } from "@salelink/contracts";
import { describe, expect, it } from "vitest";
import { move, sameOrder, splitLinks, toggle } from "../features/portfolio/portfolio-order.ts";

const link = (id: string, status: Link["status"] = "active") => ({ id, status }) as Link;

describe("portfolio order", () => {
  it("moves an item one step and stays put at either end", () => {
    expect(move(["a", "b", "c"], 1, -1)).toEqual(["b", "a", "c"]);
    expect(move(["a", "b", "c"], 1, 1)).toEqual(["a", "c", "b"]);
    expect(move(["a", "b", "c"], 0, -1)).toEqual(["a", "b", "c"]);
    expect(move(["a", "b", "c"], 2, 1)).toEqual(["a", "b", "c"]);
  });

  it("puts a ticked link last and takes an unticked one out", () => {
    expect(toggle(["a", "b"], "c", true)).toEqual(["a", "b", "c"]);
    expect(toggle(["a", "b", "c"], "b", false)).toEqual(["a", "c"]);
    expect(toggle(["a", "b"], "a", true)).toEqual(["b", "a"]);
  });

  it("keeps the saved order of active links and sets the others apart", () => {
    const links = [link("a"), link("b", "paused"), link("c"), link("d", "removed"), link("e")];
    const { shown, active, unavailable } = splitLinks(links, ["c", "b", "gone", "a"]);
    expect(shown).toEqual(["c", "a"]);
    expect(active.map((l) => l.id)).toEqual(["a", "c", "e"]);
    expect(unavailable.map((l) => l.id)).toEqual(["b", "d"]);
  });

  it("compares orders", () => {
    expect(sameOrder(["a", "b"], ["a", "b"])).toBe(true);
    expect(sameOrder(["a", "b"], ["b", "a"])).toBe(false);
    expect(sameOrder(["a"], ["a", "b"])).toBe(false);
  });
});
