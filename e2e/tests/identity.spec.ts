import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test, watchConsole } from "../fixtures.ts";
import { freshAccount, signIn } from "./identity-helpers.ts";

/** Counts the calls that would open an identity session: a refused form must send none. */
function watchSessionStarts(page: Page): { count: number } {
  const seen = { count: 0 };
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/identity/sessions") seen.count += 1;
  });
  return seen;
}

test.describe("identity verification", () => {
  // Sign-up, e-mail, onboarding and a round trip to the sandbox provider per test.
  test.setTimeout(90_000);

  test("the form hides the names on file, requires them otherwise, and refuses a long note", async ({
    page,
    consoleErrors: _,
  }) => {
    const individual = await freshAccount("identity-names", "individual");
    const professional = await freshAccount("identity-pro", "professional");
    const starts = watchSessionStarts(page);

    await signIn(page, individual.email);
    await page.goto("/account/wallet");
    const section = page.getByRole("region", { name: "Identity verification" });
    await expect(section.getByText("Verify your identity to withdraw")).toBeVisible();
    await expect(section.getByText("Sandbox", { exact: true })).toBeVisible();
    await expect(section).toContainText("no real identity check is made");
    await expect(section).toContainText("You can start 2 checks a day (2 left today).");

    await section.getByRole("button", { name: "Verify my identity" }).click();
    const dialog = page.getByRole("dialog", { name: "Verify my identity" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("We use the names you gave when you set up your account.")).toBeVisible();
    await expect(dialog.getByLabel("Given name")).toHaveCount(0);
    await expect(dialog.getByLabel("Last name")).toHaveCount(0);

    // 1001 characters: counted, refused before any call, under its field.
    const note = dialog.getByLabel("Note for our team (optional)");
    await note.fill("x".repeat(1001));
    await expect(dialog.getByText("1001 / 1000")).toBeVisible();
    await dialog.getByRole("button", { name: "Continue to the check" }).click();
    await expect(dialog.getByText("At most 1000 characters.")).toBeVisible();
    await expect(note).toHaveAttribute("aria-invalid", "true");
    expect(starts.count).toBe(0);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);

    // No names on file: the fields show, are required, and go to the provider with the check.
    await page.context().clearCookies();
    await signIn(page, professional.email);
    await page.goto("/account/wallet");
    await page.getByRole("button", { name: "Verify my identity" }).click();
    const proDialog = page.getByRole("dialog", { name: "Verify my identity" });
    const given = proDialog.getByLabel("Given name");
    const last = proDialog.getByLabel("Last name");
    await expect(given).toBeVisible();
    await expect(given).toHaveAttribute("required", "");
    await expect(last).toHaveAttribute("required", "");
    await proDialog.getByRole("button", { name: "Continue to the check" }).click();
    await expect(proDialog.getByText("Enter your given name.")).toBeVisible();
    await expect(proDialog.getByText("Enter your last name.")).toBeVisible();
    expect(starts.count).toBe(0);

    await given.fill("Grace");
    await last.fill("Hopper");
    await proDialog.getByLabel("Note for our team (optional)").fill("x".repeat(1000));
    await expect(proDialog.getByText("1000 / 1000")).toBeVisible();
    await proDialog.getByRole("button", { name: "Continue to the check" }).click();
    await expect(page).toHaveURL(/\/identity\/sandbox\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    expect(starts.count).toBe(1);
    await expect(page.getByText("Sandbox — no real identity check")).toBeVisible();
    await expect(page.getByText("Grace", { exact: true })).toBeVisible();
    await expect(page.getByText("Hopper", { exact: true })).toBeVisible();

    // Back in the wallet without deciding: the same check is offered again, not a new one.
    await page.goto("/account/wallet");
    const section2 = page.getByRole("region", { name: "Identity verification" });
    await expect(section2.getByText("Your check is not finished")).toBeVisible();
    await expect(section2.getByRole("link", { name: "Continue my check" })).toHaveAttribute(
      "href",
      /\/identity\/sandbox\/[0-9a-f-]{36}$/,
    );
    await expect(section2).toContainText("(1 left today)");

    await individual.api.dispose();
    await professional.api.dispose();
  });

  test("a declined check shows why and how to try again, until the daily limit", async ({
    page,
    consoleErrors: _,
  }) => {
    const account = await freshAccount("identity-declined", "individual");
    await signIn(page, account.email);
    await page.goto("/account/wallet");
    const section = page.getByRole("region", { name: "Identity verification" });
    await section.getByRole("button", { name: "Verify my identity" }).click();
    await page.getByRole("button", { name: "Continue to the check" }).click();

    // The sandbox provider's page: labelled, the person's names, a reason prefilled for a decline.
    await expect(page).toHaveURL(/\/identity\/sandbox\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Identity check (sandbox)");
    await expect(page.getByText("Sandbox — no real identity check")).toBeVisible();
    await expect(page.getByText("Ada", { exact: true })).toBeVisible();
    await expect(page.getByText("Lovelace", { exact: true })).toBeVisible();
    const reason = page.getByLabel("Reason given with a decline or a resubmission request");
    await expect(reason).toHaveValue("Document not readable");
    await reason.fill("The document has expired");
    await page.getByRole("group", { name: "Decision" }).getByRole("button", { name: "Decline" }).click();

    // Back in the wallet: declined, the provider's reason, what to do, and one more check today.
    await expect(page).toHaveURL(/\/account\/wallet/, { timeout: 30_000 });
    await expect(section.getByText("Your check was declined")).toBeVisible({ timeout: 20_000 });
    await expect(section).toContainText("Reason: The document has expired");
    await expect(section).toContainText("use a valid, unexpired identity document");
    await expect(section).toContainText("(1 left today)");
    await expect(page).not.toHaveURL(/identity=done/);

    // The second check of the day, declined too: no third one today, and when the next one is possible.
    await section.getByRole("button", { name: "Start a new check" }).click();
    await page.getByRole("button", { name: "Continue to the check" }).click();
    await expect(page).toHaveURL(/\/identity\/sandbox\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    await page.getByRole("group", { name: "Decision" }).getByRole("button", { name: "Decline" }).click();
    await expect(section.getByText("Your check was declined")).toBeVisible({ timeout: 30_000 });
    await expect(section).toContainText("Reason: Document not readable");
    await expect(section).toContainText("(0 left today)");
    await expect(section).toContainText(/You have used today's checks\. You can start a new one from .+\./);
    await expect(section.getByRole("button", { name: "Start a new check" })).toHaveCount(0);

    // A check that is not the account's (or does not exist) is the sandbox's 404.
    await page.goto(`/identity/sandbox/${randomUUID()}`);
    await expect(page.getByTestId("error-status")).toHaveText("404");
    await expect(page.getByRole("heading", { name: "Ooops." })).toBeVisible();
    await account.api.dispose();
  });

  test("in French: the sandbox asks for a new attempt, and the wallet says so", async ({ browser }) => {
    const account = await freshAccount("identity-fr", "individual", "fr");
    const context = await browser.newContext({ locale: "fr-FR" });
    const page = await context.newPage();
    const consoleErrors = watchConsole(page);
    await signIn(page, account.email, { email: "E-mail", password: "Mot de passe", signIn: "Se connecter" });
    await page.goto("/account/wallet");
    const section = page.getByRole("region", { name: "Vérification d’identité" });
    await expect(section.getByText("Vérifiez votre identité pour retirer")).toBeVisible();
    await expect(section).toContainText(
      "Vous pouvez lancer 2 vérifications par jour (2 restantes aujourd’hui).",
    );
    await section.getByRole("button", { name: "Vérifier mon identité" }).click();
    await page.getByRole("button", { name: "Continuer vers la vérification" }).click();

    await expect(page).toHaveURL(/\/identity\/sandbox\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    await expect(page.getByText("Bac à sable — aucune vraie vérification d’identité")).toBeVisible();
    await expect(
      page.getByLabel("Motif donné avec un refus ou une demande de nouvelle tentative"),
    ).toHaveValue("Document illisible");
    await page
      .getByRole("group", { name: "Décision" })
      .getByRole("button", { name: "Demander une nouvelle tentative" })
      .click();

    await expect(page).toHaveURL(/\/account\/wallet/, { timeout: 30_000 });
    await expect(section.getByText("Une nouvelle tentative est nécessaire")).toBeVisible({ timeout: 20_000 });
    await expect(section).toContainText("Motif : Document illisible");
    // The same session is taken up again at the provider.
    await expect(section.getByRole("link", { name: "Reprendre ma vérification" })).toHaveAttribute(
      "href",
      /\/identity\/sandbox\/[0-9a-f-]{36}$/,
    );
    expect(consoleErrors, "browser console errors").toEqual([]);
    await context.close();
    await account.api.dispose();
  });
});
