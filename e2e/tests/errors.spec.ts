import { expect, test } from "../fixtures.ts";

test.describe("error page", () => {
  test("unmatched paths give the 404 page, and Go back returns home", async ({ page }) => {
    const res = await page.goto("/this/page/does-not-exist");
    expect(res?.status()).toBe(404);
    await expect(page.getByTestId("error-status")).toHaveText("404");
    await expect(page.getByRole("heading", { name: "Ooops." })).toBeVisible();
    await expect(page.getByText("The page you are looking for does not exist.")).toBeVisible();
    await page.getByRole("link", { name: "Go back" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sell anything with a link");
  });

  test("parameters that fail validation give 404, in the visitor's language", async ({ browser }) => {
    const context = await browser.newContext({ locale: "fr-FR" });
    const page = await context.newPage();
    for (const path of ["/blog/no-such-post", "/blog/Not_A_Slug!", "/legal/unknown", "/en/blog"]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(404);
      await expect(page.getByText("La page que vous cherchez n'existe pas.")).toBeVisible();
      await expect(page.getByRole("link", { name: "Retour" })).toHaveAttribute("href", "/");
    }
    await context.close();
  });

  test("crawlers get the status with a bare body", async ({ request }) => {
    const bot = { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" };
    const missing = await request.get("/nothing-here", { headers: bot });
    expect(missing.status()).toBe(404);
    expect(await missing.text()).toBe("Not Found");
    const unknownPost = await request.get("/blog/no-such-post", { headers: bot });
    expect(unknownPost.status()).toBe(404);
    expect(await unknownPost.text()).toBe("Not Found");
    // Real pages are served to crawlers as usual.
    const post = await request.get("/blog/how-affiliate-attribution-works", { headers: bot });
    expect(post.status()).toBe(200);
    expect(await post.text()).toContain("<h1>");
  });

  test("a failed chunk load reloads the page at most once per 10 s", async ({ page }) => {
    let loads = 0;
    page.on("load", () => {
      loads += 1;
    });
    await page.goto("/blog");
    await page.waitForLoadState("networkidle");
    expect(loads).toBe(1);
    const failChunk = () =>
      page.evaluate(() => {
        const err = new Error("Loading chunk 4242 failed.");
        err.name = "ChunkLoadError";
        void Promise.reject(err);
      });
    await failChunk();
    await expect.poll(() => loads).toBe(2);
    await page.waitForLoadState("networkidle");
    await failChunk();
    await page.waitForTimeout(1_000);
    expect(loads).toBe(2);
  });
});

test("robots.txt and sitemap.xml list the public pages", async ({ request }) => {
  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain("Sitemap: http://localhost:3100/sitemap.xml");
  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.status()).toBe(200);
  const xml = await sitemap.text();
  expect(xml).toContain("<loc>http://localhost:3100/blog/how-affiliate-attribution-works</loc>");
  expect(xml).toContain("<loc>http://localhost:3100/legal/privacy</loc>");
});
