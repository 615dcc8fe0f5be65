import { request } from "@playwright/test";
import { expect, mailedLink, test, uniqueEmail } from "../fixtures.ts";
import { apiUrl } from "../playwright.config.ts";

/*
 * Issue 17, item 15: after "Continue to payment" the buyer can still change the e-mail. "Change"
 * cancels the checkout (its reservation given back) and brings the form back; the next "Continue"
 * starts a new checkout, and the receipt goes to the new address only.
 */

/** Seeded by the API's demo data: 15.00 EUR. */
const DEMO = "DemoGoldenHourPack0001";

for (const start of [`/checkout/${DEMO}`, `/app/payment/${DEMO}`]) {
  test(`the buyer changes the e-mail after continuing, then pays (${start})`, async ({
    page,
    consoleErrors: _,
  }) => {
    test.setTimeout(60_000);
    const first = uniqueEmail("typo");
    const second = uniqueEmail("right");
    await page.goto(start);
    await page.getByLabel("E-mail").fill(first);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByRole("button", { name: "Pay €15.00" })).toBeVisible();
    await expect(page.getByText(`Receipt to ${first}`)).toBeVisible();
    await expect(page.getByLabel("E-mail", { exact: true })).toHaveCount(0);
    const abandoned = JSON.parse(
      (await page.evaluate(() => sessionStorage.getItem("salelink.checkout"))) ?? "{}",
    ) as { orderId: string; checkoutSecret: string };

    await page.getByRole("button", { name: "Change the e-mail address" }).click();
    const field = page.getByLabel("E-mail", { exact: true });
    await expect(field).toBeFocused();
    await expect(field).toHaveValue(first);
    await expect(page.getByRole("button", { name: "Pay €15.00" })).toHaveCount(0);

    // The abandoned checkout is cancelled, not left holding a reservation.
    const api = await request.newContext({ baseURL: apiUrl });
    try {
      const res = await api.get(`/checkout/${abandoned.orderId}?secret=${abandoned.checkoutSecret}`);
      expect(await res.json()).toMatchObject({ status: "failed", failureReason: "canceled" });
    } finally {
      await api.dispose();
    }

    await field.fill(second);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByText(`Receipt to ${second}`)).toBeVisible();
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry date (MM/YY)").fill("12/34");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Pay €15.00" }).click();
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 15_000 });
    const paidOrder = new URL(page.url()).searchParams.get("order");
    expect(paidOrder).not.toBe(abandoned.orderId);

    // The receipt, with the order's link, goes to the new address; the first one gets nothing.
    const receipt = await mailedLink(second, "/order/");
    await page.getByRole("link", { name: "Open your order" }).click();
    await expect(page).toHaveURL(/\/order\/[A-Za-z0-9_-]{43}$/);
    // The same order: the e-mailed link and the page carry the same order token.
    expect(new URL(receipt).pathname.split("/").pop()).toBe(new URL(page.url()).pathname.split("/").pop());
    const mail = await request.newContext({ baseURL: apiUrl });
    try {
      const res = await mail.get(`/dev/mail?to=${encodeURIComponent(first)}`);
      expect(((await res.json()) as { messages: unknown[] }).messages).toEqual([]);
    } finally {
      await mail.dispose();
    }
  });
}
