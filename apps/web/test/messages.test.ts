import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { transactionKinds, userAccounts } from "@salelink/contracts/ledger";
import { locales } from "@salelink/contracts/locales";
import { describe, expect, it } from "vitest";
import { flatten, loadCatalogue, webRoot } from "./catalogues.ts";

const root = webRoot;
const load = loadCatalogue;

/** The ICU arguments a message uses: {name}, {count, plural, ...}. */
const argumentsOf = (message: string) =>
  [...message.matchAll(/\{\s*([a-zA-Z_]\w*)\s*[,}]/g)].map((m) => m[1]).sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if ([".next", "node_modules", "test", "messages", "content"].includes(name)) return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(tsx?|mts)$/.test(name) ? [full] : [];
  });
}

describe("message catalogues", () => {
  const english = flatten(load("en"));

  it.each(locales.filter((l) => l !== "en"))(
    "%s has every English key, no extra, and the same arguments",
    (locale) => {
      const other = flatten(load(locale));
      expect(
        [...english.keys()].filter((k) => !other.has(k)),
        "missing keys",
      ).toEqual([]);
      expect(
        [...other.keys()].filter((k) => !english.has(k)),
        "extra keys",
      ).toEqual([]);
      for (const [key, message] of english) {
        expect(argumentsOf(other.get(key) ?? ""), `arguments of ${key}`).toEqual(argumentsOf(message));
        expect((other.get(key) ?? "").trim().length, `${locale} ${key} is empty`).toBeGreaterThan(0);
      }
    },
  );

  it("every literal key used in the code exists in English", () => {
    const missing: string[] = [];
    for (const file of sourceFiles(root)) {
      const code = readFileSync(file, "utf8");
      // Pairs of `const t = useTranslations("ns")` / `getTranslations("ns")` / `{ namespace: "ns" }` and `t("key")`.
      const namespaces = [
        ...code.matchAll(/(?:useTranslations|getTranslations)\(\s*(?:\{[^}]*namespace:\s*)?"([\w.]+)"/g),
      ].map((m) => m[1]);
      if (namespaces.length === 0) continue;
      for (const m of code.matchAll(/\bt\(\s*"([\w.]+)"/g)) {
        const key = m[1];
        if (!namespaces.some((ns) => english.has(`${ns}.${key}`)))
          missing.push(`${path.relative(root, file)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("names every account and kind of movement the wallet can list (keys built at run time)", () => {
    const wanted = [
      ...userAccounts.map((account) => `wallet.accounts.${account}`),
      ...transactionKinds.map((kind) => `wallet.kinds.${kind}`),
    ];
    expect(wanted.filter((key) => !english.has(key))).toEqual([]);
  });
});
