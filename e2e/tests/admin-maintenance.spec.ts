import { apiAs, expect, signInAs, test } from "../fixtures.ts";

/*
 * The console's maintenance screen. Maintenance switches the whole platform: this file's name puts it
 * in the "maintenance" project, which runs alone after every other test.
 */

test.describe("admin console: maintenance", () => {
  test.describe.configure({ mode: "serial" });

  test.afterEach(async () => {
    // Off, and no message left behind for the next test.
    const admin = await apiAs("admin");
    const off = await admin.put("/admin/maintenance", { data: { maintenance: false, message: {} } });
    expect(off.status(), await off.text()).toBe(200);
    await admin.dispose();
  });

  test("the admin switches maintenance on with a message, keeps browsing, switches it off; the audit log shows both", async ({
    page,
    browser,
    consoleErrors: _,
  }) => {
    // Two browsers and a dozen pages: more than one test's usual time.
    test.slow();
    const stamp = Date.now().toString(36);
    const message = `Upgrading the database ${stamp}.`;
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();

    await signInAs(page, "admin");
    await page.goto("/admin/maintenance");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Maintenance");
    const state = page.getByRole("status").filter({ hasText: /^(On|Off)/ });
    await expect(state).toContainText("Off");

    await page.getByLabel("Message in English").fill(message);
    await page.getByRole("button", { name: "Switch maintenance on" }).click();
    const confirmOn = page.getByRole("dialog", { name: "Switch maintenance on?" });
    await expect(confirmOn).toContainText(message);
    await confirmOn.getByLabel("Reason (optional)").fill(`Database upgrade ${stamp}`);
    await confirmOn.getByRole("button", { name: "Switch maintenance on" }).click();
    await expect(confirmOn).toBeHidden();
    await expect(page.getByText("Maintenance is on: visitors see the maintenance page.")).toBeVisible();
    await expect(state).toContainText("On");
    await expect(state).toContainText(/since /);

    // A visitor is sent to the maintenance page and reads the message (each try allows for a page
    // compiled on demand when run against the development server).
    await expect(async () => {
      await visitor.goto("/blog");
      await expect(visitor).toHaveURL(/\/maintenance$/, { timeout: 10_000 });
    }).toPass();
    await expect(visitor.getByText(message)).toBeVisible();

    // The admin is not: the console (and the site) stay open to them.
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Overview");
    await page.goto("/blog");
    await expect(page).toHaveURL(/\/blog$/);

    await page.goto("/admin/maintenance");
    await expect(state).toContainText("On");
    await expect(page.getByLabel("Message in English")).toHaveValue(message);
    await page.getByRole("button", { name: "Switch maintenance off" }).click();
    const confirmOff = page.getByRole("dialog", { name: "Switch maintenance off?" });
    await confirmOff.getByLabel("Reason (optional)").fill(`Upgrade done ${stamp}`);
    await confirmOff.getByRole("button", { name: "Switch maintenance off" }).click();
    await expect(page.getByText("Maintenance is off: the site is open again.")).toBeVisible();
    await expect(state).toContainText("Off");

    await expect(async () => {
      await visitor.goto("/maintenance");
      await expect(visitor).toHaveURL(/\/$/, { timeout: 10_000 });
    }).toPass();
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Sell anything with a link");
    await visitorContext.close();

    // Both switches are in the audit log, by this admin, with their reasons.
    await page.goto("/admin/audit");
    await expect(
      page.getByRole("listitem").filter({ hasText: `Database upgrade ${stamp}` }),
    ).toHaveAccessibleName(/^Maintenance switched on by /);
    await expect(
      page.getByRole("listitem").filter({ hasText: `Upgrade done ${stamp}` }),
    ).toHaveAccessibleName(/^Maintenance switched off by /);
    await page.getByLabel("Action").selectOption({ label: "Maintenance switched off" });
    await expect(page.getByRole("listitem").filter({ hasText: `Upgrade done ${stamp}` })).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: `Database upgrade ${stamp}` })).toHaveCount(0);
  });
});
