import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { apiAs, expect, signInAs, test, watchConsole } from "../fixtures.ts";
import { webUrl } from "../playwright.config.ts";
import { freshAccount, signIn } from "./identity-helpers.ts";
import { sellOnce } from "./sale-helpers.ts";

/*
 * Issue 17, "Screens": the header on one row, no English on French and Spanish pages, the admin
 * reports' pictures, the withdraw hint at a zero balance, the account area's frame and landmarks,
 * the dashboard's latest orders on a phone, and a new link on its creator's page.
 */

const photo = readFileSync(path.resolve(import.meta.dirname, "../../apps/api/test/fixtures/files/photo.png"));
const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const french = { email: "E-mail", password: "Mot de passe", signIn: "Se connecter" };
const spanish = { email: "Correo electrónico", password: "Contraseña", signIn: "Iniciar sesión" };

async function contextIn(
  browser: Browser,
  locale: "fr" | "es" | "en",
  viewport: { width: number; height: number },
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  await context.addCookies([{ name: "NEXT_LOCALE", value: locale, url: webUrl }]);
  return context;
}

/** Everything one can use in the site header, as laid out on screen. */
async function headerItems(page: Page): Promise<{ header: DOMRect; items: DOMRect[] }> {
  const banner = page.getByRole("banner");
  await expect(banner.getByRole("button").last()).toBeVisible();
  return banner.evaluate((el) => {
    const visible = Array.from(el.querySelectorAll<HTMLElement>("a, button, select")).filter(
      (item) => item.getClientRects().length > 0 && getComputedStyle(item).visibility !== "hidden",
    );
    return {
      header: el.getBoundingClientRect().toJSON() as DOMRect,
      items: visible.map((item) => item.getBoundingClientRect().toJSON() as DOMRect),
    };
  });
}

/** One row: every item's middle on the header's middle line, and the header no taller than a row. */
async function expectHeaderOnOneRow(page: Page, maxHeight: number) {
  const { header, items } = await headerItems(page);
  expect(items.length).toBeGreaterThan(3);
  expect(header.height, "header height").toBeLessThanOrEqual(maxHeight);
  const middle = header.top + header.height / 2;
  for (const item of items) expect(Math.abs(item.top + item.height / 2 - middle)).toBeLessThan(6);
}

async function box(locator: Locator) {
  const rect = await locator.boundingBox();
  if (!rect) throw new Error("not laid out");
  return rect;
}

