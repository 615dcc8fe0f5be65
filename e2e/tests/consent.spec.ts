import { expect, test } from "../fixtures.ts";

const ANALYTICS = "**/__analytics.js*";

test.describe("cookie consent and analytics", () => {
  test.beforeEach(async ({ page }) => {
    // The analytics tag is served by a stub that counts how many times it ran.
    await page.route(ANALYTICS, (route) =>
      route.fulfill({
        contentType: "application/javascript",
        body: "window.__analyticsRuns = (window.__analyticsRuns || 0) + 1;",
      }),
    );
  });

  test("accept stores true, fires cookie-accepted and loads the tag once", async ({
    page,
    consoleErrors: _,
  }) => {
    const requests: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("__analytics.js")) requests.push(r.url());
    });
    await page.goto("/");
    const banner = page.getByRole("dialog", { name: "Cookie consent" });
    await expect(banner).toBeVisible();
    await expect(banner.getByRole("link", { name: "Privacy policy" })).toHaveAttribute(
      "href",
      "/legal/privacy",
    );
    expect(await page.evaluate(() => localStorage.getItem("cookie-consent"))).toBeNull();
    expect(requests).toHaveLength(0);

    await page.evaluate(() => {
      window.addEventListener("cookie-accepted", () => {
        (window as unknown as { __accepted: number }).__accepted =
          ((window as unknown as { __accepted?: number }).__accepted ?? 0) + 1;
      });
    });
    await banner.getByRole("button", { name: "Accept" }).click();
    await expect(banner).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem("cookie-consent"))).toBe("true");
    expect(await page.evaluate(() => (window as unknown as { __accepted?: number }).__accepted)).toBe(1);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __analyticsRuns?: number }).__analyticsRuns))
      .toBe(1);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toContain("id=G-E2E");

    // Client-side navigation keeps the one tag; a reload loads it once for the new page, no banner.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blog" }).click();
    await expect(page).toHaveURL(/\/blog$/);
    expect(await page.locator("script#analytics-tag").count()).toBe(1);
    await page.reload();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __analyticsRuns?: number }).__analyticsRuns))
      .toBe(1);
    await expect(page.getByRole("dialog", { name: "Cookie consent" })).toHaveCount(0);
    expect(await page.locator("script#analytics-tag").count()).toBe(1);
  });

  test("decline stores false and never loads the tag", async ({ page, consoleErrors: _ }) => {
    let loads = 0;
    page.on("request", (r) => {
      if (r.url().includes("__analytics.js")) loads += 1;
    });
    await page.goto("/");
    await page.getByRole("button", { name: "Decline" }).click();
    await expect(page.getByRole("dialog", { name: "Cookie consent" })).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem("cookie-consent"))).toBe("false");
    await page.reload();
    await page.waitForLoadState("networkidle");
    await expect(page.getByRole("dialog", { name: "Cookie consent" })).toHaveCount(0);
    expect(loads).toBe(0);
  });

  test("the privacy link opens the privacy policy", async ({ page, consoleErrors: _ }) => {
    await page.goto("/");
    await page
      .getByRole("dialog", { name: "Cookie consent" })
      .getByRole("link", { name: "Privacy policy" })
      .click();
    await expect(page).toHaveURL(/\/legal\/privacy$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Privacy/);
  });
});
