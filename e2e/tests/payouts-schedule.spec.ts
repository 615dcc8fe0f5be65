import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { type Locale, money, words } from "../fixtures/messages.ts";
import { apiAs, expect, test, watchConsole } from "../fixtures.ts";
import { type Account, freshAccount, signIn } from "./identity-helpers.ts";
import { sellOnce } from "./sale-helpers.ts";

/*
 * Issue 23's payouts page in English and French: a weekly schedule, a UK bank account (refused when
 * wrong), and a payout held by a risk rule with its timeline; the sale page's figures and the
 * payout that carried the sale. The whole journey (paid on schedule without an admin) is
 * payouts-automatic's.
 */

const IBAN = "FR76 3000 6000 0112 3456 7890 189";
const signInWords: Record<Locale, { email: string; password: string; signIn: string }> = {
  en: { email: "E-mail", password: "Password", signIn: "Sign in" },
  fr: { email: "E-mail", password: "Mot de passe", signIn: "Se connecter" },
  es: { email: "Correo electrónico", password: "Contraseña", signIn: "Iniciar sesión" },
};
const browserLocale: Record<Locale, string> = { en: "en-GB", fr: "fr-FR", es: "es-ES" };

/** The account's page in its own browser, in its language, signed in. */
async function openAs(browser: Browser, account: Account, locale: Locale) {
  const context = await browser.newContext({ locale: browserLocale[locale] });
  const page = await context.newPage();
  const consoleErrors = watchConsole(page);
  await signIn(page, account.email, signInWords[locale]);
  return { context, page, consoleErrors };
}

