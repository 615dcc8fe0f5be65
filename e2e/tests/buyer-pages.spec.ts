import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { apiAs, expect, test } from "../fixtures.ts";
import { webUrl } from "../playwright.config.ts";

const photo = readFileSync(path.resolve(import.meta.dirname, "../../apps/api/test/fixtures/files/photo.png"));

interface Seeded {
  profileId: string;
  handle: string;
  linkId: string;
  token: string;
  pausedToken: string;
  code: string;
}

async function upload(api: APIRequestContext, use: "content" | "cover"): Promise<string> {
  const res = await api.post(`/upload?use=${use}`, {
    multipart: { file: { name: "photo.png", mimeType: "image/png", buffer: photo } },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function created<T>(res: Awaited<ReturnType<APIRequestContext["post"]>>): Promise<T> {
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as T;
}

/** A creator with a profile, two links (one then paused), a portfolio and a 25 % promo code. */
async function seed(api: APIRequestContext): Promise<Seeded> {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const handle = `buyer_${suffix}`;
  const profile = await created<{ id: string }>(
    await api.post("/profiles", {
      data: {
        displayName: "E2E Shop",
        handle,
        bio: "Prints and presets.\nMade for the browser tests.",
        socialLinks: ["https://example.com/e2e-shop"],
      },
    }),
  );
  const fileId = await upload(api, "content");
  const coverFileId = await upload(api, "cover");
  const link = await created<{ id: string; token: string }>(
    await api.post("/links", {
      data: {
        profileId: profile.id,
        title: `Sunset pack ${suffix}`,
        description: "Ten photos.\nFull resolution.",
        priceMinor: 2000,
        currency: "EUR",
        fileId,
        coverFileId,
      },
    }),
  );
  const paused = await created<{ id: string; token: string }>(
    await api.post("/links", {
      data: { profileId: profile.id, title: "Paused pack", priceMinor: 500, currency: "EUR", fileId },
    }),
  );
  expect((await api.post(`/links/${paused.id}/pause`)).ok()).toBe(true);
  const code = `E2E${suffix.toUpperCase()}`.slice(0, 32);
  await created(await api.post("/promo-codes", { data: { kind: "percent", value: 25, code } }));
  const portfolio = await api.put(`/profiles/${profile.id}/portfolio`, { data: { linkIds: [link.id] } });
  expect(portfolio.ok(), await portfolio.text()).toBe(true);
  return {
    profileId: profile.id,
    handle,
    linkId: link.id,
    token: link.token,
    pausedToken: paused.token,
    code,
  };
}

test.describe("buyer pages", () => {
  test.setTimeout(90_000);
  let api: APIRequestContext;
  let data: Seeded;

  test.beforeAll(async () => {
    api = await apiAs("creator");
    data = await seed(api);
  });
  test.afterAll(async () => {
    await api.dispose();
  });

  test("the purchase view: details, preview, promo code, buy link and share tags", async ({
    page,
    consoleErrors: _,
  }) => {
    const res = await page.goto(`/v/${data.token}`);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Sunset pack /);
    await expect(page.getByRole("link", { name: /E2E Shop/ })).toHaveAttribute(
      "href",
      `/c/${data.profileId}`,
    );
    await expect(page.getByText("Ten photos.")).toBeVisible();
    await expect(page.getByTestId("price")).toHaveText("€20.00");

    const picture = page.getByRole("img", { name: /^Sunset pack / });
    await expect(picture).toBeVisible();
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    const buy = page.getByRole("link", { name: "Buy now" });
    await expect(buy).toHaveAttribute("href", `/checkout/${data.token}`);

    // A refused code: the API's message under the field, the price unchanged.
    const field = page.getByLabel("Promo code");
    await field.fill("NOPE-NOT-A-CODE");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.locator("#promoCode-error")).toBeVisible();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByTestId("price")).toHaveText("€20.00");

    // An empty code is refused before asking the API.
    await field.fill("");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.locator("#promoCode-error")).toHaveText("Enter a promo code.");

    await field.fill(data.code.toLowerCase());
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByTestId("price")).toHaveText("€15.00");
    await expect(page.getByTestId("price-old")).toHaveText("€20.00");
    expect(await page.getByTestId("price-old").evaluate((el) => el.tagName)).toBe("S");
    await expect(page.getByText(`Code ${data.code} (−25%)`)).toBeVisible();
    await expect(buy).toHaveAttribute("href", `/checkout/${data.token}?promo=${data.code}`);

    await page.getByRole("button", { name: "Remove code" }).click();
    await expect(page.getByTestId("price")).toHaveText("€20.00");
    await expect(page.getByTestId("price-old")).toHaveCount(0);
    await expect(buy).toHaveAttribute("href", `/checkout/${data.token}`);

    // Link previews in chats and social networks: absolute URLs, large card.
    const meta = (selector: string) => page.locator(`meta[${selector}]`).getAttribute("content");
    expect(await meta('property="og:image"')).toMatch(/^https?:\/\/[^/]+\/media\/(covers|previews)\//);
    expect(await meta('property="og:url"')).toBe(`${webUrl}/v/${data.token}`);
    expect(await meta('property="og:type"')).toBe("product");
    expect(await meta('name="twitter:card"')).toBe("summary_large_image");
    expect(await meta('name="twitter:image"')).toMatch(/^https?:\/\//);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${webUrl}/v/${data.token}`);
    const image = await meta('property="og:image"');
    expect((await page.request.get(image ?? "")).status()).toBe(200);
  });

  test("/app/links/{token} is the same view, canonical /v/{token}", async ({ page, consoleErrors: _ }) => {
    const res = await page.goto(`/app/links/${data.token}`);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Sunset pack /);
    await expect(page.getByTestId("price")).toHaveText("€20.00");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${webUrl}/v/${data.token}`);
  });

  test("paused, unknown and malformed tokens give the 404 page", async ({ page }) => {
    for (const path of [
      `/v/${data.pausedToken}`,
      "/v/AAAAAAAAAAAAAAAAAAAAAA",
      "/v/not-a-token!",
      `/app/links/${data.pausedToken}`,
      "/c/no_such_creator_here",
    ]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(404);
      await expect(page.getByTestId("error-status")).toHaveText("404");
      await expect(page.getByRole("heading", { name: "Ooops." })).toBeVisible();
    }
  });

  test("in French: French text and French price format", async ({ browser }) => {
    const context = await browser.newContext({ locale: "fr-FR" });
    const page = await context.newPage();
    await page.goto(`/v/${data.token}`);
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.getByRole("link", { name: "Acheter" })).toBeVisible();
    // Intl puts a narrow no-break space before the euro sign.
    await expect(page.getByTestId("price")).toHaveText(/^20,00\s€$/);
    await page.getByLabel("Code promo").fill("NOPE-NOT-A-CODE");
    await page.getByRole("button", { name: "Appliquer" }).click();
    await expect(page.locator("#promoCode-error")).toBeVisible();
    await page.getByLabel("Code promo").fill(data.code);
    await page.getByRole("button", { name: "Appliquer" }).click();
    await expect(page.getByTestId("price")).toHaveText(/^15,00\s€$/);
    await context.close();
  });

  test("the creator page lists the portfolio, by id and by handle", async ({ page, consoleErrors: _ }) => {
    for (const path of [`/c/${data.profileId}`, `/c/${data.handle}`, `/app/creator/${data.profileId}`]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("E2E Shop");
      await expect(page.getByText(`@${data.handle}`)).toBeVisible();
      await expect(page.getByRole("link", { name: "example.com/e2e-shop" })).toHaveAttribute(
        "rel",
        "me noopener",
      );
      const card = page.getByRole("link", { name: /Sunset pack/ });
      // A card keeps the prefix the visitor came in by (issue 17, item 5).
      const linkPrefix = path.startsWith("/app/") ? "/app/links" : "/v";
      await expect(card).toHaveAttribute("href", `${linkPrefix}/${data.token}`);
      await expect(card).toContainText("€20.00");
      // The paused link is not in the portfolio.
      await expect(page.getByText("Paused pack")).toHaveCount(0);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        "href",
        `${webUrl}/c/${data.profileId}`,
      );
      expect(await page.locator('meta[property="og:type"]').getAttribute("content")).toBe("profile");
    }
  });

  test("an edit shows on the next load: the API revalidates the cached page", async ({ page }) => {
    await page.goto(`/v/${data.token}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Sunset pack /);
    const title = `Edited pack ${Date.now().toString(36)}`;
    const res = await api.patch(`/links/${data.linkId}`, { data: { title } });
    expect(res.ok(), await res.text()).toBe(true);
    await expect
      .poll(
        async () => {
          await page.goto(`/v/${data.token}`);
          return page.getByRole("heading", { level: 1 }).textContent();
        },
        { timeout: 15_000, intervals: [500, 1000] },
      )
      .toBe(title);
    await page.goto(`/c/${data.profileId}`);
    await expect(page.getByRole("link", { name: new RegExp(title) })).toBeVisible();
  });

  test("/api/revalidate refuses a caller without the secret", async ({ request }) => {
    const res = await request.post("/api/revalidate", {
      data: { tags: [`link:${data.token}`] },
      headers: { authorization: "Bearer wrong" },
    });
    expect(res.status()).toBe(401);
  });
});
