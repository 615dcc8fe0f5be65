import { expect, test } from "../fixtures.ts";

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
