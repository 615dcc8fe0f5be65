import { apiAs, demoEmail, demoPassword, expect, test } from "../fixtures.ts";

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
});
