import { type Page, request } from "@playwright/test";
import { expect, mailedLink, test, uniqueEmail, watchConsole } from "../fixtures.ts";
import { apiUrl, webUrl } from "../playwright.config.ts";

/*
 * The payouts page's bank accounts and withdraw form (the wallet's until issue 23) for a creator who
 * has not verified their identity yet
 * ("create IBAN section", "bank delete account", "bank withdraw" while blocked). The journey through
 * the identity check, a withdrawal and the admin's queue is payouts-journey's.
 */

const PASSWORD = "payouts-password-1";
const VALID_IBAN = "DE89 3704 0044 0532 0130 00";

/** A new creator, e-mail verified and onboarded through the API: those screens have their own spec. */
async function freshCreator(locale: "en" | "fr"): Promise<string> {
  const email = uniqueEmail("payouts");
  const api = await request.newContext({ baseURL: apiUrl, extraHTTPHeaders: { origin: webUrl } });
  try {
    const signup = await api.post("/auth/signup", {
      data: { email, password: PASSWORD, acceptTerms: true, locale, turnstileToken: "e2e-sandbox" },
    });
    expect(signup.status()).toBe(201);
    const token = new URL(await mailedLink(email, "emailToken=")).searchParams.get("emailToken");
    expect((await api.post(`/auth/verify/email/${token}`)).status()).toBe(200);
    expect((await api.post("/auth/signin", { data: { email, password: PASSWORD } })).status()).toBe(200);
    const onboarding = await api.post("/profile/onboarding", {
      data: {
        kind: "individual",
        firstName: "Ada",
        lastName: "Lovelace",
        dateOfBirth: "1990-12-10",
        address: { line1: "12 Calle Mayor", postalCode: "28013", city: "Madrid", country: "ES" },
      },
    });
    expect(onboarding.status()).toBe(200);
  } finally {
    await api.dispose();
  }
  return email;
}

async function openPayouts(page: Page, email: string, words: { password: string; signIn: string }) {
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel(words.password).fill(PASSWORD);
  await page.getByRole("button", { name: words.signIn }).click();
  // A first visit may compile the dashboard in development: allow it time.
  await expect(page).toHaveURL(/\/account$/, { timeout: 30_000 });
  await page.goto("/account/payouts");
}