/** The sale's hold ends now (the dev clock route): its €18.00 become available. */
async function release(creator: APIRequestContext, orderId: string) {
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

/** Identity approved and an IBAN on file, through the API: their screens have their own specs. */
async function readyToBePaid(creator: APIRequestContext): Promise<string> {
  const session = (await (await creator.post("/identity/sessions", { data: {} })).json()) as { id: string };
  const decided = await creator.post(`/identity/sandbox/sessions/${session.id}/decision`, {
    data: { outcome: "approved" },
  });
  expect(decided.status()).toBe(202);
  await expect
    .poll(async () => ((await (await creator.get("/identity")).json()) as { status: string }).status)
    .toBe("approved");
  const bank = await creator.post("/profile/bank-accounts", {
    data: { holderName: "Ada Lovelace", iban: IBAN },
  });
  expect(bank.status()).toBe(201);
  return ((await bank.json()) as { id: string }).id;
}

/** The value of one of the sale page's figures, by its term (its first definition: a line saying what it is may follow). */
const figure = (page: Page, w: ReturnType<typeof words>, term: string) =>
  page
    .getByRole("region", { name: w("sales.figuresTitle") })
    .locator("div")
    .filter({ has: page.getByRole("term").getByText(term, { exact: true }) })
    .getByRole("definition")
    .first();

for (const locale of ["en", "fr"] as const) {
  const w = words(locale);

  test.describe(`payouts page (${locale})`, () => {
    test.setTimeout(120_000);

    test("a creator sets a weekly schedule and adds a UK account, refused first when wrong", async ({
      browser,
    }) => {
      const creator = await freshAccount(`payouts-schedule-${locale}`, "individual", locale);
      const { context, page, consoleErrors } = await openAs(browser, creator, locale);
      await page.goto("/account/payouts");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(w("payouts.pageTitle"));

      // The schedule: on request until told otherwise, then weekly on Fridays.
      const schedule = page.getByRole("region", { name: w("payouts.schedule.title") });
      const manual = schedule.getByRole("radio", { name: w("payouts.schedule.kinds.manual"), exact: true });
      await expect(manual).toBeChecked({ timeout: 15_000 });
      await schedule.getByRole("radio", { name: w("payouts.schedule.kinds.weekly"), exact: true }).check();
      const friday = new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(
        new Date(Date.UTC(2024, 0, 5)),
      );
      await schedule.getByLabel(w("payouts.schedule.weekday")).selectOption({ label: friday });
      await schedule.getByRole("button", { name: w("payouts.schedule.save") }).click();
      await expect(
        page
          .locator("[data-sonner-toast][data-type='success']")
          .filter({ hasText: w("payouts.schedule.saved") }),
      ).toBeVisible();
      const weekly = w("payouts.schedule.describe.weekly", { weekday: friday });
      await expect(schedule).toContainText(weekly);
      // Kept by the API: read again after a reload.
      await page.reload();
      await expect(schedule).toContainText(weekly, { timeout: 15_000 });
      await expect(
        schedule.getByRole("radio", { name: w("payouts.schedule.kinds.weekly"), exact: true }),
      ).toBeChecked();
      await expect(schedule.getByLabel(w("payouts.schedule.weekday"))).toHaveValue("5");

      // A UK account: a sort code too short is refused on its field, then saved, paid in GBP.
      const form = page.getByRole("form", { name: w("payouts.addTitle") });
      await form.getByRole("radio", { name: w("payouts.kinds.gb"), exact: true }).check();
      await expect(form.getByLabel(w("payouts.iban"), { exact: true })).toHaveCount(0);
      await form.getByLabel(w("payouts.holderName")).fill("Ada Lovelace");
      const sortCode = form.getByLabel(w("payouts.sortCode"), { exact: true });
      await sortCode.fill("20-00");
      await form.getByLabel(w("payouts.accountNumber"), { exact: true }).fill("55779911");
      await expect(form).toContainText(w("payouts.paidIn", { currency: "GBP" }));
      await form.getByRole("button", { name: w("payouts.addSubmit") }).click();
      await expect(form.getByText(w("payouts.errors.sortCode"))).toBeVisible();
      await expect(sortCode).toHaveAttribute("aria-invalid", "true");
      await sortCode.fill("20-00-00");
      await form.getByRole("button", { name: w("payouts.addSubmit") }).click();
      const banks = page.getByRole("region", { name: w("payouts.banksTitle") });
      const account = banks.getByRole("listitem");
      await expect(account).toHaveCount(1);
      await expect(account).toContainText("Ada Lovelace");
      await expect(account).toContainText("GBP");
      await expect(account).toContainText(
        new Intl.DisplayNames([locale], { type: "region" }).of("GB") ?? "United Kingdom",
      );
      await expect(account).toContainText("9911");
      await expect(page.getByText("55779911")).toHaveCount(0);

      expect(consoleErrors, "browser console errors").toEqual([]);
      await context.close();
      await creator.api.dispose();
    });

    test("a payout held by a risk rule shows the rule on its timeline; the sale page shows its figures", async ({
      browser,
    }) => {
      const stamp = `${locale}${Date.now().toString(36)}`;
      const creator = await freshAccount(`payouts-held-${locale}`, "individual", locale);
      const sale = await sellOnce(creator.api, {
        displayName: "Held payout E2E",
        handle: `ph${stamp}`,
        title: `Held payout ${stamp}`,
        buyer: "held-buyer",
      });
      const { context, page, consoleErrors } = await openAs(browser, creator, locale);
      const euros = (minor: number) => money(locale, minor);

      // The sale page while the sale is held: the figures, and "on hold until".
      await page.goto(`/account/sales/${sale.orderId}`);
      await expect(figure(page, w, w("sales.paid"))).toHaveText(euros(2000), { timeout: 15_000 });
      await expect(figure(page, w, w("sales.fee"))).toHaveText(euros(200));
      await expect(figure(page, w, w("sales.net"))).toHaveText(euros(1800));
      await expect(figure(page, w, w("sales.payout.label"))).toContainText(
        w("sales.payout.onHold", { date: "" }).trim(),
      );

      // Available, then paid out: the account's first payout waits for a review.
      await release(creator.api, sale.orderId);
      const bankAccountId = await readyToBePaid(creator.api);
      const requested = await creator.api.post("/profile/payout", {
        data: { bankAccountId, currency: "EUR" },
      });
      expect(requested.status(), await requested.text()).toBe(201);
      const payout = (await requested.json()) as { id: string; heldRules: string[] };
      expect(payout.heldRules).toContain("first_payout");
      const rules = new Intl.ListFormat(locale, { type: "conjunction" }).format(
        payout.heldRules.map((rule) => w(`payouts.rules.${rule}`)),
      );

      await page.goto("/account/payouts");
      const amount = euros(1800);
      const item = page
        .getByRole("region", { name: w("payouts.historyTitle"), exact: true })
        .getByRole("listitem", {
          name: w("payouts.payoutLabel", { amount, status: w("payouts.status.requested") }),
        });
      await expect(item).toContainText(w("payouts.heldBy", { rules }), { timeout: 15_000 });
      await expect(item).toContainText(w("payouts.origin.request"));
      await item.getByRole("link", { name: w("payouts.timelineOf", { amount }) }).click();
      await expect(page).toHaveURL(new RegExp(`/account/payouts/${payout.id}$`), { timeout: 30_000 });
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(w("payouts.detail.title", { amount }));
      const timeline = page.getByRole("list", { name: w("payouts.detail.timeline") });
      await expect(timeline.getByRole("listitem").first()).toContainText(w("payouts.steps.requested"));
      const held = timeline.getByRole("listitem").filter({ hasText: w("payouts.steps.held") });
      await expect(held).toContainText(rules);
      await expect(page.getByText(w("payouts.detail.heldNow"))).toBeVisible();

      // The sale page names the payout that carried the sale, and links to its timeline.
      await page.goto(`/account/sales/${sale.orderId}`);
      await expect(figure(page, w, w("sales.payout.label")).getByRole("link")).toHaveAttribute(
        "href",
        new RegExp(`/account/payouts/${payout.id}$`),
        { timeout: 15_000 },
      );

      expect(consoleErrors, "browser console errors").toEqual([]);
      await context.close();
      await creator.api.dispose();
    });

    test("a suspended creator reads the operator's reason and what to do on the payouts page", async ({
      browser,
    }) => {
      const creator = await freshAccount(`payouts-suspended-${locale}`, "individual", locale);
      const me = (await (await creator.api.get("/profile")).json()) as { id: string };
      const admin = await apiAs("admin");
      const reason = `Chargebacks under review ${Date.now().toString(36)}`;
      const suspended = await admin.post(`/admin/accounts/${me.id}/suspend`, { data: { reason } });
      expect(suspended.status(), await suspended.text()).toBe(200);
      const { context, page, consoleErrors } = await openAs(browser, creator, locale);
      await page.goto("/account/payouts");
      const notice = page.getByRole("alert").filter({ hasText: w("payouts.suspension.reason", { reason }) });
      await expect(notice).toBeVisible({ timeout: 15_000 });
      await expect(notice).toContainText(w("payouts.suspension.next"));
      expect(
        (await admin.post(`/admin/accounts/${me.id}/reinstate`, { data: { reason: "Settled" } })).status(),
      ).toBe(200);
      await page.reload();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(w("payouts.pageTitle"), {
        timeout: 15_000,
      });
      await expect(page.getByText(w("payouts.suspension.next"))).toHaveCount(0);
      expect(consoleErrors, "browser console errors").toEqual([]);
      await context.close();
      await admin.dispose();
      await creator.api.dispose();
    });
  });
}
