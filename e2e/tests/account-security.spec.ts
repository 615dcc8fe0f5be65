import { request } from "@playwright/test";
import { demoEmail, demoPassword, expect, mailedLink, signInWords, test, uniqueEmail } from "../fixtures.ts";
import { apiUrl, webUrl } from "../playwright.config.ts";

/* Issue 16, items 4 and 5, as a browser meets them. */

test.describe("open redirect after sign-in", () => {
  // Each form as it would sit in a phishing link: `?next=` takes the browser elsewhere unless refused.
  const attacks: [string, string][] = [
    ["the reported backslash", "/signin?next=/\\evil.example/phish"],
    ["protocol-relative", `/signin?next=${encodeURIComponent("//evil.example/phish")}`],
    ["encoded backslash", "/signin?next=/%255Cevil.example/phish"],
    ["encoded slash", "/signin?next=/%252Fevil.example/phish"],
    ["absolute URL", `/signin?next=${encodeURIComponent("https://evil.example/phish")}`],
    ["tab between the slashes", "/signin?next=/%09/evil.example"],
    ["javascript scheme", `/signin?next=${encodeURIComponent("javascript:alert(document.domain)")}`],
  ];

  for (const [name, address] of attacks) {
    test(`signing in from a link with ${name} lands on the site`, async ({ browser }) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(address);
      await page.getByLabel(signInWords.email).fill(demoEmail("creator"));
      await page.getByLabel(signInWords.password).fill(demoPassword);
      await page.getByRole("button", { name: signInWords.signIn }).click();
      await expect(page).toHaveURL(`${webUrl}/account`, { timeout: 30_000 });
      expect(new URL(page.url()).origin).toBe(webUrl);
      expect(dialogs).toEqual([]);
      await context.close();
    });
  }

  test("a path on the site is still followed", async ({ page, consoleErrors: _ }) => {
    await page.goto(`/signin?next=${encodeURIComponent("/account/settings")}`);
    await page.getByLabel(signInWords.email).fill(demoEmail("creator"));
    await page.getByLabel(signInWords.password).fill(demoPassword);
    await page.getByRole("button", { name: signInWords.signIn }).click();
    await expect(page).toHaveURL(`${webUrl}/account/settings`, { timeout: 30_000 });
  });
});

test.describe("pre-account hijacking", () => {
  test("an address signed up twice: the link asks its follower for the password, and only that one works", async ({
    page,
    consoleErrors: _,
  }) => {
    const email = uniqueEmail("contested");
    const api = await request.newContext({ baseURL: apiUrl, extraHTTPHeaders: { origin: webUrl } });
    try {
      // Someone else signs up first with this address, then its owner does.
      for (const password of ["attackers-password", "owners-first-try"]) {
        const res = await api.post("/auth/signup", {
          data: { email, password, acceptTerms: true, locale: "en", turnstileToken: "sandbox-pass" },
        });
        expect(res.status()).toBe(201);
      }
      await page.goto(await mailedLink(email, "emailToken="));
      const dialog = page.getByRole("dialog", { name: "Choose your password" });
      await expect(dialog).toBeVisible();
      await dialog.getByLabel("New password").fill("short");
      await dialog.getByRole("button", { name: "Confirm my address" }).click();
      await expect(dialog.getByText("Use 8 to 128 characters.")).toBeVisible();
      await dialog.getByLabel("New password").fill("the-owners-choice");
      await dialog.getByRole("button", { name: "Confirm my address" }).click();
      await expect(page.locator("[data-sonner-toast][data-type='success']")).toContainText(
        "Email successfully verified.",
      );
      await expect(dialog).toHaveCount(0);

      for (const password of ["attackers-password", "owners-first-try"]) {
        expect((await api.post("/auth/signin", { data: { email, password } })).status()).toBe(400);
      }
      await page.goto("/signin");
      await page.getByLabel(signInWords.email).fill(email);
      await page.getByLabel(signInWords.password).fill("the-owners-choice");
      await page.getByRole("button", { name: signInWords.signIn }).click();
      await expect(page).toHaveURL(/\/account\/onboarding$/, { timeout: 30_000 });
    } finally {
      await api.dispose();
    }
  });
});
