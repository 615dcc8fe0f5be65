import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages, moduleCatalogues } from "../../src/i18n/messages.ts";
import { insertAccount, PASSWORD } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";

const srcDir = path.resolve(import.meta.dirname, "../../src");
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "migrations" ? [] : sourceFiles(full);
    return full.endsWith(".ts") ? [full] : [];
  });
}

/** Every text the API says to people: request.t("…"), t("…"), AppError messages and field messages. */
function spokenTexts(): Map<string, string> {
  const found = new Map<string, string>();
  const patterns = [
    /\brequest\.t\(\s*"([^"]+)"/g,
    /new AppError\(\s*"\w+",\s*"([^"]+)"/g,
    /\bpromoError\(\s*"([^"]+)"/g,
    /\b(?:validation|AppError)\([^)]*?\{[^}]*?\[\s*"([^"]+)"\s*\]/gs,
  ];
  for (const file of sourceFiles(srcDir)) {
    if (file.includes(`${path.sep}mail${path.sep}`) || file.endsWith("messages.ts")) continue;
    const code = readFileSync(file, "utf8");
    // The error handler's own shorthand for request.t.
    const local = file.endsWith("error-handler.ts") ? [/\bt\(\s*"([^"]+)"/g] : [];
    for (const pattern of [...patterns, ...local]) {
      for (const m of code.matchAll(pattern)) if (m[1]) found.set(m[1], path.relative(srcDir, file));
    }
  }
  return found;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("API messages in three languages", () => {
  it("every text the code says has a French and a Spanish version with the same placeholders", () => {
    const texts = spokenTexts();
    expect(texts.size).toBeGreaterThan(20);
    const missing = [...texts].filter(([text]) => !messages[text]).map(([text, file]) => `${file}: ${text}`);
    expect(missing).toEqual([]);
    for (const [english, { fr, es }] of Object.entries(messages)) {
      expect(placeholders(fr), english).toEqual(placeholders(english));
      expect(placeholders(es), english).toEqual(placeholders(english));
    }
  });

  it("keeps each text in one module's file, and the files do not import the assembler (decision 027)", () => {
    const owners = new Map<string, string[]>();
    for (const [module, catalogue] of Object.entries(moduleCatalogues))
      for (const english of Object.keys(catalogue))
        owners.set(english, [...(owners.get(english) ?? []), module]);
    const twice = [...owners].filter(([, modules]) => modules.length > 1);
    expect(twice).toEqual([]);
    expect(Object.keys(messages)).toHaveLength(owners.size);
    const catalogueDir = path.join(srcDir, "i18n", "catalogue");
    const files = readdirSync(catalogueDir);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      expect(Object.keys(moduleCatalogues), file).toContain(file.replace(/\.ts$/, ""));
      expect(readFileSync(path.join(catalogueDir, file), "utf8"), file).not.toMatch(
        /from "\.\.\/messages\.ts"/,
      );
    }
  });
});

describe("answers in the caller's language", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await testApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("uses X-Locale, then Accept-Language, then English", async () => {
    const signin = (headers: Record<string, string>) =>
      ctx.app.inject({
        method: "POST",
        url: "/auth/signin",
        headers,
        payload: { email: "nobody@example.test", password: "wrong-password" },
      });
    expect((await signin({ "x-locale": "fr" })).json().message).toBe(
      "Identifiants invalides. Veuillez réessayer.",
    );
    expect((await signin({ "accept-language": "es-ES,es;q=0.9" })).json().message).toBe(
      "Credenciales de usuario no válidas. Inténtalo de nuevo.",
    );
    expect((await signin({ "x-locale": "de", "accept-language": "de" })).json().message).toBe(
      "Invalid user credentials. Please try again.",
    );
  });

  it("weighs Accept-Language's quality values and reads tags in any case (decision 023)", async () => {
    const message = async (acceptLanguage: string) =>
      (
        await ctx.app.inject({
          method: "POST",
          url: "/auth/signin",
          headers: { "accept-language": acceptLanguage },
          payload: { email: "nobody@example.test", password: "wrong-password" },
        })
      ).json().message;
    expect(await message("fr;q=0.1,es;q=0.9")).toBe(
      "Credenciales de usuario no válidas. Inténtalo de nuevo.",
    );
    expect(await message("FR-fr")).toBe("Identifiants invalides. Veuillez réessayer.");
    expect(await message("fr;q=0, *")).toBe("Invalid user credentials. Please try again.");
  });

  it("translates field errors, including zod's own, and fills placeholders", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/auth/signin",
      headers: { "x-locale": "fr" },
      payload: { email: "not-an-email", password: "x" },
    });
    expect(res.json().message).toBe("Certains champs ne sont pas valides.");
    expect(res.json().errors.email[0]).toMatch(/e-mail invalide/i);

    const user = await insertAccount(ctx.database, { onboarded: true });
    const cookie = await (async () => {
      const r = await ctx.app.inject({
        method: "POST",
        url: "/auth/signin",
        payload: { email: user.email, password: PASSWORD },
      });
      return `sid=${r.cookies[0]?.value}`;
    })();
    const young = new Date();
    young.setUTCFullYear(young.getUTCFullYear() - 10);
    const onboarding = await ctx.app.inject({
      method: "POST",
      url: "/profile/onboarding",
      headers: { cookie, "x-locale": "es" },
      payload: {
        kind: "individual",
        firstName: "Ana",
        lastName: "García",
        dateOfBirth: young.toISOString().slice(0, 10),
        address: { line1: "Calle Mayor 1", city: "Madrid", postalCode: "28013", country: "ES" },
      },
    });
    expect(onboarding.statusCode).toBe(400);
    expect(onboarding.json().errors.dateOfBirth).toEqual(["Debes tener al menos 18 años."]);
  });
});
