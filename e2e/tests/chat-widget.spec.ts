import { expect, test } from "../fixtures.ts";

test("the configured chat widget script loads once, without waiting for consent", async ({ page }) => {
  let loads = 0;
  await page.route("**/__chat-widget.js", (route) => {
    loads += 1;
    return route.fulfill({ contentType: "application/javascript", body: "window.__chatWidget = true;" });
  });
  await page.goto("/");
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __chatWidget?: boolean }).__chatWidget))
    .toBe(true);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blog" }).click();
  await expect(page).toHaveURL(/\/blog$/);
  expect(await page.locator("script#chat-widget").count()).toBe(1);
  expect(loads).toBe(1);
});
