import { expect, signInAs, test } from "../fixtures.ts";

/*
 * The site's whole cookie jar after a visitor has used everything that remembers something: the
 * session (API), the language (web). Consent, theme and the affiliate token live in local storage,
 * so they must not appear as cookies. The Secure flag in production is the API test's
 * (apps/api/test/platform/cookie-flags.test.ts): this run is plain http on localhost.
 */

const DAY = 86_400;
const daysLeft = (expires: number): number => (expires - Date.now() / 1000) / DAY;

test.describe("cookies", () => {
  test("only the session and the language are cookies, each with its flags", async ({
    page,
    context,
    consoleErrors: _,
  }) => {
    await page.goto("/?ref=abcd1234");
    await page
      .getByRole("dialog", { name: "Cookie consent" })
      .getByRole("button", { name: "Decline" })
      .click();
    await page.getByTestId("theme-switcher").selectOption("dark");
    await page.getByTestId("locale-switcher").selectOption("fr");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await page.getByTestId("locale-switcher").selectOption("en");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await signInAs(page, "creator");

    const jar = await context.cookies();
    expect(jar.map((c) => c.name).sort()).toEqual(["NEXT_LOCALE", "sid"]);

    const sid = jar.find((c) => c.name === "sid");
    expect(sid?.httpOnly, "the session is out of scripts' reach").toBe(true);
    expect(sid?.sameSite).toBe("Lax");
    expect(sid?.path).toBe("/");
    // Host-only (no Domain attribute): it goes back to the API's host alone.
    expect(sid?.domain).toBe("localhost");
    const sessionDays = daysLeft(sid?.expires ?? 0);
    expect(sessionDays).toBeGreaterThan(29);
    expect(sessionDays).toBeLessThanOrEqual(30);

    const language = jar.find((c) => c.name === "NEXT_LOCALE");
    expect(language?.value).toBe("en");
    // Written by the page's script (the locale switcher), read by the server's rewrites.
    expect(language?.httpOnly).toBe(false);
    expect(language?.sameSite).toBe("Lax");
    expect(language?.path).toBe("/");
    expect(daysLeft(language?.expires ?? 0)).toBeGreaterThan(364);

    const visible = await page.evaluate(() => document.cookie);
    expect(visible).not.toContain("sid=");
    expect(visible).toContain("NEXT_LOCALE=en");
  });

  test("signing out clears the session cookie", async ({ page, context, consoleErrors: _ }) => {
    await signInAs(page, "creator");
    expect((await context.cookies()).some((c) => c.name === "sid")).toBe(true);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    await expect.poll(async () => (await context.cookies()).some((c) => c.name === "sid")).toBe(false);
  });
});
