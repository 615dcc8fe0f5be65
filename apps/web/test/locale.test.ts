import { describe, expect, it } from "vitest";
import { isBot } from "../lib/bots.ts";
import { localeRewrites } from "../lib/locale-rewrites.ts";

/** Applies the rewrite rules in order, as Next.js does with `has` conditions. */
function pickLocale(cookie: string | undefined, acceptLanguage: string | null): string {
  for (const rule of localeRewrites()) {
    const ok = (rule.has ?? []).every((cond) => {
      const actual = cond.type === "cookie" ? cookie : (acceptLanguage ?? undefined);
      return actual !== undefined && new RegExp(cond.value).test(actual);
    });
    if (ok) return rule.destination.split("/")[1] ?? "";
  }
  throw new Error("no rule matched");
}

describe("language detection rewrites", () => {
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

describe("the proxy's user-agent pre-filter", () => {
  it("lets through every user agent isBot() recognises, and no browser", async () => {
    const { config } = await import("../proxy.ts");
    const filter = new RegExp(`^${config.matcher[0]?.has[0]?.value}$`);
    for (const ua of [
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "facebookexternalhit/1.1",
      "Twitterbot/1.0",
      "Slackbot-LinkExpanding 1.0",
      "WhatsApp/2.23.20.0",
      "curl/8.4.0",
      "Mozilla/5.0 (compatible; bingbot/2.0)",
    ]) {
      expect(isBot(ua), ua).toBe(true);
      expect(filter.test(ua), ua).toBe(true);
    }
    // People's pages never pay for the proxy: it halved the rate of cached pages (decision 017).
    expect(filter.test("Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0 Safari/537.36")).toBe(false);
  });
});
