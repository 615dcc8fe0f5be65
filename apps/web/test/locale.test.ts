import { describe, expect, it } from "vitest";
import { isBot } from "../lib/bots.ts";
import { LOCALE_HEADER, localeRewrites } from "../lib/locale-rewrites.ts";

/** Applies the rewrite rules in order, as Next.js does with `has` conditions. */
function pickLocale(
  cookie: string | undefined,
  acceptLanguage: string | null,
  serverLocale?: string,
): string {
  const headers: Record<string, string | undefined> = {
    "accept-language": acceptLanguage ?? undefined,
    [LOCALE_HEADER]: serverLocale,
  };
  for (const rule of localeRewrites()) {
    const ok = (rule.has ?? []).every((cond) => {
      const actual = cond.type === "cookie" ? cookie : headers[cond.key];
      return actual !== undefined && new RegExp(cond.value).test(actual);
    });
    if (ok) return rule.destination.split("/")[1] ?? "";
  }
  throw new Error("no rule matched");
}

describe("language detection rewrites", () => {
  it("follow the language our server negotiated, before anything else (decision 023)", () => {
    expect(pickLocale("fr", "fr", "es")).toBe("es");
    expect(pickLocale(undefined, "fr;q=0.1,es;q=0.9", "es")).toBe("es");
    // Anything else in the header is not a locale: the fallback rules decide.
    expect(pickLocale(undefined, "fr", "de")).toBe("fr");
    expect(pickLocale(undefined, null, "es|fr")).toBe("en");
  });

  it("prefers a valid cookie over the browser", () => {
    expect(pickLocale("es", "fr-FR,fr;q=0.9")).toBe("es");
  });
  it("ignores an invalid cookie", () => {
    expect(pickLocale("de", "fr-FR,fr;q=0.9")).toBe("fr");
    expect(pickLocale("fresh", "es")).toBe("es");
  });
  it("takes the browser's first supported language", () => {
    expect(pickLocale(undefined, "de-DE,de;q=0.9,es;q=0.8,fr;q=0.7")).toBe("es");
    expect(pickLocale(undefined, "fr-CA")).toBe("fr");
    expect(pickLocale(undefined, "en-GB,en;q=0.9")).toBe("en");
    expect(pickLocale(undefined, "pt-BR, es_MX;q=0.5")).toBe("es");
  });
  it("is not fooled by tags that merely start like a locale", () => {
    expect(pickLocale(undefined, "frr,es")).toBe("es");
    expect(pickLocale(undefined, "est,fr")).toBe("fr");
  });
  it("falls back to English", () => {
    expect(pickLocale(undefined, "de, it")).toBe("en");
    expect(pickLocale(undefined, null)).toBe("en");
    expect(pickLocale(undefined, "*")).toBe("en");
  });
  it("rewrites every path, keeping it after the locale", () => {
    for (const rule of localeRewrites()) {
      expect(rule.source).toBe("/:path*");
      expect(rule.destination).toMatch(/^\/(en|fr|es)\/:path\*$/);
    }
  });
});

describe("isBot", () => {
  it.each([
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "Twitterbot/1.0",
    "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    "WhatsApp/2.23.20.0",
    "curl/8.4.0",
  ])("recognises %s", (ua) => {
    expect(isBot(ua)).toBe(true);
  });
  it.each([
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
  ])("lets browsers through: %s", (ua) => {
    expect(isBot(ua)).toBe(false);
  });
});
