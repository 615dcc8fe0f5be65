import path from "node:path";
import { expect, test } from "../fixtures.ts";
import { freshAccount, signIn } from "./identity-helpers.ts";

const pdf = path.resolve(import.meta.dirname, "../../apps/api/test/fixtures/files/document.pdf");

/*
 * Issue 16, uploads without quota: the upload field shows the account's storage as the API counts
 * it ("X of Y used"), and updates it after an upload. The limits themselves are tested in the API
 * suite (uploads/quota.test.ts).
 */
test("the upload field shows the storage used out of the account's quota", async ({
  page,
  consoleErrors: _,
}) => {
  test.setTimeout(90_000);
  const account = await freshAccount("upload-quota", "individual");
  const profile = await account.api.post("/profiles", {
    data: { displayName: "Quota E2E", handle: `q${Date.now().toString(36)}` },
  });
  expect(profile.status()).toBe(201);
  await signIn(page, account.email);
  await page.goto("/account/links");
  await page.getByRole("button", { name: "Create link" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a link" });
  await expect(dialog).toBeVisible();

  const field = dialog.getByLabel("Sold file");
  // The API's default quota (UPLOAD_QUOTA_MB 2048), nothing used yet.
  await expect(field).toHaveAccessibleDescription(/0 bytes of 2 GB used/);
  await expect(dialog.getByRole("meter", { name: "Storage used" }).first()).toBeVisible();

  await field.setInputFiles(pdf);
  await expect(dialog.getByText("document.pdf", { exact: true })).toBeVisible();
  await expect(field).toHaveAccessibleDescription(/587 bytes of 2 GB used/);
  await account.api.dispose();
});
