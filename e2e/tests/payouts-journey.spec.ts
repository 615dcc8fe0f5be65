import { readFile } from "node:fs/promises";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, signInAs, test, watchConsole } from "../fixtures.ts";
import { freshAccount, signIn } from "./identity-helpers.ts";
import { sellOnce } from "./sale-helpers.ts";

/** A French IBAN with valid check digits (the one banks print in their examples). */
const IBAN = "FR76 3000 6000 0112 3456 7890 189";

/** A sale of the creator whose refund window has ended: €18.00 available to withdraw. */
async function sellAvailable(creator: APIRequestContext, stamp: string): Promise<void> {
  const { orderId } = await sellOnce(creator, {
    displayName: "Payouts E2E",
    handle: `po${stamp}`,
    title: `Payout journey ${stamp}`,
    buyer: "payout-buyer",
  });
  // The refund window ends (the clock moved to its end): this sale, and only it, becomes available
  // (other tests running alongside keep their sales held).
  const wallet = (await (await creator.get("/wallet")).json()) as {
    held: { orderId: string; availableAt: string }[];
  };
  const held = wallet.held.find((h) => h.orderId === orderId);
  if (!held) throw new Error("the sale is not held");
  const released = await creator.post("/dev/holds/release", {
    data: { asOf: held.availableAt, orderIds: [orderId] },
  });
  expect(released.status()).toBe(200);
}

/** The figure a balance card shows under one of its labels ("Available", "In transit"). */
const balance = (page: Page, label: string) =>
  page
    .getByRole("listitem", { name: "Balances in EUR" })
    .locator("div")
    .filter({ has: page.getByRole("term").getByText(label, { exact: true }) })
    .locator(".balance-amount");

const successToast = (page: Page, text: string) =>
  page.locator("[data-sonner-toast][data-type='success']").filter({ hasText: text });

