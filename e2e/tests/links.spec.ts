import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { apiAs, expect, signInAs, test, watchConsole } from "../fixtures.ts";

const files = path.resolve(import.meta.dirname, "../../apps/api/test/fixtures/files");
const photo = path.join(files, "photo.png");
const pdf = path.join(files, "document.pdf");

/** The creator needs a profile to own links: made through the API when there is none. */
async function ensureProfile(api: APIRequestContext): Promise<string | null> {
  const list = (await (await api.get("/profiles")).json()) as { items: { id: string }[] };
  if (list.items.length > 0) return null;
  const res = await api.post("/profiles", {
    data: { displayName: "Links E2E", handle: `l${Date.now().toString(36)}` },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const toast = (page: Page, type: "success" | "error" | "warning" | "info", text: string) =>
  page.locator(`[data-sonner-toast][data-type='${type}']`).filter({ hasText: text });

test.describe("creator links", () => {
  test.setTimeout(90_000);
  let api: APIRequestContext;
  let createdProfile: string | null = null;

  test.beforeAll(async () => {
    api = await apiAs("creator");
    createdProfile = await ensureProfile(api);
  });
  test.afterAll(async () => {
    if (createdProfile) await api.delete(`/profiles/${createdProfile}`);
    await api.dispose();
  });

  test("create with uploads, show, rename, pause, resume and delete a link", async ({
    page,
    context,
    consoleErrors: _,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const title = `E2E link ${Date.now().toString(36)}`;
    await signInAs(page, "creator");
    await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Links" }).click();
    await expect(page).toHaveURL(/\/account\/links$/, { timeout: 30_000 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Links");

    await page.getByRole("button", { name: "Create link" }).click();
    const dialog = page.getByRole("dialog", { name: "Create a link" });
    await expect(dialog).toBeVisible();

    // Client-side validation: a title and a price in range are required.
    await dialog.getByLabel("Price", { exact: true }).fill("12.345");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByText("Enter a title of at most 120 characters.")).toBeVisible();
    await expect(
      dialog.getByText(/^Enter a price between €[\d.,]+ and €[\d.,]+, such as 12\.50\.$/),
    ).toBeVisible();

    await dialog.getByLabel("Title").fill(title);
    await dialog.getByLabel("Description").fill("Made by the end-to-end tests.");
    await dialog.getByLabel("Price", { exact: true }).fill("12.50");
    await dialog.getByLabel("Currency").selectOption("EUR");

    // An upload held by the network can be cancelled.
    await page.route("**/upload?use=content", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await route.continue().catch(() => undefined);
    });
    await dialog.getByLabel("Sold file").setInputFiles(photo);
    await expect(dialog.getByRole("progressbar", { name: "Upload progress of photo.png" })).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel upload" }).click();
    await expect(toast(page, "info", "Upload cancelled")).toBeVisible();
    await expect(dialog.getByRole("progressbar")).toHaveCount(0);
    await page.unroute("**/upload?use=content");

    // The sold file: progress while it goes, then its name and size.
    await page.route("**/upload?use=content", async (route) => {
      // Long enough for a busy machine to see the progress before the upload ends.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await route.continue();
    });
    await dialog.getByLabel("Sold file").setInputFiles(pdf);
    await expect(dialog.getByRole("progressbar", { name: "Upload progress of document.pdf" })).toBeVisible();
    await expect(dialog.getByText("Uploading document.pdf…")).toBeVisible();
    await expect(dialog.getByText("document.pdf", { exact: true })).toBeVisible();
    await expect(dialog.getByText("(587 bytes)")).toBeVisible();
    await page.unroute("**/upload?use=content");

    await dialog.getByLabel("Cover image").setInputFiles(photo);
    await expect(dialog.getByText("photo.png", { exact: true })).toBeVisible();

    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    await expect(toast(page, "success", "Link created")).toBeVisible();
    const item = page.getByRole("listitem", { name: title, exact: true });
    await expect(item).toContainText("€12.50");
    await expect(item).toContainText("Active");
    await expect(item).toContainText("No sales");
    await expect(item).toContainText("document.pdf");
    // Issue 22: the VAT choice, in the price by default.
    await expect(item.getByText("VAT included", { exact: true })).toBeVisible();

    // Edit: the same dialog, prefilled, the attached files shown.
    await item.getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("dialog", { name: "Edit link" });
    await expect(edit.getByLabel("Price", { exact: true })).toHaveValue("12.50");
    await expect(edit.getByText("document.pdf", { exact: true })).toBeVisible();
    await expect(edit.getByText("Current image")).toBeVisible();
    await edit.getByLabel("Price", { exact: true }).fill("15");
    await edit.getByLabel("Price includes VAT").uncheck();
    await edit.getByRole("button", { name: "Save" }).click();
    await expect(edit).toBeHidden();
    await expect(toast(page, "success", "Link updated")).toBeVisible();
    await expect(item).toContainText("€15.00");
    await expect(item.getByText("VAT added at checkout", { exact: true })).toBeVisible();
    await expect(item.getByText("VAT included", { exact: true })).toHaveCount(0);

    // Show link: the buyer URL, copied, and its QR code.
    await item.getByRole("button", { name: "Show link" }).click();
    const show = page.getByRole("dialog", { name: "Show link" });
    const url = show.getByLabel("Buyer link");
    await expect(url).toHaveValue(/\/v\/[A-Za-z0-9_-]{22,64}$/);
    const buyerUrl = await url.inputValue();
    await expect(show.getByRole("img", { name: `QR code of ${buyerUrl}` })).toBeVisible();
    await expect(show.getByRole("link", { name: "Open link" })).toHaveAttribute("href", buyerUrl);
    await show.getByRole("button", { name: "Copy" }).click();
    await expect(toast(page, "success", "Link copied")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(buyerUrl);
    await show.getByRole("button", { name: "Close" }).click();
    await expect(show).toBeHidden();

    // Set product title, in place.
    const renamed = `${title} renamed`;
    await item.getByRole("button", { name: "Set title" }).click();
    await item.getByLabel("Product title").fill(renamed);
    await item.getByRole("button", { name: "Save title" }).click();
    await expect(toast(page, "success", "Title updated")).toBeVisible();
    const row = page.getByRole("listitem", { name: renamed, exact: true });
    await expect(row.getByRole("heading", { name: renamed })).toBeVisible();

    // Pause, then resume.
    await row.getByRole("button", { name: "Pause" }).click();
    await expect(toast(page, "success", "Link paused")).toBeVisible();
    await expect(row).toContainText("Paused");
    await row.getByRole("button", { name: "Resume" }).click();
    await expect(toast(page, "success", "Link back on sale")).toBeVisible();
    await expect(row).toContainText("Active");

    // Delete, after a confirmation step.
    await row.getByRole("button", { name: "Delete" }).click();
    await expect(row).toContainText(`Delete “${renamed}”? This cannot be undone.`);
    await row.getByRole("button", { name: "Yes, delete" }).click();
    await expect(toast(page, "success", "Link deleted")).toBeVisible();
    await expect(page.getByRole("listitem", { name: renamed, exact: true })).toHaveCount(0);
  });

  test("in French: files refused before upload with the French texts", async ({ browser }) => {
    const context = await browser.newContext({ locale: "fr-FR" });
    const page = await context.newPage();
    const errors = watchConsole(page);
    const uploads: string[] = [];
    page.on("request", (req) => {
      if (req.url().includes("/upload")) uploads.push(req.url());
    });
    await signInAs(page, "creator", { email: "E-mail", password: "Mot de passe", signIn: "Se connecter" });
    await page.goto("/account/links");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Liens");
    await page.getByRole("button", { name: "Créer un lien" }).click();
    const dialog = page.getByRole("dialog", { name: "Créer un lien" });
    await expect(dialog).toBeVisible();

    // A PDF as the cover: only images are accepted.
    await dialog.getByLabel("Image de couverture").setInputFiles(pdf);
    await expect(dialog.getByText("Le type de fichier n'est pas valide (attendu : image)")).toBeVisible();

    // An image one byte over the cover limit (10 MiB).
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const big = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 + 1 - png.length)]);
    await dialog
      .getByLabel("Image de couverture")
      .setInputFiles({ name: "grande.png", mimeType: "image/png", buffer: big });
    await expect(dialog.getByText(/^Le fichier est trop volumineux \(max\. 10\sMo\)$/)).toBeVisible();

    // Two files dropped at once: the 'Max files' warning.
    const twoFiles = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(["a"], "a.txt", { type: "text/plain" }));
      data.items.add(new File(["b"], "b.txt", { type: "text/plain" }));
      return data;
    });
    await dialog.getByText("ou déposez-le ici").first().dispatchEvent("drop", { dataTransfer: twoFiles });
    await expect(
      page
        .locator("[data-sonner-toast][data-type='warning']")
        .filter({ hasText: "Nombre maximal de fichiers atteint" }),
    ).toBeVisible();

    expect(uploads).toEqual([]);
    expect(errors, "browser console errors").toEqual([]);
    await context.close();
  });
});
