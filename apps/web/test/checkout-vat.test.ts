import { readFileSync } from "node:fs";
import path from "node:path";
import type { CheckoutVat } from "@salelink/contracts/checkout";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { countryFromLanguages, formatRate, vatLine } from "../features/checkout/vat.ts";
import { formatMoney } from "../lib/money.ts";

const root = path.resolve(import.meta.dirname, "..");
const messagesOf = (locale: string) =>
  JSON.parse(readFileSync(path.join(root, "messages", `${locale}.json`), "utf8"));
// Intl separates a number from its unit with a (narrow) no-break space in some languages.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("the country preselected at checkout", () => {
  it.each([
    [["fr-FR"], "FR"],
    [["de-DE", "de", "en"], "DE"],
    [["hu-HU"], "HU"],
    [["en-US", "en"], "US"],
    [["pt-br"], "BR"],
    [["zh-Hant-TW"], "TW"],
    // A later variant of the same language tells the region.
    [["fr", "fr-BE", "en-US"], "BE"],
  ] as const)("%j → %s", (languages, country) => {
    expect(countryFromLanguages(languages)).toBe(country);
  });

  it.each([
    [[]],
    [["fr"]],
    // Another language's region says nothing of where this buyer lives.
    [["fr", "en-US"]],
    // Latin America is a region, not a country.
    [["es-419"]],
    [["not a language tag", "en"]],
  ] as const)("%j → none: the buyer chooses", (languages) => {
    expect(countryFromLanguages(languages)).toBe("");
  });
});

describe("the VAT line of the order summary", () => {
  const line = (locale: string, vat: Partial<CheckoutVat>) => {
    const t = createTranslator({ locale, messages: messagesOf(locale), namespace: "checkout" });
    const shown = vatLine(
      {
        scheme: "standard",
        country: "FR",
        rateBps: 2000,
        vatMinor: 333,
        netMinor: 1667,
        pricesIncludeVat: true,
        ...vat,
      },
      t,
      (minor) => formatMoney(minor, "EUR", locale),
      locale,
    );
    return shown.amount === null ? plain(shown.label) : plain(`${shown.label}: ${shown.amount}`);
  };

  it.each([
    ["en", "Includes VAT (FR 20%): €3.33"],
    ["fr", "Dont TVA (FR 20 %): 3,33 €"],
    ["es", "IVA incluido (FR 20 %): 3,33 €"],
  ])("%s: a price including VAT says how much of it is VAT", (locale, text) => {
    expect(line(locale, {})).toBe(text);
  });

  it.each([
    ["en", "VAT (HU 27%): €5.40"],
    ["fr", "TVA (HU 27 %): 5,40 €"],
    ["es", "IVA (HU 27 %): 5,40 €"],
  ])("%s: VAT added to the price is its own line", (locale, text) => {
    expect(
      line(locale, { country: "HU", rateBps: 2700, vatMinor: 540, netMinor: 2000, pricesIncludeVat: false }),
    ).toBe(text);
  });

  it.each([
    ["en", "Reverse charge: no VAT (VAT number verified)"],
    ["fr", "Autoliquidation : pas de TVA (numéro de TVA vérifié)"],
    ["es", "Inversión del sujeto pasivo: sin IVA (número de IVA verificado)"],
  ])("%s: a verified business pays no VAT, and is told why", (locale, text) => {
    expect(line(locale, { scheme: "reverse-charge", country: "DE", rateBps: 0, vatMinor: 0 })).toBe(text);
  });

  it.each([
    ["outside", "US"],
    ["not-registered", "GB"],
    ["standard", null],
  ] as const)("%s (%s): no VAT, outside the EU", (scheme, country) => {
    expect(line("en", { scheme, country, rateBps: 0, vatMinor: 0 })).toBe("No VAT (outside the EU)");
    expect(line("fr", { scheme, country, rateBps: 0, vatMinor: 0 })).toBe("Pas de TVA (hors UE)");
  });

  it("writes a rate with decimals as the language does", () => {
    expect(plain(formatRate(2550, "en"))).toBe("25.5%");
    expect(plain(formatRate(2550, "fr"))).toBe("25,5 %");
    expect(plain(formatRate(1700, "es"))).toBe("17 %");
  });
});
