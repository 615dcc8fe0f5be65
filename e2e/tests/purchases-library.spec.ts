import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, mailedLink, test, uniqueEmail, watchConsole } from "../fixtures.ts";
import { webUrl } from "../playwright.config.ts";
import { freshAccount, signIn } from "./identity-helpers.ts";
import { buyLink } from "./sale-helpers.ts";

/*
 * Issue 21, the buyer's side: a buyer who paid for a link asks /purchases for their purchases, opens
 * the e-mailed link, finds the order with its file, opens the order page, has the receipt sent
 * again; the same link opened again no longer works. In English and in French, with the web app's
 * own words.
 */

type Locale = "en" | "fr";
type Messages = Record<string, unknown>;

const here = path.dirname(fileURLToPath(import.meta.url));
const messagesDir = path.resolve(here, "../../apps/web/messages");
const catalogues: Record<Locale, Messages> = {
  en: JSON.parse(readFileSync(path.join(messagesDir, "en.json"), "utf8")) as Messages,
  fr: JSON.parse(readFileSync(path.join(messagesDir, "fr.json"), "utf8")) as Messages,
};
const photo = readFileSync(path.resolve(here, "../../apps/api/test/fixtures/files/photo.png"));
const browserLocale: Record<Locale, string> = { en: "en-GB", fr: "fr-FR" };

/** A message of the web app by its id, with its simple `{name}` placeholders filled in. */
function words(locale: Locale) {
  return (id: string, values: Record<string, string> = {}): string => {
    let node: unknown = catalogues[locale];
    for (const part of id.split(".")) node = (node as Messages)[part];
    if (typeof node !== "string") throw new Error(`no message ${id} in ${locale}`);
    return node.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
  };
}

const euros = (locale: Locale, minor: number) =>
  new Intl.NumberFormat(locale, { style: "currency", currency: "EUR" }).format(minor / 100);

const toast = (page: Page, type: "success" | "error") =>
  page.locator(`[data-sonner-toast][data-type='${type}']`);

