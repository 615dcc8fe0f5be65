import type { APIRequestContext, Page } from "@playwright/test";
import { apiAs, demoEmail, demoPassword, expect, test, watchConsole } from "../fixtures.ts";

async function signInAsCreator(page: Page, words: { email: string; password: string; signIn: string }) {
  await page.goto("/signin");
  await page.getByLabel(words.email).fill(demoEmail("creator"));
  await page.getByLabel(words.password).fill(demoPassword);
  await page.getByRole("button", { name: words.signIn }).click();
  // A first visit may compile the dashboard in development: allow it time.
  await expect(page).toHaveURL(/\/account$/, { timeout: 30_000 });
}

interface Seeded {
  api: APIRequestContext;
  profileId: string;
  links: { id: string; title: string }[];
}

/** A profile of the demo creator with two links of its own, titled uniquely for this run. */
async function seed(stamp: string): Promise<Seeded> {
  const api = await apiAs("creator");
  const profile = await api.post("/profiles", { data: { displayName: "Promo E2E", handle: `pc${stamp}` } });
  expect(profile.status()).toBe(201);
  const { id: profileId } = (await profile.json()) as { id: string };
  const links: Seeded["links"] = [];
  for (const name of ["Alpha", "Beta"]) {
    const title = `Promo ${name} ${stamp}`;
    const res = await api.post("/links", { data: { profileId, title, priceMinor: 1500, currency: "EUR" } });
    expect(res.status()).toBe(201);
    links.push({ id: ((await res.json()) as { id: string }).id, title });
  }
  return { api, profileId, links };
}

async function cleanUp({ api, profileId, links }: Seeded, stamp: string) {
  const res = await api.get("/promo-codes");
  const { items } = (await res.json()) as { items: { id: string; code: string }[] };
  for (const code of items.filter((c) => c.code.includes(stamp.toUpperCase()))) {
    await api.delete(`/promo-codes/${code.id}`);
  }
  for (const link of links) await api.delete(`/links/${link.id}`);
  await api.delete(`/profiles/${profileId}`);
  await api.dispose();
}

const toast = (page: Page, type: "success" | "error", text: string) =>
  page.locator(`[data-sonner-toast][data-type='${type}']`).filter({ hasText: text });

