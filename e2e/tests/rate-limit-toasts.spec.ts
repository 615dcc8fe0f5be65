import { expect, test } from "../fixtures.ts";

// The API's limits are proven in its own suite; here the pages' answers to them (spec section 8).
const tooMany = (status: number) => ({
  status,
  contentType: "application/json",
  body: JSON.stringify({
    statusCode: status,
    error: "RateLimitException",
    message: "You have sent too many requests. Please slow down and try again in 1 minute.",
  }),
});

test("sign-up: RateLimitException shows 'Please slow down' with the server's message", async ({ page }) => {
  await page.route("**/auth/signup*", (route) => route.fulfill(tooMany(429)));
  await page.goto("/signup");
  await page.getByLabel("E-mail").fill("someone@example.test");
  await page.getByLabel("Password", { exact: true }).fill("long-enough-password");
  await page.getByLabel(/I accept the terms/).check();
  await page.getByRole("button", { name: "Create account" }).click();
  const toast = page.locator("[data-sonner-toast][data-type='warning']");
  await expect(toast).toContainText("Please slow down");
  await expect(toast).toContainText("try again in 1 minute");
});

test("forgot password: a 401 shows the 'Slow down.' toast, in French", async ({ browser }) => {
  const context = await browser.newContext({ locale: "fr-FR" });
  const page = await context.newPage();
  await page.route("**/auth/password/send", (route) => route.fulfill(tooMany(401)));
  await page.goto("/forgot-password");
  await page.getByLabel("E-mail").fill("someone@example.test");
  await page.getByRole("button", { name: "Envoyer le lien" }).click();
  const toast = page.locator("[data-sonner-toast][data-type='warning']");
  await expect(toast).toContainText("Ralentissez.");
  await expect(toast).toContainText("Vous avez envoyé trop de requêtes. Veuillez ralentir.");
  await context.close();
});

test("e-mail verification failure shows the server's message, or a generic one", async ({ page }) => {
  await page.goto(`/blog?emailToken=${"x".repeat(43)}`);
  await expect(page.locator("[data-sonner-toast][data-type='error']")).toContainText(
    "This verification link is invalid or has expired.",
  );
  await expect(page).toHaveURL(/\/blog$/);
  await page.route("**/auth/verify/email/**", (route) => route.fulfill({ status: 502, body: "bad gateway" }));
  await page.goto(`/blog?emailToken=${"y".repeat(43)}`);
  await expect(page.locator("[data-sonner-toast][data-type='error']")).toContainText("An error occurred.");
});
