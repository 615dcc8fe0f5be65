import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, request } from "@playwright/test";
import { expect, signInAs, test, uniqueEmail, watchConsole } from "../fixtures.ts";
import { apiUrl } from "../playwright.config.ts";
import { freshAccount } from "./identity-helpers.ts";

/*
 * Issue 22: a French consumer (in French), a German and a Hungarian consumer, a buyer whose card
 * contradicts their billing country (asked, before the charge), and a German business with a valid
 * VAT number buy the same €20.00 link (VAT included) in Chromium; each pays the price,
 * the VAT of their country is in it (none for the business: reverse charge), and each order page
 * gives an invoice; a refund gives a credit note; the admin's One-Stop Shop screen matches the ledger.
 */

type Locale = "en" | "fr";
type Messages = Record<string, unknown>;
const here = path.dirname(fileURLToPath(import.meta.url));
const messagesDir = path.resolve(here, "../../apps/web/messages");
const catalogues: Record<Locale, Messages> = {
  en: JSON.parse(readFileSync(path.join(messagesDir, "en.json"), "utf8")) as Messages,
  fr: JSON.parse(readFileSync(path.join(messagesDir, "fr.json"), "utf8")) as Messages,
};

function words(locale: Locale) {
  return (id: string, values: Record<string, string> = {}): string => {
    let node: unknown = catalogues[locale];
    for (const part of id.split(".")) node = (node as Messages)[part];
    if (typeof node !== "string") throw new Error(`no message ${id} in ${locale}`);
    return node.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
  };
}

const money = (locale: string, minor: number) =>
  new Intl.NumberFormat(locale, { style: "currency", currency: "EUR" }).format(minor / 100);
const rate = (locale: string, bps: number) =>
  new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 }).format(bps / 10_000);

interface Buyer {
  label: string;
  /** The card's country contradicts the billing one: the sandbox asks, and the buyer answers this. */
  livesIn?: string;
  /** The browser's language: the page's language and the preselected country follow it. */
  browserLocale: string;
  locale: Locale;
  country: string;
  card: string;
  business?: { vatNumber: string; name: string };
  /** What the VAT line says, in the page's words. */
  vatLine: (t: ReturnType<typeof words>) => string;
  vatMinor: number;
}

const buyers: Buyer[] = [
  {
    label: "French consumer",
    browserLocale: "fr-FR",
    locale: "fr",
    country: "FR",
    card: "4000 0025 0000 0003",
    vatLine: (t) => t("checkout.vatIncludedLine", { country: "FR", rate: rate("fr", 2000) }),
    vatMinor: 333,
  },
  {
    label: "German consumer",
    browserLocale: "de-DE",
    locale: "en",
    country: "DE",
    card: "4000 0027 6000 0016",
    vatLine: (t) => t("checkout.vatIncludedLine", { country: "DE", rate: rate("en", 1900) }),
    vatMinor: 319,
  },
  {
    label: "Hungarian consumer",
    browserLocale: "hu-HU",
    locale: "en",
    country: "HU",
    card: "4000 0034 8000 0005",
    vatLine: (t) => t("checkout.vatIncludedLine", { country: "HU", rate: rate("en", 2700) }),
    vatMinor: 425,
  },
  {
    label: "French billing, German card: lives in Germany",
    browserLocale: "en-FR",
    locale: "en",
    country: "FR",
    card: "4000 0027 6000 0016",
    livesIn: "DE",
    vatLine: (t) => t("checkout.vatIncludedLine", { country: "FR", rate: rate("en", 2000) }),
    vatMinor: 333,
  },
  {
    label: "German business",
    browserLocale: "de-DE",
    locale: "en",
    country: "DE",
    card: "4000 0027 6000 0016",
    business: { vatNumber: "DE136695976", name: "Muster GmbH" },
    vatLine: (t) => t("checkout.vatReverseCharge"),
    vatMinor: 0,
  },
];

