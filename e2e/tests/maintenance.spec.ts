import type { APIRequestContext } from "@playwright/test";
import { apiAs, demoEmail, demoPassword, expect, test } from "../fixtures.ts";
import { apiUrl } from "../playwright.config.ts";
import { freshAccount } from "./identity-helpers.ts";
import { sellWithTokens } from "./sale-helpers.ts";

const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/** Switches maintenance on and waits until the web server's gate has seen it (it polls the API). */
async function switchOn(admin: APIRequestContext, web: APIRequestContext): Promise<void> {
  const on = await admin.put("/admin/maintenance", { data: { maintenance: true } });
  expect(on.status(), await on.text()).toBe(200);
  await expect.poll(async () => (await web.get("/", { maxRedirects: 0 })).status()).toBe(307);
}

/** A paid order of a fresh creator's €20.00 link, bought before maintenance starts (buying is a write). */
async function paidOrder(stamp: string): Promise<{ title: string; linkToken: string; orderToken: string }> {
  const creator = await freshAccount("mnt-creator", "individual");
  try {
    const profile = await creator.api.post("/profiles", {
      data: { displayName: "Maintenance E2E", handle: `mnt${stamp}` },
    });
    expect(profile.status()).toBe(201);
    const { id: profileId } = (await profile.json()) as { id: string };
    return await sellWithTokens(creator.api, profileId, `Pack bought before maintenance ${stamp}`);
  } finally {
    await creator.api.dispose();
  }
}

