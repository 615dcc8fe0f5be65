import { expect, test } from "../fixtures.ts";

const POST = "how-affiliate-attribution-works";

test.describe("public pages", () => {
  test("blog list shows post cards that open the post", async ({ page, consoleErrors: _ }) => {
    await page.goto("/blog");
    const cards = page.locator("article.post-card");
    await expect(cards).toHaveCount(3);
    await page.getByRole("link", { name: "How affiliate attribution works on Salelink" }).first().click();
    await expect(page).toHaveURL(new RegExp(`/blog/${POST}$`));
  });

  for (const [locale, title, back] of [
    ["en-US", "How affiliate attribution works on Salelink", "All posts"],
    ["fr-FR", "Comment fonctionne l'attribution des affiliés sur Salelink", "Tous les articles"],
    ["es-ES", "Cómo funciona la atribución de afiliados en Salelink", "Todos los artículos"],
  ] as const) {
    test(`a blog post in ${locale}`, async ({ browser }) => {
      const context = await browser.newContext({ locale });
      const page = await context.newPage();
      await page.goto(`/blog/${POST}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(page.getByRole("link", { name: `← ${back}` })).toBeVisible();
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", title);
      await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "article");
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{40,}/);
      await expect(page).toHaveTitle(`${title} · Salelink`);
      await context.close();
    });
  }

  test("legal pages exist in three languages and the footer links them", async ({ browser }) => {
    // Twelve page loads in three fresh contexts.
    test.slow();
    for (const locale of ["en-US", "fr-FR", "es-ES"]) {
      const context = await browser.newContext({ locale });
      const page = await context.newPage();
      for (const slug of ["privacy", "terms", "cookies"]) {
        const res = await page.goto(`/legal/${slug}`);
        expect(res?.status(), `${locale} ${slug}`).toBe(200);
        await expect(page.locator("html")).toHaveAttribute("lang", locale.slice(0, 2));
        await expect(page.locator(".prose h2").first()).toBeVisible();
      }
      await page.goto("/");
      await expect(page.locator(`footer a[href="/legal/cookies"]`)).toBeVisible();
      await context.close();
    }
  });

  test("the affiliate page shows the programme's figures from configuration", async ({
    page,
    consoleErrors: _,
  }) => {
    await page.goto("/affiliate");
    const figures = page.getByTestId("affiliate-figures");
    await expect(figures).toContainText("25%");
    await expect(figures).toContainText("12 months");
    await expect(figures).toContainText("30 days");
  });

  test("the home page has its title, description and Open Graph tags", async ({ page, consoleErrors: _ }) => {
    await page.goto("/");
    await expect(page).toHaveTitle("Sell anything with a link · Salelink");
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
      "content",
      "Sell anything with a link",
    );
    await expect(page.locator('meta[property="og:site_name"]')).toHaveAttribute("content", "Salelink");
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary");
    await page.getByRole("link", { name: "Start selling, free" }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create your account");
  });

  test("a ref token in any URL is kept at once, last one wins", async ({ page, consoleErrors: _ }) => {
    const stored = () =>
      page.evaluate(() => {
        const raw = localStorage.getItem("affiliate-ref");
        return raw ? (JSON.parse(raw) as { token: string; at: number }) : null;
      });
    await page.goto("/blog?ref=first-token");
    await expect.poll(async () => (await stored())?.token).toBe("first-token");
    await page.goto("/affiliate?ref=second-token");
    await expect.poll(async () => (await stored())?.token).toBe("second-token");
    expect(Math.abs(Date.now() - ((await stored())?.at ?? 0))).toBeLessThan(60_000);
    // A malformed token never replaces a good one.
    await page.goto("/blog?ref=%3Cscript%3E");
    await page.waitForLoadState("networkidle");
    expect((await stored())?.token).toBe("second-token");
  });
});
