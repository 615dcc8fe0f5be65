import type { BrowserContext } from "@playwright/test";
import { expect, test } from "../fixtures.ts";

/** Sends this exact Accept-Language: Chromium writes its own from the context's locale otherwise. */
async function sendAcceptLanguage(
  context: BrowserContext,
  acceptLanguage: string,
  extra: Record<string, string> = {},
): Promise<void> {
  await context.route("**/*", (route) =>
    route.continue({
      headers: { ...route.request().headers(), ...extra, "accept-language": acceptLanguage },
    }),
  );
}

test.describe("language", () => {
  test("detected from the browser's language", async ({ browser }) => {
    for (const [locale, heading] of [
      ["fr-FR", "Vendez tout avec un lien"],
      ["es-ES", "Vende lo que sea con un enlace"],
      ["de-DE", "Sell anything with a link"],
    ] as const) {
      const context = await browser.newContext({ locale });
      const page = await context.newPage();
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
      expect(new URL(page.url()).pathname).toBe("/");
      await context.close();
    }
  });

  test("weighs the browser's quality values and reads tags in any case, in the HTML itself", async ({
    browser,
  }) => {
    // JavaScript off: the language is chosen by the server (decision 023), not after hydration.
    for (const [acceptLanguage, lang, heading] of [
      ["fr;q=0.1,es;q=0.9", "es", "Vende lo que sea con un enlace"],
      ["FR-fr", "fr", "Vendez tout avec un lien"],
      ["es;q=0, fr;q=0.3, de", "fr", "Vendez tout avec un lien"],
    ] as const) {
      const context = await browser.newContext({ javaScriptEnabled: false });
      await sendAcceptLanguage(context, acceptLanguage);
      const page = await context.newPage();
      const res = await page.goto("/");
      expect(res?.status(), acceptLanguage).toBe(200);
      await expect(page.locator("html"), acceptLanguage).toHaveAttribute("lang", lang);
      await expect(page.getByRole("heading", { level: 1 }), acceptLanguage).toHaveText(heading);
      await context.close();
    }
  });

  test("the cookie still wins over weighed languages, and a client cannot pick the language header", async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    await sendAcceptLanguage(context, "fr;q=0.1,es;q=0.9", { "x-salelink-locale": "fr" });
    const page = await context.newPage();
    await page.goto("/blog");
    // The header our server sets for the rewrites is its own: a client's is replaced.
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: "http://localhost:3100" }]);
    await page.goto("/blog");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await context.close();
  });

  test("the cookie wins over the browser, and the switcher sets it for 365 days", async ({ browser }) => {
    const context = await browser.newContext({ locale: "fr-FR" });
    await context.addCookies([{ name: "NEXT_LOCALE", value: "es", url: "http://localhost:3100" }]);
    const page = await context.newPage();
    await page.goto("/blog");
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Blog");

    await page.getByTestId("locale-switcher").selectOption("en");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(
      page.getByText("Guides for selling, getting paid and growing with affiliates."),
    ).toBeVisible();
    const cookie = (await context.cookies()).find((c) => c.name === "NEXT_LOCALE");
    expect(cookie?.value).toBe("en");
    const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365);
    await context.close();
  });
});