test.describe("maintenance mode", () => {
  // One platform-wide switch: these tests must never overlap.
  test.describe.configure({ mode: "serial" });

  test.afterEach(async () => {
    const admin = await apiAs("admin");
    const off = await admin.put("/admin/maintenance", { data: { maintenance: false } });
    expect(off.status(), await off.text()).toBe(200);
    await admin.dispose();
  });

  test("visitors are redirected while it is on, admins are not, and everyone returns when it is off", async ({
    browser,
  }) => {
    // The admin signs in through the page before maintenance starts.
    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();
    await adminPage.goto("/signin");
    await adminPage.getByLabel("E-mail").fill(demoEmail("admin"));
    await adminPage.getByLabel("Password").fill(demoPassword);
    await adminPage.getByRole("button", { name: "Sign in" }).click();
    await expect(adminPage.locator("header").getByText(demoEmail("admin"))).toBeVisible();

    const visitorContext = await browser.newContext({ locale: "fr-FR" });
    const visitor = await visitorContext.newPage();
    await visitor.goto("/maintenance");
    await expect(visitor).toHaveURL(/\/$/);

    const admin = await apiAs("admin");
    const on = await admin.put("/admin/maintenance", {
      data: { maintenance: true, message: { fr: "Mise à jour de la base de données en cours." } },
    });
    expect(on.status()).toBe(200);
    expect((await on.json()).maintenance).toBe(true);

    await expect(async () => {
      await visitor.goto("/blog");
      await expect(visitor).toHaveURL(/\/maintenance$/, { timeout: 1_000 });
    }).toPass();
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Nous revenons très vite");
    await expect(visitor.getByText("Mise à jour de la base de données en cours.")).toBeVisible();
    // No layout on the maintenance page.
    await expect(visitor.locator("header.site-header")).toHaveCount(0);

    await adminPage.goto("/blog");
    await expect(adminPage).toHaveURL(/\/blog$/);
    await expect(adminPage.getByRole("heading", { level: 1 })).toHaveText("Blog");

    const off = await admin.put("/admin/maintenance", { data: { maintenance: false } });
    expect(off.status()).toBe(200);
    await expect(async () => {
      await visitor.goto("/maintenance");
      await expect(visitor).toHaveURL(/\/$/, { timeout: 1_000 });
    }).toPass();
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Vendez tout avec un lien");

    await admin.dispose();
    await adminContext.close();
    await visitorContext.close();
  });

  test("an open page is sent to /maintenance on its next navigation after the cooldown", async ({ page }) => {
    // The page's first check must answer "off" before the switch, or it redirects at once.
    const firstCheck = page.waitForResponse((r) => r.url().endsWith("/maintenance") && r.ok());
    await page.goto("/");
    const first = await (await firstCheck).json();
    expect(first).toMatchObject({ maintenance: false, cooldown: 1000 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sell anything with a link");
    const admin = await apiAs("admin");
    await admin.put("/admin/maintenance", { data: { maintenance: true } });
    // Past the cooldown the API announced, a client-side navigation asks again.
    await page.waitForTimeout(1_200);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blog" }).click();
    await expect(page).toHaveURL(/\/maintenance$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("We'll be right back");
    await admin.dispose();
  });
  test("with JavaScript off, the server sends visitors to /maintenance and crawlers a 503, and keeps orders, payments and sign-in open", async ({
    browser,
    request,
  }) => {
    test.slow();
    const stamp = Date.now().toString(36);
    const sale = await paidOrder(stamp);
    const admin = await apiAs("admin");
    await switchOn(admin, request);

    // The answer itself: a redirect with none of the home page in it.
    const home = await request.get("/", { maxRedirects: 0 });
    expect(home.status()).toBe(307);
    expect(home.headers().location).toBe("/maintenance");
    expect(home.headers()["cache-control"]).toBe("no-store");
    expect(await home.text()).toBe("");

    const visitorContext = await browser.newContext({ javaScriptEnabled: false });
    const visitor = await visitorContext.newPage();
    await visitor.goto("/");
    await expect(visitor).toHaveURL(/\/maintenance$/);
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("We'll be right back");
    await expect(visitor.getByText("Sell anything with a link")).toHaveCount(0);
    await visitor.goto("/blog");
    await expect(visitor).toHaveURL(/\/maintenance$/);

    // Crawlers are told to come back later rather than index the maintenance page.
    const crawled = await request.get("/blog", { headers: { "user-agent": googlebot }, maxRedirects: 0 });
    expect(crawled.status()).toBe(503);
    expect(crawled.headers()["retry-after"]).toMatch(/^[1-9]\d*$/);
    expect(await crawled.text()).not.toContain("Blog");

    // A payment under way and what was bought stay open to everyone, under both prefixes.
    for (const path of [`/order/${sale.orderToken}`, `/app/links/order/${sale.orderToken}`]) {
      const order = await visitor.goto(path);
      expect(order?.status(), path).toBe(200);
      await expect(visitor).toHaveURL(new RegExp(`${path}$`));
      await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(sale.title);
    }
    for (const path of [`/checkout/${sale.linkToken}`, `/app/payment/${sale.linkToken}`]) {
      const checkout = await visitor.goto(path);
      expect(checkout?.status(), path).toBe(200);
      await expect(visitor).toHaveURL(new RegExp(`${path}$`));
      await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Checkout");
      await expect(visitor.getByText(sale.title).first()).toBeVisible();
    }
    for (const path of ["/payment/success", "/app/payment/error", "/signin"]) {
      expect((await visitor.goto(path))?.status(), path).toBe(200);
      await expect(visitor).toHaveURL(new RegExp(`${path}$`));
    }
    await expect(visitor.getByLabel("E-mail")).toBeVisible();

    // A signed-in admin's pages are served as usual.
    const adminContext = await browser.newContext({
      javaScriptEnabled: false,
      storageState: await admin.storageState(),
    });
    const adminPage = await adminContext.newPage();
    expect((await adminPage.goto("/blog"))?.status()).toBe(200);
    await expect(adminPage).toHaveURL(/\/blog$/);
    await expect(adminPage.getByRole("heading", { level: 1 })).toHaveText("Blog");

    // Off again: /maintenance sends to the home page.
    expect((await admin.put("/admin/maintenance", { data: { maintenance: false } })).status()).toBe(200);
    await expect(async () => {
      await visitor.goto("/maintenance");
      await expect(visitor).toHaveURL(/\/$/, { timeout: 1_000 });
    }).toPass();
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Sell anything with a link");

    await adminContext.close();
    await visitorContext.close();
    await admin.dispose();
  });

  test("a signed-out admin signs in during maintenance and switches it off; a non-admin who signs in gets /maintenance", async ({
    page,
    browser,
    request,
    consoleErrors: _,
  }) => {
    test.slow();
    const admin = await apiAs("admin");
    await switchOn(admin, request);
    await admin.dispose();

    // The sign-in page stays, also once the page's own maintenance check has answered "on".
    const check = page.waitForResponse((r) => r.url() === `${apiUrl}/maintenance` && r.ok());
    await page.goto("/signin?next=%2Fadmin%2Fmaintenance");
    expect((await (await check).json()).maintenance).toBe(true);
    await page.getByLabel("E-mail").fill(demoEmail("admin"));
    await page.getByLabel("Password").fill(demoPassword);
    await expect(page).toHaveURL(/\/signin\?next=/);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/admin\/maintenance$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Maintenance");
    const state = page.getByRole("status").filter({ hasText: /^(On|Off)/ });
    await expect(state).toContainText("On");

    // Meanwhile a creator signs in: the account is not an admin's, so the maintenance page.
    const creatorContext = await browser.newContext();
    const creator = await creatorContext.newPage();
    await creator.goto("/signin");
    await creator.getByLabel("E-mail").fill(demoEmail("creator"));
    await creator.getByLabel("Password").fill(demoPassword);
    await creator.getByRole("button", { name: "Sign in" }).click();
    await expect(creator).toHaveURL(/\/maintenance$/);
    await expect(creator.getByRole("heading", { level: 1 })).toHaveText("We'll be right back");
    // Asked for directly, the account's pages are not served to them either.
    const account = await creatorContext.request.get("/account", { maxRedirects: 0 });
    expect(account.status()).toBe(307);
    expect(account.headers().location).toBe("/maintenance");

    await page.getByRole("button", { name: "Switch maintenance off" }).click();
    const confirmOff = page.getByRole("dialog", { name: "Switch maintenance off?" });
    await confirmOff.getByRole("button", { name: "Switch maintenance off" }).click();
    await expect(page.getByText("Maintenance is off: the site is open again.")).toBeVisible();
    await expect(async () => {
      await creator.goto("/account");
      await expect(creator).toHaveURL(/\/account$/, { timeout: 1_000 });
    }).toPass();
    await creatorContext.close();
  });
});
