import { type APIRequestContext, type Browser, type Page, request } from "@playwright/test";
import { type Locale, money, words } from "../fixtures/messages.ts";
import {
  demoEmail,
  demoPassword,
  expect,
  signInThroughPage,
  test,
  uniqueEmail,
  watchConsole,
} from "../fixtures.ts";
import { fakeStripeUrl, stripeApiUrl, stripeWebUrl } from "../playwright.config.ts";
import { type Account, freshAccount, signIn } from "./identity-helpers.ts";

/*
 * Issue 23's whole journey in Chromium, in English and French, on the e2e pair of servers that takes
 * payments through (the fake) Stripe and pays out through the sandbox's bank (playwright.config.ts):
 * a creator with a weekly schedule and sales in euros and pounds is paid on schedule, each currency
 * to the account that takes it, without an operator; a payout above the review threshold waits in
 * the admin queue with its rule until approved; the timeline and the sale page show every step.
 */

const servers = { api: stripeApiUrl, web: stripeWebUrl };
const IBAN = "FR76 3000 6000 0112 3456 7890 189";
const UK = { sortCode: "200000", accountNumber: "55779911" };
const signInWords: Record<Locale, { email: string; password: string; signIn: string }> = {
  en: { email: "E-mail", password: "Password", signIn: "Sign in" },
  fr: { email: "E-mail", password: "Mot de passe", signIn: "Se connecter" },
  es: { email: "Correo electrónico", password: "Contraseña", signIn: "Iniciar sesión" },
};
const browserLocale: Record<Locale, string> = { en: "en-GB", fr: "fr-FR", es: "es-ES" };

/** ISO weekday of today in UTC (the schedules' clock): 1 is Monday. */
const todayIsoWeekday = () => ((new Date().getUTCDay() + 6) % 7) + 1;

async function openAs(browser: Browser, email: string, locale: Locale) {
  const context = await browser.newContext({ locale: browserLocale[locale] });
  const page = await context.newPage();
  const consoleErrors = watchConsole(page);
  await signIn(page, email, signInWords[locale]);
  return { context, page, consoleErrors };
}

/** Identity approved, a euro IBAN and a UK account, through the API (their screens have their specs). */
async function readyToBePaid(creator: APIRequestContext) {
  const session = (await (await creator.post("/identity/sessions", { data: {} })).json()) as { id: string };
  const decided = await creator.post(`/identity/sandbox/sessions/${session.id}/decision`, {
    data: { outcome: "approved" },
  });
  expect(decided.status()).toBe(202);
  await expect
    .poll(async () => ((await (await creator.get("/identity")).json()) as { status: string }).status)
    .toBe("approved");
  for (const body of [
    { holderName: "Ada Lovelace", iban: IBAN },
    { kind: "gb", holderName: "Ada Lovelace", ...UK },
  ]) {
    const bank = await creator.post("/profile/bank-accounts", { data: body });
    expect(bank.status(), await bank.text()).toBe(201);
  }
}

/** A link of the creator's, in `currency`, bought by an American buyer with an American card. */
async function sell(
  creator: APIRequestContext,
  profileId: string,
  title: string,
  priceMinor: number,
  currency: string,
) {
  const link = await creator.post("/links", { data: { profileId, title, priceMinor, currency } });
  expect(link.status(), await link.text()).toBe(201);
  const { token } = (await link.json()) as { token: string };
  const buyer = await request.newContext({
    baseURL: stripeApiUrl,
    extraHTTPHeaders: { origin: stripeWebUrl },
  });
  try {
    const started = await buyer.post("/stripe/checkout", {
      data: { token, email: uniqueEmail("auto-buyer"), locale: "en", billingCountry: "US" },
    });
    expect(started.status(), await started.text()).toBe(201);
    const checkout = (await started.json()) as {
      orderId: string;
      checkoutSecret: string;
      publishableKey: string;
    };
    // What Stripe.js does in the buyer's browser: the Payment Element's card as a ConfirmationToken.
    const made = await fetch(`${fakeStripeUrl}/v1/confirmation_tokens`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ key: checkout.publishableKey, payment_method: "pm_card_visa" }),
    });
    expect(made.status).toBe(200);
    const { id: confirmationToken } = (await made.json()) as { id: string };
    const confirmed = await buyer.post(`/checkout/${checkout.orderId}/confirm`, {
      data: { secret: checkout.checkoutSecret, confirmationToken },
    });
    expect(((await confirmed.json()) as { status: string }).status).toBe("succeeded");
    await expect
      .poll(async () => {
        const res = await buyer.get(`/checkout/${checkout.orderId}?secret=${checkout.checkoutSecret}`);
        return ((await res.json()) as { status: string }).status;
      })
      .toBe("paid");
    return checkout.orderId;
  } finally {
    await buyer.dispose();
  }
}

