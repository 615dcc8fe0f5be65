import { describe, expect, it } from "vitest";
import { isBot } from "../lib/bots.ts";
import { detectLocale } from "../lib/locale.ts";

describe("detectLocale", () => {
  it("prefers a valid cookie over the browser", () => {
    expect(detectLocale("es", "fr-FR,fr;q=0.9")).toBe("es");
  });
  it("ignores an invalid cookie", () => {
    expect(detectLocale("de", "fr-FR,fr;q=0.9")).toBe("fr");
  });
  it("takes the best supported language by quality", () => {
    expect(detectLocale(undefined, "de-DE,de;q=0.9,es;q=0.8,fr;q=0.7")).toBe("es");
    expect(detectLocale(undefined, "fr;q=0.5, es;q=0.6")).toBe("es");
    expect(detectLocale(undefined, "en-GB")).toBe("en");
  });
  it("skips languages refused with q=0 and falls back to English", () => {
    expect(detectLocale(undefined, "fr;q=0, de")).toBe("en");
    expect(detectLocale(undefined, null)).toBe("en");
    expect(detectLocale(undefined, "")).toBe("en");
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
