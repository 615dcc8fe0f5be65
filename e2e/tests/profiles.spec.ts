import path from "node:path";
import type { Page } from "@playwright/test";
import { apiAs, demoEmail, demoPassword, expect, test } from "../fixtures.ts";

const photo = path.resolve(import.meta.dirname, "../../apps/api/test/fixtures/files/photo.png");

async function signInAsCreator(page: Page, words: { email: string; password: string; signIn: string }) {
  await page.goto("/signin");
  await page.getByLabel(words.email).fill(demoEmail("creator"));
  await page.getByLabel(words.password).fill(demoPassword);
  await page.getByRole("button", { name: words.signIn }).click();
  await expect(page).toHaveURL(/\/account$/);
}

test.describe("creator profiles", () => {
  test.setTimeout(60_000);

  test("create, list, edit, refuse a taken handle and delete a profile", async ({
    page,
    consoleErrors: _,
  }) => {
    const handle = `p${Date.now().toString(36)}`;
    await signInAsCreator(page, { email: "E-mail", password: "Password", signIn: "Sign in" });
    await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Profiles" }).click();
    await expect(page).toHaveURL(/\/account\/profiles$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Profiles");
    // Either the empty state or the list, both with the create button.
    const create = page.getByRole("button", { name: "Create profile" });
    await expect(create).toBeVisible();

    // The dialog opens focused on its first field, and Escape closes it.
    await create.click();
    const dialog = page.getByRole("dialog", { name: "Create a profile" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Display name")).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    // Client-side validation with the contract.
    await create.click();
    await dialog.getByLabel("Handle").fill("x");
    await dialog.getByLabel("Social links").fill("http://insecure.example");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.locator("#handle-error")).toBeVisible();
    await expect(dialog.locator("#displayName-error")).toBeVisible();
    await expect(dialog.locator("#socialLinks-error")).toBeVisible();

    await dialog.getByLabel("Display name").fill("E2E Creator");
    await dialog.getByLabel("Handle").fill(handle);
    await dialog.getByLabel("Bio").fill("Profiles made by the end-to-end tests.");
    await dialog.getByLabel("Social links").fill("https://example.com/e2e\nhttps://example.org/e2e");
    await dialog.getByLabel("Avatar").setInputFiles(photo);
    await expect(dialog.getByText("photo.png", { exact: true })).toBeVisible();
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.locator("[data-sonner-toast][data-type='success']").filter({ hasText: "Profile created" }),
    ).toBeVisible();
    const item = page.getByRole("listitem").filter({ hasText: `@${handle}` });
    await expect(item).toContainText("E2E Creator");
    await expect(item).toContainText("Profiles made by the end-to-end tests.");
    // The avatar's rendition, served by the API, is shown in the list.
    const avatar = item.getByRole("img", { name: "Avatar of E2E Creator" });
    await expect(avatar).toBeVisible();
    expect(await avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    // Edit: the same dialog, prefilled.
    await item.getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("dialog", { name: "Edit profile" });
    await expect(edit.getByLabel("Handle")).toHaveValue(handle);
    await expect(edit.getByLabel("Social links")).toHaveValue(
      "https://example.com/e2e\nhttps://example.org/e2e",
    );
    await edit.getByLabel("Display name").fill("E2E Creator renamed");
    await edit.getByRole("button", { name: "Save" }).click();
    await expect(edit).toBeHidden();
    await expect(item).toContainText("E2E Creator renamed");

    // A taken handle: the API's field error under the field.
    await create.click();
    await dialog.getByLabel("Display name").fill("Copycat");
    await dialog.getByLabel("Handle").fill(handle);
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.locator("#handle-error")).toHaveText("This handle is already taken.");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();

    // Delete, after a confirmation step.
    await item.getByRole("button", { name: "Delete" }).click();
    await expect(item).toContainText(`Delete @${handle}? This cannot be undone.`);
    await item.getByRole("button", { name: "Yes, delete" }).click();
    await expect(
      page.locator("[data-sonner-toast][data-type='success']").filter({ hasText: "Profile deleted" }),
    ).toBeVisible();
    await expect(page.getByText(`@${handle}`)).toHaveCount(0);
  });

  test("deleting a profile that still has links shows the server's refusal", async ({
    page,
    consoleErrors: _,
  }) => {
    const api = await apiAs("creator");
    const handle = `p${Date.now().toString(36)}l`;
    const profile = await api.post("/profiles", { data: { displayName: "Has links", handle } });
    expect(profile.status()).toBe(201);
    const { id } = (await profile.json()) as { id: string };
    const link = await api.post("/links", {
      data: { profileId: id, title: "E2E link", priceMinor: 500, currency: "EUR" },
    });
    expect(link.status()).toBe(201);
    const { id: linkId } = (await link.json()) as { id: string };
    try {
      await signInAsCreator(page, { email: "E-mail", password: "Password", signIn: "Sign in" });
      await page.goto("/account/profiles");
      const item = page.getByRole("listitem").filter({ hasText: `@${handle}` });
      await item.getByRole("button", { name: "Delete" }).click();
      await item.getByRole("button", { name: "Yes, delete" }).click();
      const error = page.locator("[data-sonner-toast][data-type='error']");
      await expect(error).toContainText("The profile could not be deleted.");
      await expect(error).toContainText("This profile still has links");
      await expect(item).toBeVisible();
    } finally {
      await api.delete(`/links/${linkId}`);
      await api.delete(`/profiles/${id}`);
      await api.dispose();
    }
  });

  test("in French: heading and create button", async ({ browser }) => {
    const context = await browser.newContext({ locale: "fr-FR" });
    const page = await context.newPage();
    await signInAsCreator(page, { email: "E-mail", password: "Mot de passe", signIn: "Se connecter" });
    await page.goto("/account/profiles");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Profils");
    await expect(page.getByRole("button", { name: "Créer un profil" })).toBeVisible();
    await expect(page.getByRole("navigation").getByRole("link", { name: "Profils" })).toBeVisible();
    await context.close();
  });
});
