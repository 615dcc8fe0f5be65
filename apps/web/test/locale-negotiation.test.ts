import { negotiateLocale } from "@salelink/contracts/locale-negotiation";
import { describe, expect, it } from "vitest";

describe("Accept-Language negotiation (decision 023)", () => {
  it("weighs quality values", () => {
    expect(negotiateLocale("fr;q=0.1,es;q=0.9")).toBe("es");
    expect(negotiateLocale("de;q=1, en;q=0.2, fr;q=0.7")).toBe("fr");
    expect(negotiateLocale("fr;q=0.8, es")).toBe("es");
  });

  it("reads tags case-insensitively, with or without a region", () => {
    expect(negotiateLocale("FR-fr")).toBe("fr");
    expect(negotiateLocale("ES")).toBe("es");
    expect(negotiateLocale("fr-CA")).toBe("fr");
    expect(negotiateLocale("es-419,es;q=0.9")).toBe("es");
    expect(negotiateLocale("pt-BR, es_MX;q=0.5")).toBe("es");
    expect(negotiateLocale("en-GB,en;q=0.9")).toBe("en");
  });

  it("takes q=0 as refused", () => {
    expect(negotiateLocale("fr;q=0")).toBe("en");
    expect(negotiateLocale("es;q=0, fr;q=0.1")).toBe("fr");
    expect(negotiateLocale("fr;q=0, *")).toBe("en");
    expect(negotiateLocale("en;q=0, *")).toBe("fr");
    expect(negotiateLocale("en;q=0, es;q=0, *;q=0.1")).toBe("fr");
  });

  it("keeps the header's order between equal qualities", () => {
    expect(negotiateLocale("fr,es")).toBe("fr");
    expect(negotiateLocale("es,fr")).toBe("es");
    // A regional tag listed first still wins over a later exact one.
    expect(negotiateLocale("es-ES,fr")).toBe("es");
    expect(negotiateLocale("de-DE,de;q=0.9,es;q=0.8,fr;q=0.8")).toBe("es");
  });

  it("treats * as any language not named more precisely", () => {
    expect(negotiateLocale("*")).toBe("en");
    expect(negotiateLocale("de, *;q=0.5")).toBe("en");
    expect(negotiateLocale("*;q=0.9, en;q=0.5")).toBe("fr");
    expect(negotiateLocale("de, *;q=0.5, es;q=0.8")).toBe("es");
  });

  it("is not fooled by tags that merely start like a locale", () => {
    expect(negotiateLocale("frr,es")).toBe("es");
    expect(negotiateLocale("est,fr")).toBe("fr");
  });

  it("falls back to English on nothing, nothing supported, or garbage", () => {
    expect(negotiateLocale(undefined)).toBe("en");
    expect(negotiateLocale(null)).toBe("en");
    expect(negotiateLocale("")).toBe("en");
    expect(negotiateLocale("de, it")).toBe("en");
    for (const garbage of [
      ";;;,,q=x",
      "fr;q=abc",
      "a b c",
      "\u00e9\u00e8",
      ",",
      "q=1",
      "-fr",
      "x".repeat(5000),
    ]) {
      expect(negotiateLocale(garbage), garbage).toBe("en");
    }
    expect(negotiateLocale("a b c, es")).toBe("es");
  });

  it("answers the same from its cache", () => {
    for (let i = 0; i < 1200; i++) negotiateLocale(`de;q=0.${i % 10}, xx-${i}`);
    expect(negotiateLocale("fr;q=0.1,es;q=0.9")).toBe("es");
    expect(negotiateLocale("fr;q=0.1,es;q=0.9")).toBe("es");
    const long = `${"de;q=0.5, ".repeat(60)}fr`;
    expect(negotiateLocale(long)).toBe("fr");
    expect(negotiateLocale(long)).toBe("fr");
  });
});
