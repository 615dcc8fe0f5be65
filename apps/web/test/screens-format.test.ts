import { readFileSync } from "node:fs";
import path from "node:path";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { formatBytes } from "../components/ui/format-size.ts";
import { withdrawHint } from "../features/payouts/withdraw-hint.ts";
import { formatMoney } from "../lib/money.ts";

const root = path.resolve(import.meta.dirname, "..");
const messagesOf = (locale: string) =>
  JSON.parse(readFileSync(path.join(root, "messages", `${locale}.json`), "utf8"));
// Intl separates a number from its unit with a (narrow) no-break space in some languages.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");
const MiB = 1024 * 1024;

describe("sizes, the same on every screen", () => {
  it.each([
    ["en", 588, "588 bytes"],
    ["en", 1, "1 byte"],
    ["en", 0, "0 bytes"],
    ["fr", 588, "588 octets"],
    ["fr", 1, "1 octet"],
    ["es", 588, "588 bytes"],
    ["es", 1, "1 byte"],
  ])("%s: %i bytes are written out with the language's plural", (locale, bytes, expected) => {
    expect(plain(formatBytes(bytes, locale))).toBe(expected);
  });

  it("steps in 1024s, as the limits are set", () => {
    expect(plain(formatBytes(10 * MiB, "en"))).toBe("10 MB");
    expect(plain(formatBytes(10 * MiB, "fr"))).toBe("10 Mo");
    expect(plain(formatBytes(1536, "en"))).toBe("1.5 kB");
    expect(plain(formatBytes(1536, "es"))).toBe("1,5 kB");
  });
});

describe("withdraw hint", () => {
  const hint = (locale: string, minimum: number, available: number) => {
    const t = createTranslator({ locale, messages: messagesOf(locale), namespace: "payouts" });
    return plain(withdrawHint(t, minimum, available, (minor) => formatMoney(minor, "EUR", locale)));
  };

  it.each([
    ["en", "The minimum payout is €10.00: €10.00 more and you can withdraw."],
    ["fr", "Le versement minimum est de 10,00 € : encore 10,00 € et vous pourrez retirer."],
    ["es", "La transferencia mínima es de 10,00 €: con 10,00 € más podrás retirar."],
  ])("%s: with nothing available it says how much is missing, not a range up to zero", (locale, text) => {
    expect(hint(locale, 1000, 0)).toBe(text);
  });

  it("counts what is missing from what is there", () => {
    expect(hint("en", 1000, 250)).toBe("The minimum payout is €10.00: €7.50 more and you can withdraw.");
  });

  it.each([
    ["en", "From €10.00 up to €25.00."],
    ["fr", "De 10,00 € à 25,00 €."],
    ["es", "De 10,00 € a 25,00 €."],
  ])("%s: from the minimum up, it gives the range", (locale, start) => {
    expect(hint(locale, 1000, 2500).startsWith(start)).toBe(true);
  });
});
