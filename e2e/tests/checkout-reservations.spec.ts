import { type APIRequestContext, request } from "@playwright/test";
import { apiAs, expect, test, uniqueEmail } from "../fixtures.ts";
import { apiUrl, webUrl } from "../playwright.config.ts";

/*
 * Issue 16, stock squatting: a limited stock whose last units are held by checkouts under way says
 * so ("all reserved, back in N minutes"), and a buyer leaving the checkout gives the unit back at once.
 */

interface PublicState {
  soldOut: boolean;
  reservedOut: boolean;
  availableAgainAt: string | null;
}

test.describe("reservations of a limited stock", () => {
  test.setTimeout(60_000);
  let creator: APIRequestContext;
  let buyer: APIRequestContext;

  test.beforeAll(async () => {
    creator = await apiAs("creator");
    buyer = await request.newContext({ baseURL: apiUrl, extraHTTPHeaders: { origin: webUrl } });
  });
  test.afterAll(async () => {
    await creator.dispose();
    await buyer.dispose();
  });

  /** A €20.00 link with one unit, on a new profile of the demo creator. */
  async function lastUnitLink(title: string): Promise<string> {
    const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const profile = await creator.post("/profiles", {
      data: { displayName: "Drop shop", handle: `drop_${suffix}` },
    });
    expect(profile.status(), await profile.text()).toBe(201);
    const { id: profileId } = (await profile.json()) as { id: string };
    const link = await creator.post("/links", {
      data: { profileId, title: `${title} ${suffix}`, priceMinor: 2000, currency: "EUR", stockLimit: 1 },
    });
    expect(link.status(), await link.text()).toBe(201);
    return ((await link.json()) as { token: string }).token;
  }

  const stateOf = async (token: string) =>
    (await (await buyer.get(`/public/links/${token}`)).json()) as PublicState;

  test("the link page says all units are reserved and when one comes back", async ({
    page,
    consoleErrors: _,
  }) => {
    const token = await lastUnitLink("Last print");
    const started = await buyer.post("/stripe/checkout", {
      data: { token, email: uniqueEmail("holder"), locale: "en" },
    });
    expect(started.status(), await started.text()).toBe(201);
    const { orderId, checkoutSecret } = (await started.json()) as { orderId: string; checkoutSecret: string };

    await page.goto(`/v/${token}`);
    const notice = page.getByTestId("reserved-out");
    await expect(notice).toContainText("All reserved for now.");
    await expect(notice).toContainText(/one is back in (9|10) minutes\./);
    await expect(page.getByRole("link", { name: "Buy now" })).toHaveCount(0);
    await expect(page.getByText("Sold out.")).toHaveCount(0);

    // Checkout says the same, from the same rule.
    await page.goto(`/checkout/${token}`);
    await expect(page.getByTestId("reserved-out")).toContainText(
      /All remaining units are reserved by buyers paying now\. If they do not finish, one is back in (9|10) minutes\./,
    );
    await expect(page.getByRole("button", { name: "Continue to payment" })).toHaveCount(0);

    // The holder leaves: the cached page is refreshed and the link is for sale again.
    const cancel = await buyer.post(`/checkout/${orderId}/cancel?secret=${checkoutSecret}`);
    expect(cancel.status()).toBe(200);
    await expect(async () => {
      await page.goto(`/v/${token}`);
      await expect(page.getByRole("link", { name: "Buy now" })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(page.getByTestId("reserved-out")).toHaveCount(0);
  });

  test("leaving the checkout, by its back link or by closing the tab, gives the unit back", async ({
    page,
    context,
    consoleErrors: _,
  }) => {
    const token = await lastUnitLink("Last preset");

    /** Starts a checkout in `tab` (the unit is then held) and waits for the card form. */
    const hold = async (tab: typeof page) => {
      await tab.goto(`/checkout/${token}`);
      await tab.getByLabel("E-mail").fill(uniqueEmail("leaver"));
      await tab.getByRole("button", { name: "Continue to payment" }).click();
      await expect(tab.getByRole("button", { name: "Pay €20.00" })).toBeVisible();
      await expect.poll(async () => (await stateOf(token)).reservedOut, { timeout: 10_000 }).toBe(true);
    };

    await hold(page);
    await page.getByRole("link", { name: "Back to the product" }).click();
    await expect(page).toHaveURL(`/v/${token}`);
    await expect.poll(async () => (await stateOf(token)).reservedOut, { timeout: 10_000 }).toBe(false);

    const tab = await context.newPage();
    await hold(tab);
    await tab.close({ runBeforeUnload: true });
    await expect
      .poll(async () => stateOf(token), { timeout: 10_000 })
      .toMatchObject({ soldOut: false, reservedOut: false, availableAgainAt: null });
  });
});
