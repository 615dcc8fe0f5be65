import path from "node:path";
import { type APIRequestContext, type BrowserContext, type Page, request } from "@playwright/test";
import { countryIn, type Locale, money, rate, words } from "../fixtures/messages.ts";
import { demoEmail, demoPassword, expect, test, uniqueEmail, watchConsole } from "../fixtures.ts";
import { fakeStripeUrl, stripeApiUrl, stripeWebUrl } from "../playwright.config.ts";

/*
 * Decision 040 in Chromium: the Stripe checkout confirmed by our server, against the e2e API on
 * Stripe (project "stripe": its own API and web app) and the fake Stripe server. Stripe.js cannot
 * load here: e2e/fixtures/fake-stripe.js stands in for it at https://js.stripe.com/v3, and its calls
 * to https://api.stripe.com go to the fake server. Every buyer gives France as billing country and
 * pays with a card issued elsewhere: the page asks which country they live in (issue 22), before
 * anything is charged.
 */

const fakeStripeJs = path.resolve(import.meta.dirname, "../fixtures/fake-stripe.js");
/** The test cards' own texts in the fake Payment Element (fake-stripe.js). */
const TEST_CARD = "Test card";

/** Stripe's two addresses, served by the fakes for every page of the context. */
async function routeStripe(context: BrowserContext) {
  await context.route("https://js.stripe.com/v3", (route) =>
    route.fulfill({ path: fakeStripeJs, contentType: "text/javascript" }),
  );
  await context.route("https://api.stripe.com/**", async (route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({ url: `${fakeStripeUrl}${url.pathname}${url.search}` });
    await route.fulfill({ response });
  });
}

let creator: APIRequestContext;
const links: { excluded: string; included: string } = { excluded: "", included: "" };