/** The sales' holds end now (the dev clock route): their nets become available. */
async function release(creator: APIRequestContext, orderIds: string[]) {
  const wallet = (await (await creator.get("/wallet")).json()) as {
    held: { orderId: string; availableAt: string }[];
  };
  const latest = wallet.held
    .filter((h) => orderIds.includes(h.orderId))
    .map((h) => h.availableAt)
    .sort()
    .at(-1);
  if (!latest) throw new Error("the sales are not held");
  const released = await creator.post("/dev/holds/release", { data: { asOf: latest, orderIds } });
  expect(released.status()).toBe(200);
}

/** The payouts page's list item of a payout, by its amount and status. */
const payoutItem = (page: Page, w: ReturnType<typeof words>, amount: string, status: string) =>
  page.getByRole("region", { name: w("payouts.historyTitle"), exact: true }).getByRole("listitem", {
    name: w("payouts.payoutLabel", { amount, status: w(`payouts.status.${status}`) }),
  });

for (const locale of ["en", "fr"] as const) {
  const w = words(locale);

  test.describe(`automatic payouts (${locale})`, () => {
    test.setTimeout(180_000);
    let creator: Account;
    let creatorId: string;
    let profileId: string;
    const stamp = `${locale}${Date.now().toString(36)}`;

    test.beforeAll(async () => {
      creator = await freshAccount(`auto-payouts-${locale}`, "individual", locale, servers);
      await readyToBePaid(creator.api);
      creatorId = ((await (await creator.api.get("/profile")).json()) as { id: string }).id;
      const profile = await creator.api.post("/profiles", {
        data: { displayName: "Automatic payouts E2E", handle: `ap${stamp}` },
      });
      expect(profile.status()).toBe(201);
      profileId = ((await profile.json()) as { id: string }).id;
    });
    test.afterAll(async () => {
      await creator?.api.dispose();
    });

    test("a weekly schedule pays the euros and the pounds to their accounts, without an operator", async ({
      browser,
    }) => {
      const { context, page, consoleErrors } = await openAs(browser, creator.email, locale);

      // The creator chooses weekly payouts, on today's weekday.
      await page.goto("/account/payouts");
      const schedule = page.getByRole("region", { name: w("payouts.schedule.title") });
      await expect(
        schedule.getByRole("radio", { name: w("payouts.schedule.kinds.manual"), exact: true }),
      ).toBeChecked({ timeout: 15_000 });
      await schedule.getByRole("radio", { name: w("payouts.schedule.kinds.weekly"), exact: true }).check();
      await schedule.getByLabel(w("payouts.schedule.weekday")).selectOption(String(todayIsoWeekday()));
      await schedule.getByRole("button", { name: w("payouts.schedule.save") }).click();
      await expect(
        page
          .locator("[data-sonner-toast][data-type='success']")
          .filter({ hasText: w("payouts.schedule.saved") }),
      ).toBeVisible();

      // A sale in euros and one in pounds, their holds over.
      const euroSale = await sell(creator.api, profileId, `Euro pack ${stamp}`, 2000, "EUR");
      const poundSale = await sell(creator.api, profileId, `Pound pack ${stamp}`, 1500, "GBP");
      await release(creator.api, [euroSale, poundSale]);

      // The schedule's run (its job, started now rather than at the next tick).
      const run = await creator.api.post("/dev/payouts/schedules/run", { data: { userId: creatorId } });
      expect(run.status(), await run.text()).toBe(200);
      expect(((await run.json()) as { created: string[] }).created).toHaveLength(2);

      // Both paid by the sandbox's bank, each in its currency, started by the schedule.
      const euros = money(locale, 1800, "EUR");
      const pounds = money(locale, 1350, "GBP");
      await page.reload();
      const euroItem = payoutItem(page, w, euros, "paid");
      await expect(async () => {
        await page.reload();
        await expect(euroItem).toBeVisible({ timeout: 2_000 });
        await expect(payoutItem(page, w, pounds, "paid")).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
      await expect(euroItem).toContainText(w("payouts.origin.schedule"));

      // The euro payout's timeline: scheduled, approved by the rules, sent with its reference, paid.
      await euroItem.getByRole("link", { name: w("payouts.timelineOf", { amount: euros }) }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(
        w("payouts.detail.title", { amount: euros }),
        { timeout: 15_000 },
      );
      const timeline = page.getByRole("list", { name: w("payouts.detail.timeline") });
      const steps = timeline.getByRole("listitem");
      await expect(steps).toHaveCount(4);
      await expect(steps.nth(0)).toContainText(w("payouts.steps.scheduled"));
      await expect(steps.nth(1)).toContainText(w("payouts.steps.approved"));
      await expect(steps.nth(2)).toContainText(w("payouts.steps.sent"));
      await expect(steps.nth(3)).toContainText(w("payouts.steps.paid"));
      const payoutUrl = page.url();

      // The sale page: what was paid, the fee, the net, and the payout that carried it.
      await page.goto(`/account/sales/${euroSale}`);
      const figures = page.getByRole("region", { name: w("sales.figuresTitle") });
      await expect(figures).toContainText(money(locale, 2000, "EUR"), { timeout: 15_000 });
      await expect(figures).toContainText(money(locale, 200, "EUR"));
      await expect(figures.getByRole("link")).toHaveAttribute("href", new URL(payoutUrl).pathname);

      expect(consoleErrors, "browser console errors").toEqual([]);
      await context.close();
    });

    test("a payout above the review threshold waits in the admin queue with its rule, then is paid", async ({
      browser,
    }) => {
      const big = await sell(creator.api, profileId, `Big pack ${stamp}`, 15000, "EUR");
      await release(creator.api, [big]);
      const { context, page, consoleErrors } = await openAs(browser, creator.email, locale);
      const amount = money(locale, 13500, "EUR");

      // The creator withdraws €135.00 by hand: above 100.00, held for a review, and told why.
      await page.goto("/account/payouts");
      const withdraw = page.getByRole("region", { name: w("payouts.withdrawTitle") });
      await withdraw.getByRole("button", { name: w("payouts.withdrawSubmit") }).click({ timeout: 15_000 });
      const rule = w("payouts.rules.above_threshold");
      const held = payoutItem(page, w, amount, "requested");
      await expect(held).toContainText(w("payouts.heldBy", { rules: rule }), { timeout: 15_000 });

      // An operator finds it in the queue with the rule that held it, and approves it.
      const admin = await browser.newContext({ locale: browserLocale[locale] });
      const adminPage = await admin.newPage();
      const adminErrors = watchConsole(adminPage);
      await signInThroughPage(adminPage, demoEmail("admin"), demoPassword, { words: signInWords[locale] });
      await adminPage.goto("/admin/payouts");
      const row = adminPage.getByRole("listitem", {
        name: w("admin.payouts.rowLabel", { email: creator.email, amount }),
      });
      await expect(row.getByRole("list", { name: w("admin.payouts.heldBy") })).toContainText(
        w("admin.payouts.rules.above_threshold"),
        { timeout: 15_000 },
      );
      await row.getByRole("button", { name: w("admin.payouts.approve") }).click();

      // The sandbox's bank pays it; the timeline says it was held, then approved by our team.
      await expect(async () => {
        await page.reload();
        await expect(payoutItem(page, w, amount, "paid")).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
      await payoutItem(page, w, amount, "paid")
        .getByRole("link", { name: w("payouts.timelineOf", { amount }) })
        .click();
      const steps = page.getByRole("list", { name: w("payouts.detail.timeline") }).getByRole("listitem");
      await expect(steps.filter({ hasText: w("payouts.steps.held") })).toContainText(rule, {
        timeout: 15_000,
      });
      await expect(steps.filter({ hasText: w("payouts.steps.paid") })).toHaveCount(1);

      expect(consoleErrors, "browser console errors").toEqual([]);
      expect(adminErrors, "admin console errors").toEqual([]);
      await admin.close();
      await context.close();
    });
  });
}
