import { type APIRequestContext, type Browser, type Page, request } from "@playwright/test";
import { apiAs, expect, test, uniqueEmail } from "../fixtures.ts";
import { apiUrl, webUrl } from "../playwright.config.ts";

/**
 * Issue 17, item 5: the buyer pages exist under a public and an /app prefix (spec section 2), and a
 * buyer stays under the prefix they came in by, through promo code, payment, result and order.
 * Each test sells a link of its own: the web app keeps the API's answers about a link for minutes,
 * so a seeded token's page may still show another run's creator.
 */

interface Shop {
  creatorId: string;
  creatorName: string;
  token: string;
  title: string;
  code: string;
}

/** A new profile of the demo creator with a €15.00 link and a 20 % code. */
async function openShop(): Promise<Shop> {
  const creator = await apiAs("creator");
  try {
    const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const creatorName = `Prefix Shop ${suffix}`;
    const profile = await creator.post("/profiles", {
      data: { displayName: creatorName, handle: `prefix_${suffix}` },
    });
    expect(profile.status(), await profile.text()).toBe(201);
    const { id: creatorId } = (await profile.json()) as { id: string };
    const title = `Prefix pack ${suffix}`;
    const link = await creator.post("/links", {
      data: { profileId: creatorId, title, priceMinor: 1500, currency: "EUR" },
    });
    expect(link.status(), await link.text()).toBe(201);
    const { id: linkId, token } = (await link.json()) as { id: string; token: string };
    const portfolio = await creator.put(`/profiles/${creatorId}/portfolio`, { data: { linkIds: [linkId] } });
    expect(portfolio.ok(), await portfolio.text()).toBe(true);
    const code = `APP${suffix}`.toUpperCase().slice(0, 32);
    const promo = await creator.post("/promo-codes", { data: { kind: "percent", value: 20, code } });
    expect(promo.status(), await promo.text()).toBe(201);
    return { creatorId, creatorName, token, title, code };
  } finally {
    await creator.dispose();
  }
}

/** A paid order of `token`, bought through the API with the sandbox's test card: its order token. */
async function paidOrderToken(token: string): Promise<string> {
  const api: APIRequestContext = await request.newContext({
    baseURL: apiUrl,
    extraHTTPHeaders: { origin: webUrl },
  });
  try {
    const checkout = await api.post("/stripe/checkout", {
      data: { token, email: uniqueEmail("prefix-buyer"), locale: "en" },
    });
    expect(checkout.status(), await checkout.text()).toBe(201);
    const { orderId, checkoutSecret, paymentId } = (await checkout.json()) as {
      orderId: string;
      checkoutSecret: string;
      paymentId: string;
    };
    const confirm = await api.post(`/sandbox/payments/${paymentId}/confirm`, {
      data: { card: "4242424242424242", expiry: "12/34", cvc: "123" },
    });
    expect(confirm.ok()).toBe(true);
    let orderToken = "";
    await expect
      .poll(
        async () => {
          const res = await api.get(`/checkout/${orderId}?secret=${checkoutSecret}`);
          orderToken = ((await res.json()) as { orderToken?: string | null }).orderToken ?? "";
          return orderToken;
        },
        { timeout: 20_000 },
      )
      .toMatch(/^[A-Za-z0-9_-]{43}$/);
    return orderToken;
  } finally {
    await api.dispose();
  }
}

/** The server's HTML of `path`, read without JavaScript: what a no-JS visitor can follow. */
async function withoutJs(browser: Browser, path: string, read: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(200);
    await read(page);
  } finally {
    await context.close();
  }
}

test.describe("buyer pages keep the prefix the buyer came in by", () => {
  test.setTimeout(60_000);

  test("a purchase started at /app/links/{token} stays under /app to the order page", async ({
    page,
    consoleErrors: _,
  }) => {
    const shop = await openShop();
    const visited: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });

    await page.goto(`/app/links/${shop.token}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(shop.title);
    await expect(page.getByRole("link", { name: `Sold by ${shop.creatorName}` })).toHaveAttribute(
      "href",
      `/app/creator/${shop.creatorId}`,
    );
    await page.getByLabel("Promo code").fill(shop.code.toLowerCase());
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByTestId("price")).toHaveText("€12.00");
    await expect(page.getByRole("link", { name: "Buy now" })).toHaveAttribute(
      "href",
      `/app/payment/${shop.token}?promo=${shop.code}`,
    );
    await page.getByRole("link", { name: "Buy now" }).click();

    await expect(page).toHaveURL(`/app/payment/${shop.token}?promo=${shop.code}`);
    await expect(page.getByText(`Code ${shop.code} applied.`)).toBeVisible();
    await expect(page.getByRole("link", { name: /Back/ })).toHaveAttribute(
      "href",
      `/app/links/${shop.token}`,
    );
    await page.getByLabel("E-mail").fill(uniqueEmail("app-buyer"));
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry date (MM/YY)").fill("12/34");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Pay €12.00" }).click();

    await expect(page).toHaveURL(/\/app\/payment\/success\?order=[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 15_000 });
    await page.getByRole("link", { name: "Open your order" }).click();
    await expect(page).toHaveURL(/\/app\/links\/order\/[A-Za-z0-9_-]{43}$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(shop.title);
    await expect(page.getByRole("link", { name: shop.creatorName })).toHaveAttribute(
      "href",
      `/app/creator/${shop.creatorId}`,
    );

    // Every page of the journey was an /app page.
    expect(visited.length).toBeGreaterThanOrEqual(4);
    expect(visited.filter((path) => !path.startsWith("/app/"))).toEqual([]);
  });

  test("without JavaScript, the /app pages link to /app pages and the public pages to public ones", async ({
    browser,
  }) => {
    const shop = await openShop();
    const order = await paidOrderToken(shop.token);

    for (const prefix of [
      { link: "/app/links/", creator: "/app/creator/", pay: "/app/payment/", order: "/app/links/order/" },
      { link: "/v/", creator: "/c/", pay: "/checkout/", order: "/order/" },
    ]) {
      // The link page: the creator chip and "Buy now".
      await withoutJs(browser, `${prefix.link}${shop.token}`, async (page) => {
        await expect(page.getByRole("link", { name: `Sold by ${shop.creatorName}` })).toHaveAttribute(
          "href",
          `${prefix.creator}${shop.creatorId}`,
        );
        await expect(page.getByRole("link", { name: "Buy now" })).toHaveAttribute(
          "href",
          `${prefix.pay}${shop.token}`,
        );
      });

      // The creator page: every product card.
      await withoutJs(browser, `${prefix.creator}${shop.creatorId}`, async (page) => {
        const cards = page.getByRole("region", { name: "Products" }).getByRole("link");
        await expect(cards).toHaveCount(1);
        await expect(cards).toHaveAttribute("href", `${prefix.link}${shop.token}`);
      });

      // The order page: "Sold by" the creator.
      await withoutJs(browser, `${prefix.order}${order}`, async (page) => {
        await expect(page.getByRole("link", { name: shop.creatorName })).toHaveAttribute(
          "href",
          `${prefix.creator}${shop.creatorId}`,
        );
      });
    }
  });
});
