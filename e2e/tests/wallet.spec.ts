import type { APIRequestContext } from "@playwright/test";
import { apiAs, expect, signInAs, test, watchConsole } from "../fixtures.ts";
import { apiUrl } from "../playwright.config.ts";
import { type Sale, sellOnce } from "./sale-helpers.ts";

interface SeededSale extends Sale {
  api: APIRequestContext;
}

/** A link of the demo creator at €20.00, bought by an anonymous buyer with the sandbox's test card. */
async function seedSale(stamp: string): Promise<SeededSale> {
  const api = await apiAs("creator");
  const sale = await sellOnce(api, {
    displayName: "Wallet E2E",
    handle: `wl${stamp}`,
    title: `Wallet sale ${stamp}`,
    buyer: "wallet-buyer",
  });
  return { api, ...sale };
}

async function cleanUp({ api, profileId, linkId }: SeededSale) {
  // Deleting a link only hides it: the sale and its ledger entries stay, as they must.
  await api.delete(`/links/${linkId}`);
  await api.delete(`/profiles/${profileId}`);
  await api.dispose();
}

test.describe("wallet and dashboard home", () => {
  test.setTimeout(120_000);

  test("a sale shows on the dashboard home, held in the wallet, in the movements, filtered and exported", async ({
    page,
    consoleErrors: _,
  }) => {
    const stamp = Date.now().toString(36);
    const sale = await seedSale(stamp);
    try {
      const wallet = (await (await sale.api.get("/wallet")).json()) as {
        held: { orderId: string; availableAt: string }[];
        holdDays: number;
      };
      const held = wallet.held.find((h) => h.orderId === sale.orderId);
      if (!held) throw new Error("the sale is not held");
      const releaseDate = new Intl.DateTimeFormat("en-US", { dateStyle: "long" }).format(
        new Date(held.availableAt),
      );

      // The dashboard home: the count, and the latest order with its title, amount and status.
      await signInAs(page, "creator");
      const count = page.getByRole("region", { name: "Sales", exact: true }).locator(".stat-value");
      await expect(count).toHaveText(/^\d+$/);
      expect(Number(await count.textContent())).toBeGreaterThanOrEqual(1);
      const orders = page.getByRole("table", { name: "Latest orders" });
      const orderRow = orders.getByRole("row").filter({ hasText: sale.title });
      await expect(orderRow).toContainText("€20.00");
      await expect(orderRow).toContainText("Paid");
      await expect(orderRow).toContainText("•••@example.test");
      await expect(page.getByRole("img", { name: /in the last 30 days\./ })).toBeVisible();

      // The wallet: the sale held, with its net amount, its release date and why.
      await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Wallet" }).click();
      await expect(page).toHaveURL(/\/account\/wallet$/, { timeout: 30_000 });
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Wallet");
      const eur = page.getByRole("listitem", { name: "Balances in EUR" });
      await expect(eur).toContainText(
        `Held for ${wallet.holdDays} days after each sale in case of a refund.`,
      );
      const heldItem = page.getByRole("listitem", { name: sale.title });
      await expect(heldItem).toContainText("€18.00");
      await expect(heldItem).toContainText(`Available on ${releaseDate}`);
      await expect(heldItem).toContainText(`Refund window of ${wallet.holdDays} days`);

      // The movements: the sale entered the pending account.
      const table = page.getByRole("table", { name: "Money movements" });
      const row = table.getByRole("row").filter({ hasText: sale.title });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText("Sale");
      await expect(row).toContainText("Pending");
      await expect(row).toContainText("+€18.00");

      // The kind filter goes through the page's query: releases only, then sales only.
      const kind = page.getByLabel("Type");
      await kind.selectOption({ label: "Released after the refund window" });
      await expect(page).toHaveURL(/\?kind=hold_release$/);
      await expect(table.getByRole("row").filter({ hasText: sale.title })).toHaveCount(0);
      await kind.selectOption({ label: "Sale" });
      await page.getByLabel("Currency").selectOption("EUR");
      await expect(page).toHaveURL(/\?kind=order_paid&currency=EUR$/);
      await expect(row).toHaveCount(1);
      await page.reload();
      await expect(page.getByLabel("Type")).toHaveValue("order_paid");
      await expect(row).toContainText("+€18.00");

      // The export carries the same filters, and answers a CSV with the sale in it.
      const exportLink = page.getByRole("link", { name: "Export CSV" });
      const href = (await exportLink.getAttribute("href")) ?? "";
      expect(href).toBe(`${apiUrl}/transactions.csv?kind=order_paid&currency=EUR`);
      const csv = await page.request.get(href);
      expect(csv.status()).toBe(200);
      expect(csv.headers()["content-type"]).toContain("text/csv");
      const lines = (await csv.text()).split("\r\n");
      expect(lines[0]).toBe("date,kind,account,amount,currency,available_at,order,title");
      const line = lines.find((l) => l.includes(sale.orderId));
      expect(line).toContain(",order_paid,pending,18.00,EUR,");
      expect(lines.filter(Boolean).every((l, i) => i === 0 || l.includes(",order_paid,"))).toBe(true);

      // Clearing the filters empties the query.
      await page.getByRole("button", { name: "Clear filters" }).click();
      await expect(page).toHaveURL(/\/account\/wallet$/);
      await expect(exportLink).toHaveAttribute("href", `${apiUrl}/transactions.csv`);

      // The hold ends (the clock moved past it): the sale leaves the held list and becomes available.
      const asOf = new Date(Date.now() + (wallet.holdDays + 1) * 86_400_000).toISOString();
      const moved = await page.request.post(`${apiUrl}/dev/holds/release`, {
        data: { asOf, orderIds: [sale.orderId] },
      });
      expect(moved.status()).toBe(200);
      await page.reload();
      await expect(page.getByRole("listitem", { name: sale.title })).toHaveCount(0);
      const releasedRow = page
        .getByRole("row")
        .filter({ hasText: sale.title })
        .filter({ hasText: "Available" });
      await expect(releasedRow.first()).toContainText("+€18.00");
    } finally {
      await cleanUp(sale);
    }
  });

  test("in French: the wallet's labels", async ({ browser }) => {
    const context = await browser.newContext({ locale: "fr-FR" });
    const page = await context.newPage();
    const consoleErrors = watchConsole(page);
    await signInAs(page, "creator", { email: "E-mail", password: "Mot de passe", signIn: "Se connecter" });
    await page.goto("/account/wallet");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Portefeuille");
    await expect(page.getByRole("heading", { level: 2, name: "Mouvements d’argent" })).toBeVisible();
    await expect(page.getByLabel("Devise")).toBeVisible();
    await expect(page.getByRole("link", { name: "Exporter en CSV" })).toBeVisible();
    expect(consoleErrors, "browser console errors").toEqual([]);
    await context.close();
  });
});
