import type { Page } from "@playwright/test";
import { expect, test, uniqueEmail } from "../fixtures.ts";

/*
 * Issue 17, item 15: the payment error page, opened in a tab that has just paid, says what happened
 * to that payment (its heading, its link and the tab's title), not "Payment not completed".
 */

/** Seeded by the API's demo data: 15.00 EUR. */
const DEMO = "DemoGoldenHourPack0001";

async function payWith(page: Page, card: string): Promise<void> {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry date (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay €15.00" }).click();
}

async function startCheckout(page: Page): Promise<void> {
  await page.getByLabel("E-mail").fill(uniqueEmail("error-page"));
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByRole("button", { name: "Pay €15.00" })).toBeVisible();
}

test.describe("the payment error page after a payment went through", () => {
  test.setTimeout(60_000);

  test("a refused attempt, then a paid one: the error pages say the payment went through", async ({
    page,
    consoleErrors: _,
  }) => {
    await page.goto(`/app/payment/${DEMO}`);
    await startCheckout(page);
    await payWith(page, "4000 0025 0000 3155");
    await page.getByRole("button", { name: "Refuse" }).click();
    await expect(page).toHaveURL(/\/app\/payment\/error\?order=[0-9a-f-]{36}&reason=authentication-failed$/);
    await expect(page.getByRole("heading", { name: "Payment not completed" })).toBeVisible({
      timeout: 15_000,
    });
    await expect(page).toHaveTitle("Payment not completed · Salelink");
    const refusedPage = new URL(page.url()).pathname + new URL(page.url()).search;

    await page.getByRole("link", { name: "Try again" }).click();
    await startCheckout(page);
    await payWith(page, "4242 4242 4242 4242");
    await expect(page).toHaveURL(/\/app\/payment\/success\?order=/);
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 15_000 });
    const orderLink = await page.getByRole("link", { name: "Open your order" }).getAttribute("href");
    expect(orderLink).toMatch(/^\/app\/links\/order\/[A-Za-z0-9_-]{43}$/);

    // Back on the refused attempt's page (history, back button): the payment that followed is what counts.
    await page.goto(refusedPage);
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText("Thank you! You paid €15.00.")).toBeVisible();
    await expect(
      page.getByText("An earlier attempt in this tab did not go through; this payment did."),
    ).toBeVisible();
    await expect(page.getByRole("link", { name: "Open your order" })).toHaveAttribute(
      "href",
      orderLink ?? "",
    );
    await expect(page).toHaveTitle("Payment received · Salelink");

    // The error page without an order, or with a reason in its address, reads the tab's payment.
    for (const path of ["/app/payment/error", "/app/payment/error?reason=card-declined"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 15_000 });
      await expect(page.getByRole("link", { name: "Open your order" })).toHaveAttribute(
        "href",
        orderLink ?? "",
      );
      await expect(page, path).toHaveTitle("Payment received · Salelink");
    }
    // The public twin links to the public order page.
    await page.goto("/payment/error");
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole("link", { name: "Open your order" })).toHaveAttribute(
      "href",
      /^\/order\/[A-Za-z0-9_-]{43}$/,
    );
    await expect(page).toHaveTitle("Payment received · Salelink");
  });
});