test.describe("promo codes", () => {
  test.setTimeout(90_000);

  test("create percent and fixed codes, list, edit, refuse a duplicate, mark expired, delete", async ({
    page,
    consoleErrors: _,
  }) => {
    const stamp = Date.now().toString(36);
    const seeded = await seed(stamp);
    const [alpha, beta] = seeded.links;
    if (!alpha || !beta) throw new Error("links not seeded");
    const percentCode = `PCT${stamp}`.toUpperCase();
    const fixedCode = `FIX${stamp}`.toUpperCase();
    const expiredCode = `OLD${stamp}`.toUpperCase();
    // An expired code, set up through the API: the list must mark it.
    const expired = await seeded.api.post("/promo-codes", {
      data: { kind: "percent", value: 5, code: expiredCode, expiresAt: "2020-01-01T00:00:00.000Z" },
    });
    expect(expired.status()).toBe(201);
    try {
      await signInAsCreator(page, { email: "E-mail", password: "Password", signIn: "Sign in" });
      await page
        .getByRole("navigation", { name: "Account" })
        .getByRole("link", { name: "Promo codes" })
        .click();
      await expect(page).toHaveURL(/\/account\/promo-codes$/, { timeout: 30_000 });
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Promo codes");

      const old = page.getByRole("listitem", { name: expiredCode });
      await expect(old).toContainText("Expired");
      await expect(old).toContainText("5%");

      // The dialog opens focused on the code, and Escape closes it.
      const create = page.getByRole("button", { name: "Create promo code" });
      await create.click();
      const dialog = page.getByRole("dialog", { name: "Create a promo code" });
      await expect(dialog.getByLabel("Code")).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();

      // Client-side validation with the contract, under each field.
      await create.click();
      await dialog.getByLabel("Code").fill("x");
      await dialog.getByLabel("Percentage off").fill("150");
      await dialog.getByRole("button", { name: "Save" }).click();
      await expect(dialog.locator("#code-error")).toHaveText("Use 3 to 32 letters, digits, _ or -.");
      await expect(dialog.locator("#value-error")).toHaveText("Enter a whole percentage between 1 and 100.");

      // A percentage for all links; typed in lower case, kept in upper case.
      await dialog.getByLabel("Code").fill(percentCode.toLowerCase());
      await dialog.getByLabel("Percentage off").fill("20");
      await dialog.getByRole("button", { name: "Save" }).click();
      await expect(dialog).toBeHidden();
      await expect(toast(page, "success", "Promo code created")).toBeVisible();
      const percentItem = page.getByRole("listitem", { name: percentCode });
      await expect(percentItem).toContainText("20%");
      await expect(percentItem).toContainText("All links");
      await expect(percentItem).toContainText("Never");
      await expect(percentItem).toContainText("0 (no cap)");
      await expect(percentItem).toContainText("Active");

      // A fixed amount, with an expiry, a cap, and restricted to one link.
      await create.click();
      await dialog.getByLabel("Code").fill(fixedCode);
      await dialog.getByRole("radio", { name: "Fixed amount" }).check();
      await dialog.getByLabel("Amount off").fill("4.555");
      await dialog.getByRole("button", { name: "Save" }).click();
      await expect(dialog.locator("#value-error")).toHaveText(
        "Enter an amount like 5 or 4.50, with at most two decimals.",
      );
      await dialog.getByLabel("Amount off").fill("4,50");
      await dialog.getByLabel("Currency").selectOption("EUR");
      await dialog.getByLabel("Expiry date (optional)").fill("2030-12-31");
      await dialog.getByLabel("Usage cap (optional)").fill("10");
      await dialog.getByRole("checkbox", { name: alpha.title }).check();
      await dialog.getByRole("button", { name: "Save" }).click();
      await expect(dialog).toBeHidden();
      const fixedItem = page.getByRole("listitem", { name: fixedCode });
      await expect(fixedItem).toContainText("€4.50");
      await expect(fixedItem).toContainText(alpha.title);
      await expect(fixedItem).not.toContainText(beta.title);
      await expect(fixedItem).toContainText("0 of 10");
      await expect(fixedItem).toContainText("Dec 31, 2030");

      // What the API holds: integer minor units, the currency and the one link.
      const list = (await (await seeded.api.get("/promo-codes")).json()) as {
        items: { code: string; kind: string; value: number; currency: string | null; linkIds: string[] }[];
      };
      expect(list.items.find((c) => c.code === fixedCode)).toMatchObject({
        kind: "fixed",
        value: 450,
        currency: "EUR",
        linkIds: [alpha.id],
      });

      // Edit: the same dialog, prefilled.
      await percentItem.getByRole("button", { name: "Edit" }).click();
      const edit = page.getByRole("dialog", { name: "Edit promo code" });
      await expect(edit.getByLabel("Code")).toHaveValue(percentCode);
      await expect(edit.getByLabel("Percentage off")).toHaveValue("20");
      await edit.getByLabel("Percentage off").fill("35");
      await edit.getByRole("checkbox", { name: beta.title }).check();
      await edit.getByRole("button", { name: "Save" }).click();
      await expect(edit).toBeHidden();
      await expect(toast(page, "success", "Promo code updated")).toBeVisible();
      await expect(percentItem).toContainText("35%");
      await expect(percentItem).toContainText(beta.title);

      // The fixed code reopens with its amount as typed and its link ticked.
      await fixedItem.getByRole("button", { name: "Edit" }).click();
      await expect(edit.getByLabel("Amount off")).toHaveValue("4.50");
      await expect(edit.getByRole("checkbox", { name: alpha.title })).toBeChecked();
      await expect(edit.getByLabel("Expiry date (optional)")).toHaveValue("2030-12-31");
      await edit.getByRole("button", { name: "Cancel" }).click();
      await expect(edit).toBeHidden();

      // A duplicate code: the API's field error under the field.
      await create.click();
      await dialog.getByLabel("Code").fill(fixedCode.toLowerCase());
      await dialog.getByLabel("Percentage off").fill("10");
      await dialog.getByRole("button", { name: "Save" }).click();
      await expect(dialog.locator("#code-error")).toHaveText("You already have a promo code with this code.");
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(dialog).toBeHidden();

      // Delete, after a confirmation step.
      await percentItem.getByRole("button", { name: "Delete" }).click();
      await expect(percentItem).toContainText(
        `Delete the code ${percentCode}? Buyers will no longer be able to use it.`,
      );
      await percentItem.getByRole("button", { name: "Yes, delete" }).click();
      await expect(toast(page, "success", "Promo code deleted")).toBeVisible();
      await expect(page.getByRole("listitem", { name: percentCode })).toHaveCount(0);
      await expect(fixedItem).toBeVisible();
    } finally {
      await cleanUp(seeded, stamp);
    }
  });

  test("in French: a field error of the dialog", async ({ browser }) => {
    const context = await browser.newContext({ locale: "fr-FR" });
    const page = await context.newPage();
    const consoleErrors = watchConsole(page);
    await signInAsCreator(page, { email: "E-mail", password: "Mot de passe", signIn: "Se connecter" });
    await page.goto("/account/promo-codes");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Codes promo");
    await page.getByRole("button", { name: "Créer un code promo" }).click();
    const dialog = page.getByRole("dialog", { name: "Créer un code promo" });
    await dialog.getByLabel("Code").fill("ab");
    await dialog.getByRole("radio", { name: "Montant fixe" }).check();
    await dialog.getByLabel("Montant de la réduction").fill("4,5,0");
    await dialog.getByRole("button", { name: "Enregistrer" }).click();
    await expect(dialog.locator("#code-error")).toHaveText("Utilisez de 3 à 32 lettres, chiffres, _ ou -.");
    await expect(dialog.locator("#value-error")).toHaveText(
      "Saisissez un montant comme 5 ou 4,50, avec au plus deux décimales.",
    );
    expect(consoleErrors, "browser console errors").toEqual([]);
    await context.close();
  });
});
