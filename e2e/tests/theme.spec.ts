import { expect, test } from "../fixtures.ts";

test.describe("colour preference", () => {
  test("dark persists across reloads and applies before any script of the app runs", async ({
    page,
    consoleErrors: _,
  }) => {
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    await page.getByTestId("theme-switcher").selectOption("dark");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");

    // With the app's JavaScript blocked, only the inline head script can set the theme: no flash.
    await page.route("**/_next/static/**/*.js", (route) => route.abort());
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(15, 17, 21)");
  });

  test("system follows the operating system's preference", async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await expect(page.getByTestId("theme-switcher")).toHaveValue("system");
    await page.getByTestId("theme-switcher").selectOption("light");
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    await context.close();
  });
});
