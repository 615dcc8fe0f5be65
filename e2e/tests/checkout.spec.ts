import type { Page } from "@playwright/test";
import { expect, mailedLink, test, uniqueEmail } from "../fixtures.ts";

/** Seeded by the API's demo data: 15.00 EUR, with the 20 % code DEMO20. */
const DEMO = "DemoGoldenHourPack0001";
const cards = {
  success: "4242 4242 4242 4242",
  declined: "4000 0000 0000 0002",
  authenticate: "4000 0025 0000 3155",
};

// Reports are limited per reporter (address and browser): each run reports as a new browser.
test.use({
  userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36 Checkout${Date.now()}`,
});

/** From the payment page: the e-mail, then the sandbox's card form. Answers the buyer's address. */
async function startCheckout(page: Page, total: string): Promise<string> {
  const email = uniqueEmail("buyer");
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByText("Sandbox — test mode, no money moves")).toBeVisible();
  await expect(page.getByRole("button", { name: `Pay ${total}` })).toBeVisible();
  return email;
}

async function payWith(page: Page, card: string, total: string): Promise<void> {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry date (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: `Pay ${total}` }).click();
}

test.describe("checkout", () => {
  test.setTimeout(60_000);

  test("a buyer pays with a promo code, opens the order, downloads the file and reports it", async ({
    page,
    consoleErrors: _,
  }) => {
    await page.goto(`/v/${DEMO}`);
    await page.getByLabel("Promo code").fill("demo20");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByTestId("price")).toHaveText("€12.00");
    await page.getByRole("link", { name: "Buy now" }).click();

    await expect(page).toHaveURL(`/checkout/${DEMO}?promo=DEMO20`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Checkout");
    await expect(page.getByText("Golden hour photo pack")).toBeVisible();
    // The code from the purchase view is checked again and the total follows it.
    await expect(page.getByText("Code DEMO20 applied.")).toBeVisible();
    await expect(page.getByTestId("checkout-total")).toHaveText("€12.00");

    // The e-mail is checked before anything is sent.
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByText("Enter a valid e-mail address.")).toBeVisible();

    const buyerEmail = await startCheckout(page, "€12.00");
    const stored = await page.evaluate(() => sessionStorage.getItem("salelink.checkout"));
    expect(JSON.parse(stored ?? "{}")).toMatchObject({
      orderId: expect.any(String),
      checkoutSecret: expect.any(String),
    });

    await payWith(page, cards.success, "€12.00");
    await expect(page).toHaveURL(/\/payment\/success\?order=[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText("Thank you! You paid €12.00.")).toBeVisible();

    await page.getByRole("link", { name: "Open your order" }).click();
    await expect(page).toHaveURL(/\/order\/[A-Za-z0-9_-]{43}$/);
    // The receipt e-mailed to the buyer carries the same order link.
    const receipt = await mailedLink(buyerEmail, "/order/");
    expect(new URL(receipt).pathname).toBe(new URL(page.url()).pathname);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Golden hour photo pack");
    await expect(page.getByTestId("order-amount")).toHaveText("€12.00");
    await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);

    const image = page.getByRole("img", { name: "golden-hour.png" });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    const downloadLink = page.getByRole("link", { name: "Download golden-hour.png" });
    const [download] = await Promise.all([page.waitForEvent("download"), downloadLink.click()]);
    expect(download.suggestedFilename()).toBe("golden-hour.png");
    expect(await download.failure()).toBeNull();

    // The report modal: checked with the contract, then sent.
    await page.getByRole("button", { name: "Report" }).click();
    const dialog = page.getByRole("dialog", { name: "Report this order" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Send report" }).click();
    await expect(dialog.getByText("Choose a reason.")).toBeVisible();
    await expect(dialog.getByText("Write between 10 and 2,000 characters.")).toBeVisible();
    await dialog.getByLabel("Reason").selectOption({ label: "Not as described" });
    await dialog.getByLabel("What happened?").fill("The photos are much smaller than announced.");
    await dialog.getByRole("button", { name: "Send report" }).click();
    await expect(page.getByText("Thank you. Our team will look at your report.")).toBeVisible();
    await expect(dialog).toBeHidden();

    // A reporter who already reported gets the API's explanation in the dialog. The refusal is
    // simulated: the real limit (three open reports) would take the test's address quota.
    await page.route("**/report", (route) =>
      route.fulfill({
        status: 429,
        contentType: "application/json",
        body: JSON.stringify({
          statusCode: 429,
          error: "RateLimitException",
          message: "You have already reported this. Our team will look at it.",
        }),
      }),
    );
    await page.getByRole("button", { name: "Report" }).click();
    await dialog.getByLabel("Reason").selectOption({ label: "Something else" });
    await dialog.getByLabel("What happened?").fill("Reporting the same order a second time.");
    await dialog.getByRole("button", { name: "Send report" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(
      "You have already reported this. Our team will look at it.",
    );
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
  });

  test("a declined card shows the decline, and another card then pays", async ({
    page,
    consoleErrors: _,
  }) => {
    await page.goto(`/checkout/${DEMO}`);
    await expect(page.getByTestId("checkout-total")).toHaveText("€15.00");
    await startCheckout(page, "€15.00");
    await payWith(page, cards.declined, "€15.00");
    const alert = page.getByRole("alert").filter({ hasText: "Payment declined" });
    await expect(alert).toContainText("Your card was declined.");
    await expect(page).toHaveURL(`/checkout/${DEMO}`);

    await payWith(page, cards.success, "€15.00");
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 15_000 });
  });

  test("the confirmation card: refusing lands on the error page, Try again, approving pays", async ({
    page,
    consoleErrors: _,
  }) => {
    await page.goto(`/app/payment/${DEMO}`);
    await startCheckout(page, "€15.00");
    await payWith(page, cards.authenticate, "€15.00");
    await expect(page.getByRole("heading", { name: "Confirm this payment" })).toBeVisible();
    await page.getByRole("button", { name: "Refuse" }).click();

    // The /app address keeps its own result pages.
    await expect(page).toHaveURL(/\/app\/payment\/error\?order=[0-9a-f-]{36}&reason=authentication-failed$/);
    await expect(page.getByRole("heading", { name: "Payment not completed" })).toBeVisible({
      timeout: 15_000,
    });
    await expect(
      page.getByText("The payment's confirmation was refused, so nothing was charged."),
    ).toBeVisible();
    await page.getByRole("link", { name: "Try again" }).click();

    await expect(page).toHaveURL(`/app/payment/${DEMO}`);
    await startCheckout(page, "€15.00");
    await payWith(page, cards.authenticate, "€15.00");
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page).toHaveURL(/\/app\/payment\/success\?order=/);
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole("link", { name: "Open your order" })).toHaveAttribute(
      "href",
      /^\/app\/links\/order\/[A-Za-z0-9_-]{43}$/,
    );
  });

  test("result pages without a payment of this tab explain it", async ({ page, consoleErrors: _ }) => {
    for (const path of ["/payment/success", "/payment/error?order=00000000-0000-4000-8000-000000000000"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { name: "No payment to show" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Back to the home page" })).toHaveAttribute("href", "/");
    }
    await page.goto("/payment/error?reason=card-declined");
    await expect(page.getByRole("heading", { name: "Payment not completed" })).toBeVisible();
    await expect(page.getByText("Your card was declined. Nothing was charged.")).toBeVisible();
  });

  test("unknown links and orders are 404", async ({ page }) => {
    for (const path of [
      "/checkout/AAAAAAAAAAAAAAAAAAAAAA",
      "/order/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      "/order/too-short",
    ]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(404);
    }
  });
});
