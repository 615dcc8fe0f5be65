import { type Page, request } from "@playwright/test";
import { demoEmail, expect, signInAs, test } from "../fixtures.ts";
import { apiUrl, webUrl } from "../playwright.config.ts";
import { freshAccount } from "./identity-helpers.ts";
import { sellWithTokens } from "./sale-helpers.ts";

/** A fresh onboarded creator with a profile to sell from. */
async function creatorWithProfile(stamp: string) {
  const creator = await freshAccount("ops-creator", "individual");
  const profile = await creator.api.post("/profiles", {
    data: { displayName: "Ops E2E", handle: `ops${stamp}` },
  });
  expect(profile.status()).toBe(201);
  const { id: profileId } = (await profile.json()) as { id: string };
  return { ...creator, profileId };
}

const successToast = (page: Page, text: string) =>
  page.locator("[data-sonner-toast][data-type='success']").filter({ hasText: text });

test.describe("admin console: reports, orders and accounts", () => {
  // Sign-ups, sales through the sandbox and a first compile of each admin page in development.
  test.setTimeout(180_000);

  test("a reported link is taken down: the order still opens, the link page gives 404", async ({
    page,
    browser,
    consoleErrors: _,
  }) => {
    const stamp = Date.now().toString(36);
    const creator = await creatorWithProfile(stamp);
    const sale = await sellWithTokens(creator.api, creator.profileId, `Reported pack ${stamp}`);
    const reporter = await request.newContext({ baseURL: apiUrl, extraHTTPHeaders: { origin: webUrl } });
    const report = await reporter.post("/report", {
      data: {
        token: sale.orderToken,
        reason: "not-as-described",
        message: `The files are not the ones promised (${stamp}).`,
      },
    });
    expect(report.status()).toBe(201);
    await reporter.dispose();

    await signInAs(page, "admin");
    await page.goto("/admin/reports");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reports");
    await expect(page.getByRole("button", { name: "Open", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    const row = page.getByRole("listitem", { name: `Report on ${sale.title}` });
    await expect(row).toContainText("Not as described");
    await expect(row).toContainText(`The files are not the ones promised (${stamp}).`);
    await expect(row).toContainText(creator.email);
    await expect(row).toContainText(/From order [0-9a-f]{8}: €20\.00, Paid/);
    await expect(row.getByRole("link", { name: sale.title })).toHaveAttribute("href", `/v/${sale.linkToken}`);

    await row.getByRole("button", { name: "Take the link down" }).click();
    const dialog = page.getByRole("dialog", { name: "Take the link down" });
    await expect(dialog).toContainText("Buyers who paid keep their access.");
    // The note is required: refused before any call.
    await dialog.getByRole("button", { name: "Take the link down" }).click();
    await expect(dialog.getByText("Give a reason of 3 to 500 characters.")).toBeVisible();
    await dialog.getByLabel("Note").fill("Misleading description: the pack is not what the page shows.");
    await dialog.getByRole("button", { name: "Take the link down" }).click();
    await expect(successToast(page, "Link taken down")).toBeVisible();
    await expect(dialog).toHaveCount(0);
    // Handled, it leaves the open queue; it is listed with the links taken down, with the note.
    await expect(row).toHaveCount(0);
    await page.getByRole("button", { name: "Taken down", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/reports\?status=actioned$/);
    await expect(row).toContainText("Link taken down");
    await expect(row).toContainText("Misleading description: the pack is not what the page shows.");
    await expect(row.getByRole("button")).toHaveCount(0);

    // A visitor: the buyer's order still opens; the link page is gone.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    const order = await visitor.goto(`/order/${sale.orderToken}`);
    expect(order?.status()).toBe(200);
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(sale.title);
    await expect
      .poll(async () => (await visitor.goto(`/v/${sale.linkToken}`))?.status(), { timeout: 15_000 })
      .toBe(404);
    await expect(visitor.getByTestId("error-status")).toHaveText("404");
    await visitorContext.close();
    await creator.api.dispose();
  });

  test("an admin refunds an order in full from the order search", async ({ page, consoleErrors: _ }) => {
    const stamp = Date.now().toString(36);
    const creator = await creatorWithProfile(stamp);
    const sale = await sellWithTokens(creator.api, creator.profileId, `Refunded pack ${stamp}`);

    await signInAs(page, "admin");
    await page.goto("/admin/orders");
    await page.getByLabel("Order id, buyer e-mail or link title").fill(sale.title);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/admin\/orders\?q=Refunded\+pack/);
    const row = page.getByRole("listitem", { name: `Order of ${sale.title} by ${sale.buyerEmail}` });
    await expect(row).toContainText("€20.00");
    await expect(row).toContainText("Paid");
    await expect(page.getByRole("list", { name: "Orders" }).getByRole("listitem")).toHaveCount(1);

    await row.getByRole("button", { name: "Refund" }).click();
    const dialog = page.getByRole("dialog", { name: "Refund the order in full" });
    await expect(dialog).toContainText(`€20.00 goes back to ${sale.buyerEmail}`);
    await expect(dialog).toContainText("in full");
    await dialog.getByRole("button", { name: "Refund in full" }).click();
    await expect(dialog.getByText("Give a reason of 3 to 500 characters.")).toBeVisible();
    await dialog.getByLabel("Reason").fill("The buyer was charged twice by mistake.");
    await dialog.getByRole("button", { name: "Refund in full" }).click();
    await expect(successToast(page, "Refund asked")).toBeVisible();
    await expect(dialog).toHaveCount(0);
    // The provider confirms it through its event: the row then shows refunded, without a refund button.
    await expect(row.locator(".admin-status")).toHaveText("Refunded", { timeout: 20_000 });
    await expect(row).toContainText("Refunded");
    await expect(row.getByRole("button", { name: "Refund" })).toHaveCount(0);
    await page.getByRole("button", { name: "Refunded", exact: true }).click();
    await expect(row).toBeVisible();
    await creator.api.dispose();
  });

  test("an admin suspends and reinstates an account with reasons, shown in its audit entries", async ({
    page,
    consoleErrors: _,
  }) => {
    const stamp = Date.now().toString(36);
    const creator = await creatorWithProfile(stamp);

    await signInAs(page, "admin");
    await page.goto("/admin/accounts");
    await page.getByLabel("E-mail or name").fill(creator.email);
    await page.getByRole("button", { name: "Search" }).click();
    const result = page.getByRole("listitem", { name: creator.email });
    await expect(result.getByRole("list", { name: "Status" })).toContainText("Onboarding complete");
    await result.getByRole("link", { name: creator.email }).click();
    await expect(page).toHaveURL(/\/admin\/accounts\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(creator.email);
    const badges = page.getByRole("list", { name: "Status" });
    await expect(badges).not.toContainText("Suspended");

    await page.getByRole("button", { name: "Suspend" }).click();
    const suspend = page.getByRole("dialog", { name: "Suspend the account" });
    await suspend.getByRole("button", { name: "Suspend" }).click();
    await expect(suspend.getByText("Give a reason of 3 to 500 characters.")).toBeVisible();
    await suspend.getByLabel("Reason").fill(`Chargebacks under review ${stamp}`);
    await suspend.getByRole("button", { name: "Suspend" }).click();
    await expect(successToast(page, "Account suspended")).toBeVisible();
    await expect(badges).toContainText("Suspended");
    await expect(page.getByText(/^Suspended since/)).toBeVisible();

    await page.getByRole("button", { name: "Reinstate" }).click();
    const reinstate = page.getByRole("dialog", { name: "Reinstate the account" });
    await reinstate.getByLabel("Reason").fill(`Review closed ${stamp}`);
    await reinstate.getByRole("button", { name: "Reinstate" }).click();
    await expect(successToast(page, "Account reinstated")).toBeVisible();
    await expect(badges).not.toContainText("Suspended");

    const audit = page.getByRole("list", { name: "Audit log" });
    await expect(audit.getByRole("listitem")).toHaveCount(2);
    await expect(audit.getByRole("listitem").filter({ hasText: "Account suspended" })).toContainText(
      `Chargebacks under review ${stamp}`,
    );
    await expect(audit.getByRole("listitem").filter({ hasText: "Account reinstated" })).toContainText(
      `Review closed ${stamp}`,
    );
    await expect(audit).toContainText(`by ${demoEmail("admin")}`);
    await creator.api.dispose();
  });

  test("an admin cannot suspend or demote themself: the refusal is shown", async ({
    page,
    consoleErrors: _,
  }) => {
    await signInAs(page, "admin");
    await page.goto(`/admin/accounts?q=${encodeURIComponent(demoEmail("admin"))}`);
    await page
      .getByRole("listitem", { name: demoEmail("admin") })
      .getByRole("link", { name: demoEmail("admin") })
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(demoEmail("admin"));

    await page.getByRole("button", { name: "Suspend" }).click();
    const suspend = page.getByRole("dialog", { name: "Suspend the account" });
    await suspend.getByLabel("Reason").fill("Trying to suspend myself");
    await suspend.getByRole("button", { name: "Suspend" }).click();
    await expect(suspend.getByRole("alert")).toHaveText("You cannot suspend your own account.");
    await suspend.getByRole("button", { name: "Cancel" }).click();

    await page.getByRole("button", { name: "Change role" }).click();
    const role = page.getByRole("dialog", { name: "Change the role" });
    await expect(role).toContainText("will no longer be an admin");
    await role.getByLabel("Reason").fill("Trying to demote myself");
    await role.getByRole("button", { name: "Change role" }).click();
    await expect(role.getByRole("alert")).toHaveText("You cannot remove your own admin role.");
    await role.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("list", { name: "Status" })).toContainText("Admin");
  });
});
