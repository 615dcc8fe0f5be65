import { type Page, request } from "@playwright/test";
import { apiAs, expect, signInAs, test, uniqueEmail } from "../fixtures.ts";
import { apiUrl, webUrl } from "../playwright.config.ts";
import { freshAccount } from "./identity-helpers.ts";

/*
 * The admin console's read screens: the overview's figures, the identity checks and the audit log.
 * Switching maintenance is admin-maintenance.spec.ts's (it runs alone, after the rest).
 */

/** A figure of the overview: the number under the heading of its card. */
async function figure(page: Page, title: string): Promise<number> {
  const card = page
    .getByRole("article")
    .filter({ has: page.getByRole("heading", { name: title, exact: true }) });
  const text = ((await card.textContent()) ?? "").replace(title, "").trim();
  expect(text, `${title}: ${text}`).toMatch(/^\d+/);
  return Number.parseInt(text, 10);
}

test.describe("admin console", () => {
  test("the overview shows the business's figures, what waits, and the charts with their table", async ({
    page,
    consoleErrors: _,
  }) => {
    // A new account right before the page loads: the overview must count it (it may count more:
    // other tests sign up at the same time).
    const admin = await apiAs("admin");
    const before = (await (await admin.get("/admin/overview?days=30")).json()) as {
      totals: { newAccounts: number; openReports: number };
    };
    const visitor = await request.newContext({ baseURL: apiUrl, extraHTTPHeaders: { origin: webUrl } });
    const signup = await visitor.post("/auth/signup", {
      data: {
        email: uniqueEmail("overview"),
        password: "overview-password-1",
        acceptTerms: true,
        locale: "en",
        turnstileToken: "e2e",
      },
    });
    expect(signup.status()).toBe(201);
    await visitor.dispose();

    await signInAs(page, "admin");
    await page.goto("/admin");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Overview");
    await expect(
      page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Overview" }),
    ).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { name: "Last 30 days" })).toBeVisible();
    expect(await figure(page, "New accounts")).toBeGreaterThan(before.totals.newAccounts);
    expect(await figure(page, "Open reports")).toBeGreaterThanOrEqual(0);
    await expect(page.getByRole("heading", { name: "Fees earned", exact: true })).toBeVisible();

    // What waits for an operator links to where it is handled.
    await expect(page.getByRole("link", { name: "Review payouts" })).toHaveAttribute(
      "href",
      "/admin/payouts",
    );
    await expect(page.getByRole("link", { name: "Review reports" })).toHaveAttribute(
      "href",
      "/admin/reports",
    );

    // Each chart is one image named by its summary, with the figures of all 30 days in a table.
    const accounts = page
      .getByRole("figure")
      .filter({ has: page.getByText("New accounts", { exact: true }) });
    await expect(accounts.getByRole("img")).toHaveAccessibleName(/\d+ new accounts? in the last 30 days\./);
    await accounts.getByText("Show the figures per day").click();
    const table = accounts.getByRole("table", { name: "New accounts" });
    await expect(table.getByRole("row")).toHaveCount(31);
    const sales = page.getByRole("figure").filter({ has: page.getByText("Sales", { exact: true }) });
    await expect(sales.getByRole("img")).toHaveAccessibleName(/(No sale|\d+ sales?) in the last 30 days\./);
    await admin.dispose();
  });

  test("identity checks list each session with its account, provider, status and reason", async ({
    page,
    consoleErrors: _,
  }) => {
    const creator = await freshAccount("admin-identity", "individual");
    const reason = `Document unreadable ${Date.now().toString(36)}`;
    const session = (await (await creator.api.post("/identity/sessions", { data: {} })).json()) as {
      id: string;
    };
    const decided = await creator.api.post(`/identity/sandbox/sessions/${session.id}/decision`, {
      data: { outcome: "declined", reason },
    });
    expect(decided.status()).toBe(202);
    await expect
      .poll(async () => ((await (await creator.api.get("/identity")).json()) as { status: string }).status)
      .toBe("declined");
    await creator.api.dispose();

    await signInAs(page, "admin");
    await page.goto("/admin/identity");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Identity checks");
    await page.getByRole("button", { name: "Declined", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/identity\?status=declined$/);
    const row = page.getByRole("listitem", { name: `${creator.email}: Declined` });
    await expect(row).toBeVisible();
    await expect(row).toContainText(reason);
    await expect(row).toContainText("Sandbox");
    await expect(row.getByRole("link", { name: creator.email })).toHaveAttribute(
      "href",
      /^\/admin\/accounts\/[0-9a-f-]{36}$/,
    );

    // Another status leaves it out.
    await page.getByRole("button", { name: "Approved", exact: true }).click();
    await expect(
      page.getByRole("list", { name: "Identity sessions" }).or(page.getByText("No session with this status")),
    ).toBeVisible();
    await expect(page.getByRole("listitem", { name: `${creator.email}: Declined` })).toHaveCount(0);
  });

  test("the audit log shows who did what to whom and why, filtered by action, read-only", async ({
    page,
    consoleErrors: _,
  }) => {
    // An account to act on, found as an operator finds it.
    const email = uniqueEmail("audited");
    const visitor = await request.newContext({ baseURL: apiUrl, extraHTTPHeaders: { origin: webUrl } });
    expect(
      (
        await visitor.post("/auth/signup", {
          data: {
            email,
            password: "audited-password-1",
            acceptTerms: true,
            locale: "en",
            turnstileToken: "e2e",
          },
        })
      ).status(),
    ).toBe(201);
    await visitor.dispose();
    const admin = await apiAs("admin");
    const found = (await (await admin.get(`/admin/accounts?q=${encodeURIComponent(email)}`)).json()) as {
      items: { id: string; email: string }[];
    };
    const id = found.items.find((a) => a.email === email)?.id;
    expect(id).toBeTruthy();
    const reason = `Chargeback pattern ${Date.now().toString(36)}`;
    const suspended = await admin.post(`/admin/accounts/${id}/suspend`, { data: { reason } });
    expect(suspended.status(), await suspended.text()).toBe(200);
    await admin.dispose();

    await signInAs(page, "admin");
    await page.goto("/admin/audit");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Audit log");
    await expect(page.getByText("This log is read-only")).toBeVisible();
    await page.getByLabel("Action").selectOption({ label: "Account suspended" });
    await expect(page).toHaveURL(/\/admin\/audit\?action=account\.suspend$/);
    const entry = page.getByRole("listitem").filter({ hasText: reason });
    await expect(entry).toHaveAccessibleName(/^Account suspended by /);
    await expect(entry).toContainText("Account");
    await expect(entry.getByRole("link", { name: id })).toHaveAttribute("href", `/admin/accounts/${id}`);
    // Nothing on the screen changes an entry.
    await expect(page.getByRole("main").getByRole("button", { name: /edit|delete|remove/i })).toHaveCount(0);

    // Another action's filter leaves it out.
    await page.getByLabel("Action").selectOption({ label: "Order refunded" });
    await expect(page).toHaveURL(/action=order\.refund$/);
    await expect(page.getByRole("listitem").filter({ hasText: reason })).toHaveCount(0);
  });
});
