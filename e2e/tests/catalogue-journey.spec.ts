import path from "node:path";
import type { Page } from "@playwright/test";
import { apiAs, demoEmail, demoPassword, expect, test } from "../fixtures.ts";

/*
 * The catalogue issue's journey, every step in the browser as people do it: a creator makes a
 * profile, uploads an image and a PDF, creates a priced link and a promo code; an anonymous buyer
 * opens the link, applies the code and sees the new price. Then a refused upload, in French.
 */

const files = path.resolve(import.meta.dirname, "../../apps/api/test/fixtures/files");
const photo = path.join(files, "photo.png");
const pdf = path.join(files, "document.pdf");

const toast = (page: Page, type: string, text: string) =>
  page.locator(`[data-sonner-toast][data-type='${type}']`).filter({ hasText: text });

async function signInAsCreator(page: Page, words: { password: string; signIn: string }) {
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(demoEmail("creator"));
  await page.getByLabel(words.password).fill(demoPassword);
  await page.getByRole("button", { name: words.signIn }).click();
  await expect(page).toHaveURL(/\/account$/);
}

test.describe("catalogue journey", () => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const handle = `j${stamp}`;
  const code = `JOURNEY${stamp}`.toUpperCase();

  test.afterAll(async () => {
    // Leave the demo creator as it was: the link, the code, then the profile.
    const api = await apiAs("creator");
    const links = (await (await api.get("/links?limit=100")).json()) as {
      items: { id: string; title: string }[];
    };
    for (const link of links.items.filter((l) => l.title.includes(stamp)))
      await api.delete(`/links/${link.id}`);
    const codes = (await (await api.get("/promo-codes")).json()) as { items: { id: string; code: string }[] };
    for (const c of codes.items.filter((c) => c.code === code)) await api.delete(`/promo-codes/${c.id}`);
    const profiles = (await (await api.get("/profiles")).json()) as {
      items: { id: string; handle: string }[];
    };
    for (const p of profiles.items.filter((p) => p.handle === handle)) await api.delete(`/profiles/${p.id}`);
    await api.dispose();
  });

  test("a creator sets up a priced link with a promo code; an anonymous buyer applies it", async ({
    page,
    browser,
    consoleErrors: _,
  }) => {
    const title = `Journey pack ${stamp}`;
    await signInAsCreator(page, { password: "Password", signIn: "Sign in" });
    const nav = page.getByRole("navigation", { name: "Account" });

    // 1. A profile.
    await nav.getByRole("link", { name: "Profiles" }).click();
    await page.getByRole("button", { name: "Create profile" }).click();
    const profileDialog = page.getByRole("dialog", { name: "Create a profile" });
    await profileDialog.getByLabel("Display name").fill("Journey Studio");
    await profileDialog.getByLabel("Handle").fill(handle);
    await profileDialog.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, "success", "Profile created")).toBeVisible();

    // 2. A link: the PDF is what is sold, the image its cover; priced at 20.00.
    await nav.getByRole("link", { name: "Links" }).click();
    await expect(page).toHaveURL(/\/account\/links$/);
    await page.getByRole("button", { name: "Create link" }).click();
    const linkDialog = page.getByRole("dialog", { name: "Create a link" });
    await linkDialog.getByLabel("Profile").selectOption({ label: `Journey Studio (@${handle})` });
    await linkDialog.getByLabel("Title").fill(title);
    await linkDialog.getByLabel("Description").fill("A guide and its cover, from the journey test.");
    await linkDialog.getByLabel("Price", { exact: true }).fill("20");
    await linkDialog.getByLabel("Currency").selectOption("EUR");
    await linkDialog.getByLabel("Sold file").setInputFiles(pdf);
    await expect(linkDialog.getByText("document.pdf", { exact: true })).toBeVisible();
    await linkDialog.getByLabel("Cover image").setInputFiles(photo);
    await expect(linkDialog.getByText("photo.png", { exact: true })).toBeVisible();
    await linkDialog.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, "success", "Link created")).toBeVisible();
    const item = page.getByRole("listitem", { name: title, exact: true });
    await expect(item).toContainText("€20.00");

    await item.getByRole("button", { name: "Show link" }).click();
    const show = page.getByRole("dialog", { name: "Show link" });
    const buyerUrl = await show.getByLabel("Buyer link").inputValue();
    expect(buyerUrl).toMatch(/\/v\/[A-Za-z0-9_-]{22,64}$/);
    await show.getByRole("button", { name: "Close" }).click();

    // 3. A promo code: 25% off.
    await nav.getByRole("link", { name: "Promo codes" }).click();
    await expect(page).toHaveURL(/\/account\/promo-codes$/);
    await page.getByRole("button", { name: "Create promo code" }).click();
    const codeDialog = page.getByRole("dialog", { name: "Create a promo code" });
    await codeDialog.getByLabel("Code").fill(code);
    await codeDialog.getByLabel("Percentage off").fill("25");
    await codeDialog.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("listitem", { name: code })).toContainText("25%");

    // 4. An anonymous buyer, in a browser of their own.
    const buyer = await browser.newContext({ locale: "en-US" });
    const buyerPage = await buyer.newPage();
    const res = await buyerPage.goto(buyerUrl);
    expect(res?.status()).toBe(200);
    await expect(buyerPage.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(buyerPage.getByText("Journey Studio")).toBeVisible();
    await expect(buyerPage.getByTestId("price")).toHaveText("€20.00");
    const cover = buyerPage.getByRole("img", { name: new RegExp(`^${title}`) });
    await expect(cover).toBeVisible();
    expect(await cover.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await buyerPage.getByLabel("Promo code").fill(code.toLowerCase());
    await buyerPage.getByRole("button", { name: "Apply" }).click();
    await expect(buyerPage.getByTestId("price")).toHaveText("€15.00");
    await expect(buyerPage.getByTestId("price-old")).toHaveText("€20.00");
    await expect(buyerPage.getByRole("link", { name: "Buy now" })).toHaveAttribute(
      "href",
      new RegExp(`/checkout/[A-Za-z0-9_-]+\\?promo=${code}$`),
    );
    await buyer.close();
  });

  test("in French: a file of the wrong type is refused with the French text", async ({ browser }) => {
    const context = await browser.newContext({ locale: "fr-FR" });
    const page = await context.newPage();
    await signInAsCreator(page, { password: "Mot de passe", signIn: "Se connecter" });
    await page.goto("/account/links");
    await page.getByRole("button", { name: "Créer un lien" }).click();
    const dialog = page.getByRole("dialog", { name: "Créer un lien" });
    await dialog.getByLabel("Image de couverture").setInputFiles(pdf);
    await expect(dialog.getByText(/^Le type de fichier n'est pas valide/)).toBeVisible();
    await context.close();
  });
});
