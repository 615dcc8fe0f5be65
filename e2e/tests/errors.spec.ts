import { expect, test } from "../fixtures.ts";
import { webUrl } from "../playwright.config.ts";

/** Pages that do not exist: an unmatched URL, and well-formed tokens, ids and slugs nobody has. */
const missingPages = [
  "/no-such-page",
  "/v/ZZZZZZZZZZZZZZZZZZZZZZZZZZ",
  "/c/00000000-0000-4000-8000-000000000000",
  `/order/${"Z".repeat(43)}`,
  "/blog/nope",
];

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

  test("every 404 is the whole page in the HTML, in the visitor's language, without JavaScript", async ({
    browser,
  }) => {
    const cases = [
      {
        locale: "en-GB",
        cookie: undefined,
        message: "The page you are looking for does not exist.",
        back: "Go back",
      },
      { locale: "en-GB", cookie: "fr", message: "La page que vous cherchez n'existe pas.", back: "Retour" },
      { locale: "es-ES", cookie: undefined, message: "La página que buscas no existe.", back: "Volver" },
    ];
    for (const { locale, cookie, message, back } of cases) {
      const context = await browser.newContext({ javaScriptEnabled: false, locale });
      if (cookie) await context.addCookies([{ name: "NEXT_LOCALE", value: cookie, url: webUrl }]);
      const page = await context.newPage();
      for (const path of missingPages) {
        const res = await page.goto(path);
        expect(res?.status(), path).toBe(404);
        const html = (await res?.text()) ?? "";
        // Not Next.js's empty error shell that only JavaScript fills.
        expect(html, path).not.toContain("__next_error__");
        await expect(page.getByTestId("error-status"), path).toHaveText("404");
        await expect(page.getByRole("heading", { level: 1, name: "Ooops." }), path).toBeVisible();
        await expect(page.getByText(message), path).toBeVisible();
        await expect(page.getByRole("link", { name: back, exact: true }), path).toHaveAttribute("href", "/");
        // The site's header and footer, as on every page.
        await expect(page.getByRole("banner").getByRole("link", { name: "Salelink" }), path).toBeVisible();
        await expect(page.getByRole("contentinfo"), path).toContainText("© 2026 Salelink");
      }
      await context.close();
    }
  });

  test("crawlers get a bare Not Found for every 404", async ({ request }) => {
    const bot = { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" };
    for (const path of [...missingPages, "/v/not-a-token!"]) {
      const res = await request.get(path, { headers: bot });
      expect(res.status(), path).toBe(404);
      expect(res.headers()["content-type"], path).toMatch(/^text\/plain/);
      expect(await res.text(), path).toBe("Not Found");
    }
    // Real pages are served to them as usual, a buyer page too.
    const link = await request.get("/v/DemoGoldenHourPack0001", { headers: bot });
    expect(link.status()).toBe(200);
    expect(await link.text()).toContain("Golden hour photo pack");
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
    // Fired until the guard is there: before hydration nothing listens, and a navigation in
    // progress destroys the page's context (both ignored here).
    const failChunk = () =>
      page
        .evaluate(() => {
          const err = new Error("Loading chunk 4242 failed.");
          err.name = "ChunkLoadError";
          void Promise.reject(err);
        })
        .catch(() => {});
    await expect
      .poll(async () => {
        await failChunk();
        return loads;
      })
      .toBe(2);
    await page.waitForLoadState("networkidle");
    // Within the 10 s protection, however long hydration takes on a busy machine: no second reload.
    for (let i = 0; i < 10; i += 1) {
      await failChunk();
      await page.waitForTimeout(300);
    }
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