test.describe("payouts journey", () => {
  // Sign-up, a sale, an identity check, a withdrawal and an operator's two steps, in two browsers.
  test.setTimeout(180_000);

  test("a creator verifies, withdraws, and an admin approves and pays: the creator sees it paid", async ({
    page,
    browser,
    consoleErrors: _,
  }) => {
    const stamp = Date.now().toString(36);
    const creator = await freshAccount("payouts-journey", "individual");
    await sellAvailable(creator.api, stamp);

    await signIn(page, creator.email);
    await page.goto("/account/wallet");
    await expect(balance(page, "Available")).toHaveText("€18.00");
    // Withdrawing, bank accounts and the payouts list have their own page since issue 23.
    await page
      .getByRole("region", { name: "Payouts and bank accounts" })
      .getByRole("link", { name: "Open payouts" })
      .click();
    await expect(page).toHaveURL(/\/account\/payouts$/, { timeout: 30_000 });
    await expect(balance(page, "Available")).toHaveText("€18.00");
    const withdraw = page.getByRole("region", { name: "Withdraw to your bank" });
    const withdrawButton = withdraw.getByRole("button", { name: "Withdraw" });
    await expect(withdrawButton).toBeDisabled();
    await expect(withdraw).toContainText("Add the bank account (IBAN) the money goes to.");

    // The IBAN: saved, then shown masked.
    await page.getByLabel("Account holder").fill("Ada Lovelace");
    await page.getByLabel("IBAN", { exact: true }).fill(IBAN);
    await page.getByRole("button", { name: "Save the bank account" }).click();
    const banks = page.getByRole("region", { name: "Bank accounts" });
    await expect(banks).toContainText("0189");
    await expect(banks).not.toContainText("3000 6000 0112");

    // Told to verify: the withdrawal waits for the identity check, whose section says why.
    await expect(withdraw).not.toContainText("Add the bank account (IBAN) the money goes to.");
    await expect(withdraw).toContainText("Verify your identity: we must know who we pay.");
    await expect(withdrawButton).toBeDisabled();
    const identity = page.getByRole("region", { name: "Identity verification" });
    await expect(identity.getByText("Verify your identity to withdraw")).toBeVisible();

    // The sandbox identity check, approved on its page, then back in the wallet.
    await identity.getByRole("button", { name: "Verify my identity" }).click();
    await page
      .getByRole("dialog", { name: "Verify my identity" })
      .getByRole("button", { name: "Continue to the check" })
      .click();
    await expect(page).toHaveURL(/\/identity\/sandbox\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    await expect(page.getByText("Sandbox — no real identity check")).toBeVisible();
    await page.getByRole("group", { name: "Decision" }).getByRole("button", { name: "Approve" }).click();
    await expect(page).toHaveURL(/\/account\/wallet/, { timeout: 30_000 });
    await expect(identity.getByText("Identity verified")).toBeVisible({ timeout: 20_000 });
    await page.goto("/account/payouts");
    await expect(identity.getByText("Identity verified")).toBeVisible({ timeout: 20_000 });

    // Withdraw €12.00 of the €18.00.
    await expect(withdrawButton).toBeEnabled();
    await withdraw.getByLabel("Amount (EUR)").fill("12.00");
    await withdrawButton.click();
    await expect(successToast(page, "Payout requested")).toBeVisible();
    const payouts = page.getByRole("region", { name: "Payouts", exact: true });
    await expect(payouts.getByRole("listitem", { name: "Payout of €12.00, Requested" })).toBeVisible();
    await expect(balance(page, "Available")).toHaveText("€6.00");
    await expect(balance(page, "In transit")).toHaveText("€12.00");

    // An operator, in another browser: the queue, the payee's checks, approve, then mark paid.
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    const adminErrors = watchConsole(admin);
    await signInAs(admin, "admin");
    await admin.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Admin" }).click();
    await expect(admin).toHaveURL(/\/admin\/payouts$/, { timeout: 30_000 });
    await expect(admin.getByRole("heading", { level: 1 })).toHaveText("Payouts");
    await expect(admin.getByRole("button", { name: "Requested", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );

    const row = admin.getByRole("listitem", { name: `Payout of €12.00 to ${creator.email}` });
    await expect(row).toBeVisible();
    await expect(row).toContainText("0189");
    await expect(row).toContainText("Ada Lovelace");
    // The account's first payout: held by that risk rule, shown to the operator (issue 23).
    await expect(row.getByRole("list", { name: "Held for review by" })).toContainText(
      "first payout to this account",
    );
    const checks = row.getByRole("list", { name: "Checks" });
    await expect(checks).toContainText("Identity approved: yes");
    await expect(checks).toContainText("Onboarding complete: yes");
    await expect(checks).toContainText("Bank account on file: yes");
    await row.getByRole("button", { name: "Approve" }).click();
    await expect(successToast(admin, "Payout approved")).toBeVisible();
    // Approved, it leaves the requested queue for the processing one.
    await expect(row).toHaveCount(0);
    await admin.getByRole("button", { name: "Processing", exact: true }).click();
    await expect(admin).toHaveURL(/\/admin\/payouts\?status=processing$/);
    await expect(row).toContainText("Processing");

    // The bank's files of the approved payouts, from the API: the CSV carries this one.
    await expect(admin.getByText("pain.001) holds euro payouts only")).toBeVisible();
    await expect(admin.getByRole("link", { name: "Export SEPA file (pain.001)" })).toHaveAttribute(
      "href",
      /\/admin\/payouts\/export\?format=pain001&status=processing$/,
    );
    const csvLink = admin.getByRole("link", { name: "Export CSV" });
    await expect(csvLink).toHaveAttribute("href", /\/admin\/payouts\/export\?format=csv&status=processing$/);
    const [download] = await Promise.all([admin.waitForEvent("download"), csvLink.click()]);
    expect(download.suggestedFilename()).toMatch(/^payouts-processing-.*\.csv$/);
    const csv = await readFile(await download.path(), "utf8");
    expect(
      csv.split("\n").filter((line) => line.includes("Ada Lovelace") && line.includes("12.00")),
      "the CSV line of this payout",
    ).not.toHaveLength(0);

    await row.getByRole("button", { name: "Mark paid" }).click();
    await expect(successToast(admin, "Payout marked paid.")).toBeVisible();
    await expect(row).toHaveCount(0);
    await admin.getByRole("button", { name: "Paid", exact: true }).click();
    await expect(row).toContainText("Paid");
    expect(adminErrors, "admin browser console errors").toEqual([]);
    await adminContext.close();

    // The creator sees it paid, and the balance down by the amount: €6.00 left, nothing in transit.
    await page.reload();
    await expect(payouts.getByRole("listitem", { name: "Payout of €12.00, Paid" })).toBeVisible();
    await expect(balance(page, "Available")).toHaveText("€6.00");
    await expect(balance(page, "In transit")).toHaveText("€0.00");
    await creator.api.dispose();
  });

  test("an operator marks a payout failed with a reason: the creator reads why and has the money back", async ({
    page,
    browser,
    consoleErrors: _,
  }) => {
    const stamp = Date.now().toString(36);
    const creator = await freshAccount("payouts-failed", "individual");
    await sellAvailable(creator.api, stamp);
    // Verified, with an IBAN and a payout of everything, through the API: the journey above does it by hand.
    const session = (await (await creator.api.post("/identity/sessions", { data: {} })).json()) as {
      id: string;
    };
    const decided = await creator.api.post(`/identity/sandbox/sessions/${session.id}/decision`, {
      data: { outcome: "approved" },
    });
    expect(decided.status()).toBe(202);
    await expect
      .poll(async () => ((await (await creator.api.get("/identity")).json()) as { status: string }).status)
      .toBe("approved");
    const bank = await creator.api.post("/profile/bank-accounts", {
      data: { holderName: "Ada Lovelace", iban: IBAN },
    });
    expect(bank.status()).toBe(201);
    const { id: bankAccountId } = (await bank.json()) as { id: string };
    const payout = await creator.api.post("/profile/payout", { data: { bankAccountId } });
    expect(payout.status()).toBe(201);

    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    const adminErrors = watchConsole(admin);
    await signInAs(admin, "admin");
    // The console opens on its overview now; the queue has its own address.
    await admin.goto("/admin/payouts");
    const row = admin.getByRole("listitem", { name: `Payout of €18.00 to ${creator.email}` });
    await row.getByRole("button", { name: "Mark failed" }).click();
    const dialog = admin.getByRole("dialog", { name: "Mark the payout failed" });
    await expect(dialog).toContainText(`€18.00 to ${creator.email} will go back`);
    // The reason is required: refused before any call.
    await dialog.getByRole("button", { name: "Mark failed" }).click();
    await expect(dialog.getByText("Give a reason of 3 to 500 characters.")).toBeVisible();
    await dialog.getByLabel("Reason").fill("The bank refused the transfer: account closed.");
    await dialog.getByRole("button", { name: "Mark failed" }).click();
    await expect(successToast(admin, "Payout marked failed")).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(row).toHaveCount(0);
    await admin.getByRole("button", { name: "Failed", exact: true }).click();
    await expect(row).toContainText("The bank refused the transfer: account closed.");
    await expect(row.getByRole("button")).toHaveCount(0);
    expect(adminErrors, "admin browser console errors").toEqual([]);
    await adminContext.close();

    await signIn(page, creator.email);
    await page.goto("/account/payouts");
    const failed = page.getByRole("listitem", { name: "Payout of €18.00, Failed" });
    await expect(failed).toContainText("The bank refused the transfer: account closed.");
    await expect(balance(page, "Available")).toHaveText("€18.00");
    await expect(balance(page, "In transit")).toHaveText("€0.00");
    await creator.api.dispose();
  });

  test("the admin console is for admins only", async ({ page, consoleErrors: _ }) => {
    await signInAs(page, "creator");
    await expect(
      page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Admin" }),
    ).toHaveCount(0);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/account$/, { timeout: 30_000 });
  });
});