/** One buyer's purchase in a browser of their own; answers the order page's address and its e-mail. */
async function buyAs(browser: Browser, buyer: Buyer, linkToken: string): Promise<{ orderUrl: string }> {
  const t = words(buyer.locale);
  const context = await browser.newContext({ locale: buyer.browserLocale });
  const page = await context.newPage();
  const errors = watchConsole(page);
  await page.goto(`/v/${linkToken}`);
  await expect(page.getByTestId("vat-note")).toHaveText(t("buyer.vatIncluded"));
  await page.getByRole("link", { name: t("buyer.buy") }).click();
  await page
    .getByLabel(t("checkout.emailLabel"))
    .fill(uniqueEmail(`vat-${buyer.livesIn ? "asked" : buyer.country.toLowerCase()}`));
  // The browser's region preselects the country.
  await expect(page.getByLabel(t("checkout.countryLabel"))).toHaveValue(buyer.country);
  if (buyer.business) {
    await page.getByLabel(t("checkout.businessToggle")).check();
    await page.getByLabel(t("checkout.vatNumberLabel")).fill(buyer.business.vatNumber);
    await page.getByLabel(t("checkout.companyLabel")).fill(buyer.business.name);
  }
  await page.getByRole("button", { name: t("checkout.continue") }).click();
  await expect(page.getByTestId("checkout-vat")).toContainText(buyer.vatLine(t));
  if (buyer.vatMinor > 0)
    await expect(page.getByTestId("checkout-vat")).toContainText(money(buyer.locale, buyer.vatMinor));
  const total = money(buyer.locale, 2000);
  await expect(page.getByTestId("checkout-total")).toHaveText(total);
  await page.getByLabel(t("checkout.cardNumber")).fill(buyer.card);
  await page.getByLabel(t("checkout.expiry")).fill("12/34");
  await page.getByLabel(t("checkout.cvc")).fill("123");
  await page.getByRole("button", { name: t("checkout.pay", { amount: total }) }).click();
  if (buyer.livesIn) {
    // Nothing is charged until the buyer says which of the two countries is theirs.
    const names = new Intl.DisplayNames([buyer.locale], { type: "region" });
    const card = names.of(buyer.livesIn) ?? buyer.livesIn;
    const billing = names.of(buyer.country) ?? buyer.country;
    await expect(page.getByText(t("checkout.countryQuestion", { card, billing }))).toBeVisible();
    await page.getByRole("button", { name: t("checkout.liveIn", { country: card }) }).click();
  }
  await expect(page.getByRole("heading", { name: t("checkout.successTitle") })).toBeVisible({
    timeout: 20_000,
  });
  await page.getByRole("link", { name: t("checkout.openOrder") }).click();
  await expect(page).toHaveURL(/\/order\/[A-Za-z0-9_-]{43}$/, { timeout: 20_000 });

  // The order page: its VAT line and its invoice, a PDF.
  if (buyer.livesIn) {
    // The answer decided: Germany's 19 %, in the same price.
    const country = new Intl.DisplayNames([buyer.locale], { type: "region" }).of(buyer.livesIn) ?? "";
    await expect(
      page.getByText(
        t("invoices.vatStandard", {
          rate: rate(buyer.locale, 1900),
          country,
          amount: money(buyer.locale, 319),
        }),
      ),
    ).toBeVisible();
  }
  const invoice = page.getByRole("link", { name: /\(PDF\)$/ });
  await expect(invoice).toHaveCount(1);
  const href = await invoice.getAttribute("href");
  const pdf = await page.request.get(href ?? "");
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toContain("application/pdf");
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
  expect(errors, `${buyer.label}'s console`).toEqual([]);
  const orderUrl = page.url();
  await context.close();
  return { orderUrl };
}

test("five buyers of one link each pay the VAT of their country and get an invoice; a refund a credit note; the OSS matches the ledger", async ({
  browser,
  page,
  consoleErrors: _,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36).slice(-6);
  const creator = await freshAccount("vat-creator", "individual");
  const profile = await creator.api.post("/profiles", {
    data: { displayName: "VAT Studio", handle: `vat${stamp}` },
  });
  expect(profile.status()).toBe(201);
  const { id: profileId } = (await profile.json()) as { id: string };
  const created = await creator.api.post("/links", {
    data: { profileId, title: `Taxed pack ${stamp}`, priceMinor: 2000, currency: "EUR" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { token } = (await created.json()) as { token: string };

  const orders: string[] = [];
  for (const buyer of buyers) orders.push((await buyAs(browser, buyer, token)).orderUrl);

  // The creator refunds half of the French sale: a credit note follows on its order page.
  const api = await request.newContext({ baseURL: apiUrl });
  const found = await creator.api.get("/customers?q=vat-fr-&limit=10");
  expect(found.status()).toBe(200);
  const { items } = (await found.json()) as { items: { id: string }[] };
  expect(items.length).toBe(1);
  const customer = (await (await creator.api.get(`/customers/${items[0]?.id}`)).json()) as {
    orders: { id: string }[];
  };
  const saleId = customer.orders[0]?.id ?? "";
  const refunded = await creator.api.post(`/sales/${saleId}/refunds`, {
    data: { amountMinor: 1000, reason: "Half" },
  });
  expect(refunded.status(), await refunded.text()).toBe(202);
  const buyerPage = await browser.newPage({ locale: "fr-FR" });
  await expect
    .poll(
      async () => {
        await buyerPage.goto(orders[0] ?? "");
        return buyerPage.getByRole("link", { name: /\(PDF\)$/ }).count();
      },
      { timeout: 20_000 },
    )
    .toBe(2);
  await buyerPage.close();
  await api.dispose();

  // The admin's One-Stop Shop screen: France, Germany and Hungary, checked against the ledger.
  await signInAs(page, "admin");
  await page.goto("/admin/vat");
  const t = words("en");
  await expect(page.getByRole("heading", { level: 1, name: t("adminOps.vat.title") })).toBeVisible();
  await expect(page.getByText(t("adminOps.vat.matches"))).toBeVisible({ timeout: 20_000 });
  for (const country of ["FR", "DE", "HU"]) {
    await expect(
      page
        .getByRole("row")
        .filter({
          hasText: new RegExp(
            `\\b${country}\\b|${new Intl.DisplayNames(["en"], { type: "region" }).of(country)}`,
          ),
        })
        .first(),
    ).toBeVisible();
  }
  const csv = page.getByRole("link", { name: t("adminOps.vat.downloadCsv") });
  await expect(csv).toHaveAttribute("href", /oss\.csv/);
});
