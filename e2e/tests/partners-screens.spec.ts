import type { Page } from "@playwright/test";
import { expect, mailedLink, signInWords, test } from "../fixtures.ts";
import { freshAccount, PASSWORD, signIn } from "./identity-helpers.ts";

/*
 * Issue 20's screens, as far as the API goes today: a creator opens a programme by approval, a
 * second account applies from its "Programmes" screen, the creator approves, and the partner finds
 * their partner links; the creator's form shows the contract's field errors first.
 */

const toast = (page: Page, type: "success" | "error", text: string | RegExp) =>
  page.locator(`[data-sonner-toast][data-type='${type}']`).filter({ hasText: text });

test.describe("partner programmes", () => {
  test("a creator opens a programme, a partner applies, the creator approves", async ({
    browser,
    page,
    consoleErrors: _,
  }) => {
    // Two fresh accounts and several dashboard pages (compiled on first visit in development).
    test.setTimeout(150_000);
    const stamp = Date.now().toString(36).slice(-6);
    const creator = await freshAccount("partners-creator", "individual");
    const name = `Partners ${stamp}`;
    const profile = await creator.api.post("/profiles", {
      data: { displayName: name, handle: `prt${stamp}` },
    });
    expect(profile.status(), await profile.text()).toBe(201);

    // The creator: a rate out of range is refused on its field, then the programme is saved.
    await signIn(page, creator.email);
    await page.goto("/account/partners");
    await expect(page.getByRole("heading", { name: "Partner programme", level: 1 })).toBeVisible();
    await expect(page.getByText("No partner yet.")).toBeVisible();
    const rate = page.getByLabel("Commission (%)");
    await rate.fill("95");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Enter a whole percent from 1 to 90.")).toBeVisible();
    await expect(rate).toHaveAttribute("aria-invalid", "true");
    await rate.fill("12");
    await page.getByLabel("Programme on").check();
    await page.getByRole("radio", { name: /^By approval/ }).check();
    await page.getByLabel("Description (optional)").fill("Presets for photographers.");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, "success", "Partner programme saved")).toBeVisible();

    // The partner applies from their Programmes screen.
    const partner = await freshAccount("partners-partner", "none");
    const partnerContext = await browser.newContext();
    const partnerPage = await partnerContext.newPage();
    await signIn(partnerPage, partner.email);
    await partnerPage.goto("/account/programmes");
    await expect(partnerPage.getByText("You are not in any programme yet.")).toBeVisible();
    const offer = partnerPage.getByRole("listitem", { name });
    await expect(offer.getByText("12%")).toBeVisible();
    await offer.getByRole("button", { name: `Apply to ${name}'s programme` }).click();
    await expect(
      toast(partnerPage, "success", `Your application to ${name}'s programme is sent.`),
    ).toBeVisible();
    const membership = partnerPage.getByRole("listitem", { name });
    await expect(membership.getByText("Waiting for approval")).toBeVisible();
    await expect(membership.getByRole("link", { name: "Links and figures" })).toHaveCount(0);

    // The creator approves the application from the partners table.
    await page.reload();
    const row = page.getByRole("row").filter({ hasText: partner.email });
    await expect(row.getByText("Applied")).toBeVisible();
    await row.getByRole("button", { name: `Approve ${partner.email}` }).click();
    await expect(toast(page, "success", "Partner approved.")).toBeVisible();
    await expect(row.getByText("Active")).toBeVisible();

    // The partner is in: their links carry their code.
    await partnerPage.reload();
    await partnerPage
      .getByRole("listitem", { name })
      .getByRole("link", { name: "Links and figures" })
      .click();
    await expect(partnerPage.getByRole("heading", { name: `${name}'s programme`, level: 1 })).toBeVisible({
      timeout: 30_000,
    });
    const code = (await row.getByRole("cell").nth(2).textContent())?.trim() ?? "";
    await expect(partnerPage.getByLabel("Partner link to the creator page")).toHaveValue(
      new RegExp(`/c/[0-9a-f-]{36}\\?via=${code}$`),
    );
    await partnerContext.close();
  });

  test("an invitation by e-mail: the link says what it offers, the invitee signs in and accepts, once", async ({
    browser,
    page,
    consoleErrors: _,
  }) => {
    test.setTimeout(150_000);
    const stamp = Date.now().toString(36).slice(-6);
    const creator = await freshAccount("partners-inviter", "individual");
    const name = `Inviter ${stamp}`;
    const profile = await creator.api.post("/profiles", {
      data: { displayName: name, handle: `inv${stamp}` },
    });
    expect(profile.status(), await profile.text()).toBe(201);
    const saved = await creator.api.put("/partner-programme", {
      data: { enabled: true, defaultRateBps: 1500, windowDays: 30, joinMode: "invitation" },
    });
    expect(saved.status(), await saved.text()).toBe(200);

    // The creator invites from the partners screen; the invitation waits in the list.
    const invitee = await freshAccount("partners-invitee", "none");
    await signIn(page, creator.email);
    await page.goto("/account/partners");
    await page.getByLabel("E-mail address").fill(invitee.email);
    await page.getByRole("button", { name: "Send the invitation" }).click();
    await expect(toast(page, "success", `Invitation sent to ${invitee.email}`)).toBeVisible();
    const pendingList = page.getByRole("list", { name: "Invitations not accepted yet" });
    await expect(pendingList).toContainText(invitee.email);
    // A second one, cancelled: gone from the list, its link dead.
    const other = `cancelled-${stamp}@example.test`;
    await page.getByLabel("E-mail address").fill(other);
    await page.getByRole("button", { name: "Send the invitation" }).click();
    await expect(pendingList).toContainText(other);
    const cancelledLink = await mailedLink(other, "/programmes/join/");
    await page.getByRole("button", { name: `Cancel the invitation to ${other}` }).click();
    await expect(toast(page, "success", "Invitation cancelled.")).toBeVisible();
    await expect(pendingList).not.toContainText(other);
    await expect(pendingList).toContainText(invitee.email);

    // The invitee opens the e-mailed link signed out: who invites, at which rate, until when.
    const link = await mailedLink(invitee.email, "/programmes/join/");
    const context = await browser.newContext();
    const guest = await context.newPage();
    await guest.goto(new URL(link).pathname);
    await expect(guest.getByText(`${name} offers 15% of each sale you bring, within 30 days`)).toBeVisible();
    await expect(guest.getByText(/This invitation expires on/)).toBeVisible();
    await guest.getByRole("main").getByRole("link", { name: "Sign in", exact: true }).click();
    await guest.getByLabel(signInWords.email).fill(invitee.email);
    await guest.getByLabel(signInWords.password).fill(PASSWORD);
    await guest.getByRole("button", { name: signInWords.signIn }).click();
    await expect(guest).toHaveURL(/\/programmes\/join\//, { timeout: 30_000 });
    await guest.getByRole("button", { name: "Accept the invitation" }).click();
    await expect(guest.getByText("You are a partner now.")).toBeVisible();
    await guest.getByRole("link", { name: "Open the programme" }).click();
    await expect(guest.getByRole("heading", { name: `${name}'s programme`, level: 1 })).toBeVisible({
      timeout: 30_000,
    });

    // The link is spent: opened again, it says so at once; so does the cancelled one.
    await guest.goto(new URL(link).pathname);
    await expect(guest.getByText("This invitation can no longer be used.")).toBeVisible();
    await guest.goto(new URL(cancelledLink).pathname);
    await expect(guest.getByText("This invitation can no longer be used.")).toBeVisible();
    await context.close();
    await creator.api.dispose();
    await invitee.api.dispose();
  });
});