test.beforeAll(async () => {
  creator = await request.newContext({ baseURL: stripeApiUrl, extraHTTPHeaders: { origin: stripeWebUrl } });
  const signIn = await creator.post("/auth/signin", {
    data: { email: demoEmail("creator"), password: demoPassword },
  });
  expect(signIn.status()).toBe(200);
  const stamp = Date.now().toString(36).slice(-6);
  const profile = await creator.post("/profiles", {
    data: { displayName: "Stripe Studio", handle: `stripe${stamp}` },
  });
  expect(profile.status(), await profile.text()).toBe(201);
  const { id: profileId } = (await profile.json()) as { id: string };
  for (const kind of ["excluded", "included"] as const) {
    const created = await creator.post("/links", {
      data: {
        profileId,
        title: `Stripe pack ${kind} ${stamp}`,
        priceMinor: 2000,
        currency: "EUR",
        pricesIncludeVat: kind === "included",
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    links[kind] = ((await created.json()) as { token: string }).token;
  }
});
test.afterAll(async () => {
  await creator.dispose();
});

/** From the link's page to Stripe's form, with France as billing country; answers the page. */
async function startCheckout(
  page: Page,
  locale: Locale,
  linkToken: string,
  expected: { vatLine: string; total: number },
) {
  const t = words(locale);
  await page.goto(`/v/${linkToken}`);
  await page.getByRole("link", { name: t("buyer.buy") }).click();
  await page.getByLabel(t("checkout.emailLabel")).fill(uniqueEmail("stripe-buyer"));
  // The browser's region (…-FR) preselects France.
  await expect(page.getByLabel(t("checkout.countryLabel"))).toHaveValue("FR");
  await page.getByRole("button", { name: t("checkout.continue") }).click();
  await expect(page.getByTestId("checkout-vat")).toContainText(expected.vatLine);
  await expect(page.getByTestId("checkout-total")).toHaveText(money(locale, expected.total));
  // Deferred mode: Stripe's element is made with the amount and the lower-case currency.
  const element = page.locator(".fake-stripe-element");
  await expect(element).toHaveAttribute("data-amount", String(expected.total));
  await expect(element).toHaveAttribute("data-currency", "eur");
  await expect(element).toHaveAttribute("data-locale", locale);
}

async function pay(page: Page, locale: Locale, card: string, total: number) {
  const t = words(locale);
  await page.getByLabel(TEST_CARD).selectOption(card);
  await page.getByRole("button", { name: t("checkout.pay", { amount: money(locale, total) }) }).click();
}

/** The question of issue 22, then the buyer's answer. */
async function answerCountry(page: Page, locale: Locale, card: string, livesIn: string) {
  const t = words(locale);
  const names = { card: countryIn(locale, card), billing: countryIn(locale, "FR") };
  await expect(page.getByRole("heading", { name: t("checkout.countryQuestionTitle") })).toBeFocused();
  await expect(page.getByText(t("checkout.countryQuestion", names))).toBeVisible();
  await page
    .getByRole("button", { name: t("checkout.liveIn", { country: countryIn(locale, livesIn) }) })
    .click();
}

/** The success page, then the order page's VAT line. */
async function expectPaid(page: Page, locale: Locale, vatLine: string) {
  const t = words(locale);
  await expect(page.getByRole("heading", { name: t("checkout.successTitle") })).toBeVisible({
    timeout: 20_000,
  });
  await page.getByRole("link", { name: t("checkout.openOrder") }).click();
  await expect(page).toHaveURL(/\/order\/[A-Za-z0-9_-]{43}$/, { timeout: 20_000 });
  await expect(page.getByText(vatLine)).toBeVisible();
}

for (const locale of ["en", "fr"] as const) {
  test(`(${locale}) VAT added: a German card, the buyer lives in Germany, 19 % is charged`, async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const t = words(locale);
    const context = await browser.newContext({ locale: `${locale}-FR` });
    await routeStripe(context);
    const page = await context.newPage();
    const errors = watchConsole(page);
    await startCheckout(page, locale, links.excluded, {
      vatLine: t("checkout.vatAddedLine", { country: "FR", rate: rate(locale, 2000) }),
      total: 2400,
    });
    await pay(page, locale, "pm_card_de", 2400);
    await answerCountry(page, locale, "DE", "DE");
    // €20.00 plus Germany's 19 %: €23.80 is what Stripe charged.
    await expectPaid(
      page,
      locale,
      t("invoices.vatAdded", {
        rate: rate(locale, 1900),
        country: countryIn(locale, "DE"),
        amount: money(locale, 380),
      }),
    );
    await expect(page.getByText(money(locale, 2380)).first()).toBeVisible();
    expect(errors, "browser console errors").toEqual([]);
    await context.close();
  });
}

test("a declined card shows the bank's refusal, the summary follows the VAT decided, another card pays", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const t = words("en");
  const context = await browser.newContext({ locale: "en-FR" });
  await routeStripe(context);
  const page = await context.newPage();
  const errors = watchConsole(page);
  await startCheckout(page, "en", links.excluded, {
    vatLine: t("checkout.vatAddedLine", { country: "FR", rate: rate("en", 2000) }),
    total: 2400,
  });
  // Stripe's declining test card is American: the buyer says they live there, so no EU VAT.
  await pay(page, "en", "pm_card_chargeDeclined", 2400);
  await answerCountry(page, "en", "US", "US");
  const alert = page.getByRole("alert").filter({ hasText: t("checkout.declinedTitle") });
  await expect(alert).toContainText("Your card was declined.");
  await expect(alert).toContainText(t("checkout.declinedHelp"));
  // What is charged now: the summary, the button and Stripe's element follow the API's answer.
  await expect(page.getByTestId("checkout-vat")).toHaveText(t("checkout.vatOutside"));
  await expect(page.getByTestId("checkout-total")).toHaveText(money("en", 2000));
  await expect(page.locator(".fake-stripe-element")).toHaveAttribute("data-amount", "2000");
  // The form is usable again: a French card, which agrees with France, pays with French VAT.
  await pay(page, "en", "pm_card_fr", 2000);
  await expectPaid(
    page,
    "en",
    t("invoices.vatAdded", {
      rate: rate("en", 2000),
      country: countryIn("en", "FR"),
      amount: money("en", 400),
    }),
  );
  expect(errors, "browser console errors").toEqual([]);
  await context.close();
});

test("VAT included: a card that needs 3-D Secure is authenticated by Stripe.js, then paid", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const t = words("en");
  const context = await browser.newContext({ locale: "en-FR" });
  await routeStripe(context);
  const page = await context.newPage();
  const errors = watchConsole(page);
  const authenticated: string[] = [];
  page.on("request", (req) => {
    if (/\/v1\/payment_intents\/[^/]+\/fake_authenticate$/.test(req.url())) authenticated.push(req.url());
  });
  await startCheckout(page, "en", links.included, {
    vatLine: t("checkout.vatIncludedLine", { country: "FR", rate: rate("en", 2000) }),
    total: 2000,
  });
  await pay(page, "en", "pm_card_authenticationRequired", 2000);
  await answerCountry(page, "en", "DE", "DE");
  // The price stays €20.00, Germany's 19 % inside it.
  await expectPaid(
    page,
    "en",
    t("invoices.vatStandard", {
      rate: rate("en", 1900),
      country: countryIn("en", "DE"),
      amount: money("en", 319),
    }),
  );
  expect(authenticated).toHaveLength(1);
  expect(errors, "browser console errors").toEqual([]);
  await context.close();
});