test.describe("payouts page: bank accounts and withdrawing", () => {
  test.setTimeout(90_000);

  test("add an IBAN (refused when wrong), see it masked, delete it; withdrawing waits for the identity check", async ({
    page,
    consoleErrors: _,
  }) => {
    const email = await freshCreator("en");
    await openPayouts(page, email, { password: "Password", signIn: "Sign in" });

    const banks = page.getByRole("region", { name: "Bank accounts" });
    const successToast = page.locator("[data-sonner-toast][data-type='success']");
    await expect(banks.getByText("No bank account yet")).toBeVisible({ timeout: 15_000 });

    // "Bank withdraw": closed, saying what to do first and how.
    const withdraw = page.getByRole("region", { name: "Withdraw to your bank" });
    const steps = withdraw.getByRole("listitem");
    await expect(steps.filter({ hasText: "Verify your identity: we must know who we pay." })).toBeVisible();
    await expect(withdraw.getByRole("link", { name: "Verify your identity" })).toHaveAttribute(
      "href",
      "#identity",
    );
    await expect(steps.filter({ hasText: "Add the bank account (IBAN) the money goes to." })).toBeVisible();
    await expect(withdraw.getByRole("button", { name: "Withdraw" })).toBeDisabled();
    await expect(withdraw.getByText("The button opens once the steps above are done.")).toBeVisible();
    await expect(page.getByRole("complementary", { name: "What applies to payouts" })).toContainText(
      "One payout at a time.",
    );

    // The "add an IBAN" step leads to the form.
    await withdraw.getByRole("button", { name: "Add an IBAN" }).click();
    const holder = page.getByLabel("Account holder");
    await expect(holder).toBeFocused();

    // "Create IBAN section": a typo in the check digits, then a bank outside the 30 countries.
    const form = page.getByRole("form", { name: "Add a bank account" });
    const iban = form.getByLabel("IBAN", { exact: true });
    const save = form.getByRole("button", { name: "Save the bank account" });
    await holder.fill("Ada Lovelace");
    await iban.fill("DE89 3704 0044 0532 0130 01");
    await save.click();
    await expect(form.getByText("This IBAN's check digits do not match: check for a typo.")).toBeVisible();
    await expect(iban).toHaveAttribute("aria-invalid", "true");
    await iban.fill("US64 SVBK US6S 3300 9588 79");
    await save.click();
    await expect(
      form.getByText("Payouts go to IBANs in the 30 European countries we serve and Switzerland."),
    ).toBeVisible();
    await expect(banks.getByText("No bank account yet")).toBeVisible();

    await iban.fill(VALID_IBAN);
    await form.getByLabel("BIC (optional)").fill("cobadeffxxx");
    await save.click();
    await expect(successToast.filter({ hasText: "Bank account saved" })).toBeVisible();
    const account = banks.getByRole("listitem");
    await expect(account).toHaveCount(1);
    await expect(account).toContainText("Ada Lovelace");
    await expect(account).toContainText("3000");
    await expect(account).toContainText("Germany");
    await expect(account).toContainText("COBADEFFXXX");
    // Masked once saved: the whole number is nowhere on the page.
    await expect(page.getByText(/DE89\s?3704|370400440532013000/)).toHaveCount(0);
    await expect(iban).toHaveValue("");

    // With an account on file, only the identity check still stands in the way.
    await expect(steps.filter({ hasText: "Add the bank account" })).toHaveCount(0);
    await expect(steps.filter({ hasText: "Verify your identity" })).toBeVisible();
    await expect(withdraw.getByRole("button", { name: "Withdraw" })).toBeDisabled();
    await expect(withdraw.getByLabel("To the bank account")).toContainText("Ada Lovelace");

    // "Bank delete account": asks first; cancelling keeps it.
    await account.getByRole("button", { name: /^Delete the bank account / }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this bank account?" });
    await expect(dialog).toContainText("Ada Lovelace");
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(account).toHaveCount(1);

    await account.getByRole("button", { name: /^Delete the bank account / }).click();
    await dialog.getByRole("button", { name: "Delete the bank account" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(successToast.filter({ hasText: "Bank account deleted" })).toBeVisible();
    await expect(banks.getByText("No bank account yet")).toBeVisible();
    await expect(steps.filter({ hasText: "Add the bank account" })).toBeVisible();

    // No payout yet: the history says so.
    await expect(page.getByRole("region", { name: "Payouts", exact: true })).toContainText("No payout yet");
  });

  test("in French: a non-European IBAN is refused, and the identity step is named", async ({ browser }) => {
    const email = await freshCreator("fr");
    const context = await browser.newContext({ locale: "fr-FR" });
    const page = await context.newPage();
    const consoleErrors = watchConsole(page);
    await openPayouts(page, email, { password: "Mot de passe", signIn: "Se connecter" });

    const withdraw = page.getByRole("region", { name: "Virer vers votre banque" });
    await expect(withdraw.getByRole("link", { name: "Vérifier votre identité" })).toHaveAttribute(
      "href",
      "#identity",
    );
    await expect(withdraw.getByRole("button", { name: "Retirer" })).toBeDisabled();

    const form = page.getByRole("form", { name: "Ajouter un compte bancaire" });
    await form.getByLabel("Titulaire du compte").fill("Ada Lovelace");
    await form.getByLabel("IBAN", { exact: true }).fill("GB82 WEST 1234 5698 7654 32");
    await form.getByRole("button", { name: "Enregistrer le compte bancaire" }).click();
    await expect(
      form.getByText(
        "Les versements ne vont qu’aux IBAN des 30 pays européens que nous servons et de la Suisse.",
      ),
    ).toBeVisible();
    await expect(page.getByRole("region", { name: "Comptes bancaires" })).toContainText(
      "Aucun compte bancaire pour l’instant",
    );
    expect(consoleErrors, "browser console errors").toEqual([]);
    await context.close();
  });
});