test.describe("screens", () => {
  // Sign-ups through the API, a sale through the sandbox, and many pages visited one after another.
  test.setTimeout(120_000);

  test("the French header fits one row at 1280 px when signed in", async ({ browser }) => {
    const account = await freshAccount("screens-header", "individual", "fr");
    const context = await contextIn(browser, "fr", { width: 1280, height: 800 });
    const page = await context.newPage();
    const errors = watchConsole(page);
    try {
      await signIn(page, account.email, french);
      await expect(page.getByRole("banner").getByRole("button", { name: "Se déconnecter" })).toBeVisible();
      await expectHeaderOnOneRow(page, 72);
      expect(errors, "browser console errors").toEqual([]);
    } finally {
      await context.close();
      await account.api.dispose();
    }
  });

  test("the Spanish payouts page: no English badge, and at a zero balance the hint says what is missing", async ({
    browser,
  }) => {
    const account = await freshAccount("screens-wallet", "individual", "es");
    const context = await contextIn(browser, "es", { width: 1280, height: 800 });
    const page = await context.newPage();
    const errors = watchConsole(page);
    try {
      await signIn(page, account.email, spanish);
      // The withdraw form lives on the payouts page since issue 23.
      await page.goto("/account/payouts");
      const identity = page.getByRole("region", { name: "Verificación de identidad" });
      await expect(identity.getByText("Pruebas", { exact: true })).toBeVisible();
      await expect(page.getByRole("main").getByText("Sandbox")).toHaveCount(0);
      const amount = page.getByRole("textbox", { name: /Importe/ });
      await expect(amount).toHaveAccessibleDescription(
        /La transferencia mínima es de 10,00\s€: con 10,00\s€ más podrás retirar\./,
      );
      await expect(page.getByText(/a 0,00\s€/)).toHaveCount(0);
      expect(errors, "browser console errors").toEqual([]);
    } finally {
      await context.close();
      await account.api.dispose();
    }
  });

  test("admin reports: a reported link's picture loads from the API", async ({ page, consoleErrors: _ }) => {
    const creator = await apiAs("creator");
    const id = stamp();
    const title = `Reported cover ${id}`;
    try {
      const profile = await creator.post("/profiles", {
        data: { displayName: "Screens", handle: `scr${id}` },
      });
      expect(profile.status()).toBe(201);
      const upload = await creator.post("/upload?use=cover", {
        multipart: { file: { name: "photo.png", mimeType: "image/png", buffer: photo } },
      });
      expect(upload.status(), await upload.text()).toBe(201);
      const link = await creator.post("/links", {
        data: {
          profileId: ((await profile.json()) as { id: string }).id,
          title,
          priceMinor: 1500,
          currency: "EUR",
          coverFileId: ((await upload.json()) as { id: string }).id,
        },
      });
      expect(link.status()).toBe(201);
      const { token } = (await link.json()) as { token: string };
      const report = await creator.post("/report", {
        data: { token, reason: "other", message: `The picture is not mine (${id}).` },
      });
      expect(report.status(), await report.text()).toBe(201);
    } finally {
      await creator.dispose();
    }

    const broken: string[] = [];
    page.on("response", (res) => {
      if (res.request().resourceType() === "image" && res.status() >= 400) broken.push(res.url());
    });
    page.on("requestfailed", (req) => {
      if (req.resourceType() === "image") broken.push(req.url());
    });
    await signInAs(page, "admin");
    await page.goto("/admin/reports");
    const row = page.getByRole("listitem", { name: `Report on ${title}` });
    const picture = row.getByRole("img", { name: `Preview of ${title}` });
    await expect(picture).toBeVisible();
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    expect(broken, "pictures that failed to load").toEqual([]);
  });

  test("the account area: one main landmark and the same columns on every page", async ({
    page,
    consoleErrors: _,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInAs(page, "creator");
    const pages = [
      "/account",
      "/account/links",
      "/account/wallet",
      "/account/payouts",
      "/account/affiliates",
      "/account/promo-codes",
      "/account/portfolio",
      "/account/profiles",
      "/account/settings",
    ];
    const frames: { path: string; nav: { x: number; width: number }; main: { x: number; width: number } }[] =
      [];
    for (const path of pages) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }), path).toBeVisible();
      await expect(page.getByRole("main"), path).toHaveCount(1);
      const nav = await box(page.getByRole("navigation", { name: "Account" }));
      const main = await box(page.getByRole("main"));
      frames.push({ path, nav: { x: nav.x, width: nav.width }, main: { x: main.x, width: main.width } });
    }
    const [first] = frames;
    for (const frame of frames) {
      expect({ path: frame.path, nav: frame.nav, main: frame.main }).toEqual({
        path: frame.path,
        nav: first?.nav,
        main: first?.main,
      });
    }
  });

  test("the admin console: one main landmark on every page", async ({ page, consoleErrors: _ }) => {
    await signInAs(page, "admin");
    for (const path of [
      "/admin",
      "/admin/payouts",
      "/admin/reports",
      "/admin/accounts",
      "/admin/orders",
      "/admin/identity",
      "/admin/maintenance",
      "/admin/audit",
      "/admin/referrals",
    ]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }), path).toBeVisible();
      await expect(page.getByRole("main"), path).toHaveCount(1);
    }
  });

  test("on a phone: the header takes one row, the latest orders show every column and take the keyboard", async ({
    browser,
  }) => {
    const account = await freshAccount("screens-phone", "individual");
    const id = stamp();
    const sale = await sellOnce(account.api, {
      displayName: "Phone shop",
      handle: `ph${id}`,
      title: `Phone pack ${id}`,
      buyer: "screens-buyer",
    });
    const context = await contextIn(browser, "en", { width: 390, height: 844 });
    const page = await context.newPage();
    const errors = watchConsole(page);
    try {
      await signIn(page, account.email);
      await expectHeaderOnOneRow(page, 64);

      const orders = page.getByRole("region", { name: "Latest orders" });
      const row = orders.getByRole("row").filter({ hasText: sale.title });
      await expect(row).toBeVisible();
      for (const [column, text] of [
        ["Link", sale.title],
        ["Amount", /€20\.00/],
        ["Status", "Paid"],
        ["Date", /\d/],
        ["Buyer", /@/],
      ] as const) {
        const cell = row.locator(`[data-label="${column}"]`);
        await expect(cell, column).toContainText(text);
        const rect = await box(cell);
        expect(rect.x, column).toBeGreaterThanOrEqual(0);
        expect(rect.x + rect.width, column).toBeLessThanOrEqual(390);
      }

      // The list is reachable with the Tab key, as every part of the page must be.
      await page.getByRole("heading", { level: 1 }).click();
      let reached = false;
      for (let i = 0; i < 40 && !reached; i++) {
        await page.keyboard.press("Tab");
        reached = await orders.evaluate((el) => el.contains(document.activeElement));
      }
      expect(reached, "the latest orders were reached by keyboard").toBe(true);
      expect(errors, "browser console errors").toEqual([]);
    } finally {
      await context.close();
      await account.api.dispose();
    }
  });

  test("a new link is on its creator page, where 'Sold by' leads (JavaScript off)", async ({ browser }) => {
    const creator: APIRequestContext = await apiAs("creator");
    const id = stamp();
    const title = `Fresh pack ${id}`;
    let token = "";
    let profileId = "";
    try {
      const profile = await creator.post("/profiles", {
        data: { displayName: `Fresh ${id}`, handle: `fr${id}` },
      });
      expect(profile.status()).toBe(201);
      profileId = ((await profile.json()) as { id: string }).id;
      const link = await creator.post("/links", {
        data: { profileId, title, priceMinor: 1200, currency: "EUR" },
      });
      expect(link.status()).toBe(201);
      token = ((await link.json()) as { token: string }).token;
    } finally {
      await creator.dispose();
    }

    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`/v/${token}`);
      await page.getByRole("link", { name: /Sold by/ }).click();
      await expect(page).toHaveURL(new RegExp(`/c/${profileId}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Fresh ${id}`);
      await expect(page.getByRole("link", { name: new RegExp(title) })).toHaveAttribute(
        "href",
        `/v/${token}`,
      );
      await expect(page.getByText(/nothing on sale/)).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
});