/** A €20.00 link with one file, on a new profile of `seller`. */
async function linkWithFile(seller: APIRequestContext, stamp: string, title: string): Promise<string> {
  const profile = await seller.post("/profiles", {
    data: { displayName: "Library E2E", handle: `lib${stamp}` },
  });
  expect(profile.status(), await profile.text()).toBe(201);
  const { id: profileId } = (await profile.json()) as { id: string };
  const upload = await seller.post("/upload?use=content", {
    multipart: { file: { name: "photo.png", mimeType: "image/png", buffer: photo } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const { id: fileId } = (await upload.json()) as { id: string };
  const link = await seller.post("/links", {
    data: { profileId, title, priceMinor: 2000, currency: "EUR", fileId },
  });
  expect(link.status(), await link.text()).toBe(201);
  return ((await link.json()) as { token: string }).token;
}

/** `buyerEmail` pays for the link with the sandbox's test card; the order page's token once paid. */
const buy = async (linkToken: string, buyerEmail: string, locale: Locale) =>
  (await buyLink(linkToken, buyerEmail, locale)).orderToken;

for (const locale of ["en", "fr"] as const) {
  test(`a buyer finds their purchases from an e-mailed link (${locale})`, async ({
    browser,
    consoleErrors: _,
  }) => {
    // A sign-up, a sale through the sandbox and a first compile of each page in development.
    test.setTimeout(180_000);
    const t = words(locale);
    const stamp = `${locale}${Date.now().toString(36).slice(-6)}`;
    const title = `Library pack ${stamp}`;
    const creator = await freshAccount(`library-creator-${locale}`, "individual", locale);
    const buyerEmail = uniqueEmail(`library-buyer-${locale}`);
    const orderToken = await buy(await linkWithFile(creator.api, stamp, title), buyerEmail, locale);

    const context = await browser.newContext({ locale: browserLocale[locale] });
    const page = await context.newPage();
    const errors = watchConsole(page);

    // 1. The buyer asks for their purchases: the same answer shown in place, whatever the address.
    await page.goto("/purchases");
    await expect(page.getByRole("heading", { level: 1, name: t("purchases.title") })).toBeVisible();
    await page.getByLabel(t("purchases.email")).fill(buyerEmail);
    await page.getByRole("button", { name: t("purchases.send") }).click();
    await expect(page.getByRole("status")).toBeVisible();
    await expect(page.getByLabel(t("purchases.email"))).toHaveCount(0);

    // 2. The e-mailed link opens the library in this tab.
    const link = await mailedLink(buyerEmail, "/purchases/open/");
    expect(new URL(link).origin).toBe(new URL(webUrl).origin);
    await page.goto(link);
    await expect(page).toHaveURL(/\/purchases\/library$/, { timeout: 20_000 });
    await expect(page.getByRole("heading", { level: 1, name: t("purchases.libraryTitle") })).toBeVisible();
    const order = page.getByRole("listitem", { name: title });
    await expect(order).toContainText(euros(locale, 2000));
    await expect(order).toContainText(t("purchases.status.paid"));
    await expect(order).toContainText("Library E2E");
    await expect(
      order.getByRole("link", { name: t("purchases.downloadLabel", { name: "photo.png" }) }),
    ).toHaveAttribute("href", /.+/);
    // The access is the tab's only: sessionStorage, never localStorage.
    expect(await page.evaluate(() => Object.keys(localStorage).some((k) => k.includes("library")))).toBe(
      false,
    );
    expect(await page.evaluate(() => Object.keys(sessionStorage).some((k) => k.includes("library")))).toBe(
      true,
    );

    // 3. The receipt is sent again, to the address that paid.
    await order.getByRole("button", { name: t("purchases.resend") }).click();
    await expect(toast(page, "success").filter({ hasText: buyerEmail })).toBeVisible();

    // 4. The order page opens from the library.
    const orderLink = order.getByRole("link", { name: t("purchases.openOrder") });
    await expect(orderLink).toHaveAttribute("href", new RegExp(`/order/${orderToken}$`));
    await orderLink.click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole("link", { name: t("order.findAll") })).toHaveAttribute(
      "href",
      /\/purchases$/,
    );

    // 5. The link worked once: opened again, it says so and leads to a new one.
    await page.goto(link);
    await expect(page.getByText(t("purchases.deadTitle"))).toBeVisible({ timeout: 20_000 });
    await page.getByRole("link", { name: t("purchases.getNewLink") }).click();
    await expect(page).toHaveURL(/\/purchases$/);
    await expect(page.getByLabel(t("purchases.email"))).toBeVisible();

    expect(errors, "the buyer's browser console").toEqual([]);
    await context.close();
  });
}

test("a signed-in buyer finds their purchases under the account", async ({ page, consoleErrors: _ }) => {
  test.setTimeout(180_000);
  const t = words("en");
  const stamp = `acc${Date.now().toString(36).slice(-6)}`;
  const title = `Account pack ${stamp}`;
  const creator = await freshAccount("library-creator-account", "individual");
  const buyer = await freshAccount("library-buyer-account", "individual");
  await buy(await linkWithFile(creator.api, stamp, title), buyer.email, "en");

  await signIn(page, buyer.email);
  await page
    .getByRole("navigation", { name: t("account.nav.label") })
    .getByRole("link", { name: t("account.nav.purchases") })
    .click();
  await expect(page).toHaveURL(/\/account\/purchases$/);
  await expect(page.getByRole("heading", { level: 1, name: t("purchases.accountTitle") })).toBeVisible();
  const order = page.getByRole("listitem", { name: title });
  await expect(order).toContainText(euros("en", 2000));
  await expect(
    order.getByRole("link", { name: t("purchases.downloadLabel", { name: "photo.png" }) }),
  ).toBeVisible();
  await order.getByRole("button", { name: t("purchases.resend") }).click();
  await expect(toast(page, "success").filter({ hasText: buyer.email })).toBeVisible();

  // The buyer's page points a signed-in visitor to the account's own list.
  await page.goto("/purchases");
  await expect(page.getByRole("link", { name: t("purchases.accountLink") })).toHaveAttribute(
    "href",
    /\/account\/purchases$/,
  );
});
