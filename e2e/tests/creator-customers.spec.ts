import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type APIRequestContext, type Page, request } from "@playwright/test";
import { expect, mailedLink, test, uniqueEmail, watchConsole } from "../fixtures.ts";
import { apiUrl } from "../playwright.config.ts";
import { freshAccount, signIn } from "./identity-helpers.ts";
import { buyLink } from "./sale-helpers.ts";

/*
 * Issue 21, the creator's side: a creator is e-mailed the sale in their language, finds the buyer
 * among their customers, refunds half of the sale, and writes to their buyers; the buyer
 * unsubscribes from the e-mail's link, in their own language and without signing in, and the next
 * update skips them. In English and in French, with the web app's own words.
 */

type Locale = "en" | "fr";
type Messages = Record<string, unknown>;

const here = path.dirname(fileURLToPath(import.meta.url));
const messagesDir = path.resolve(here, "../../apps/web/messages");
const catalogues: Record<Locale, Messages> = {
  en: JSON.parse(readFileSync(path.join(messagesDir, "en.json"), "utf8")) as Messages,
  fr: JSON.parse(readFileSync(path.join(messagesDir, "fr.json"), "utf8")) as Messages,
};
const browserLocale: Record<Locale, string> = { en: "en-GB", fr: "fr-FR" };

/** A message of the web app by its id, with its simple `{name}` placeholders filled in. */
function words(locale: Locale) {
  return (id: string, values: Record<string, string> = {}): string => {
    let node: unknown = catalogues[locale];
    for (const part of id.split(".")) node = (node as Messages)[part];
    if (typeof node !== "string") throw new Error(`no message ${id} in ${locale}`);
    return node.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
  };
}

const euros = (locale: Locale, minor: number) =>
  new Intl.NumberFormat(locale, { style: "currency", currency: "EUR" }).format(minor / 100);

const toast = (page: Page) => page.locator("[data-sonner-toast][data-type='success']");

/** The outbox's newest message of one template to an address (the e2e API keeps mail). */
async function mailOf(address: string, template: string): Promise<{ subject: string; text: string }> {
  const api = await request.newContext({ baseURL: apiUrl });
  try {
    let found: { id: string; subject: string } | undefined;
    await expect
      .poll(
        async () => {
          const res = await api.get(`/dev/mail?to=${encodeURIComponent(address)}`);
          const body = (await res.json()) as {
            messages: { id: string; subject: string; template: string }[];
          };
          found = body.messages.find((m) => m.template === template);
          return Boolean(found);
        },
        // A sale's e-mail waits for the end of its minute (a second here): sales are told together.
        { timeout: 30_000 },
      )
      .toBe(true);
    const message = (await (await api.get(`/dev/mail/${found?.id}`)).json()) as {
      subject: string;
      text: string;
    };
    return message;
  } finally {
    await api.dispose();
  }
}

/** A €20.00 link of the creator's, on a new profile; answers its token. */
async function newLink(seller: APIRequestContext, stamp: string, title: string): Promise<string> {
  const profile = await seller.post("/profiles", {
    data: { displayName: `Studio ${stamp}`, handle: `cu${stamp}` },
  });
  expect(profile.status(), await profile.text()).toBe(201);
  const { id: profileId } = (await profile.json()) as { id: string };
  const link = await seller.post("/links", { data: { profileId, title, priceMinor: 2000, currency: "EUR" } });
  expect(link.status(), await link.text()).toBe(201);
  return ((await link.json()) as { token: string }).token;
}

for (const locale of ["en", "fr"] as const) {
  test(`a creator serves a customer: sale e-mail, refund of half, an update, and the buyer unsubscribes (${locale})`, async ({
    browser,
    consoleErrors: _,
  }) => {
    test.setTimeout(240_000);
    const t = words(locale);
    const stamp = `${locale}${Date.now().toString(36).slice(-6)}`;
    const title = `Customer pack ${stamp}`;
    const creator = await freshAccount(`customers-creator-${locale}`, "individual", locale);
    const buyerEmail = uniqueEmail(`customers-buyer-${locale}`);
    await buyLink(await newLink(creator.api, stamp, title), buyerEmail, locale);

    // 1. The creator is e-mailed the sale, in their language, without the buyer's address.
    const sold = await mailOf(creator.email, "sale-notification");
    expect(sold.subject).toContain(title);
    expect(sold.subject).toContain(euros(locale, 2000));
    expect(`${sold.subject} ${sold.text}`).not.toContain(buyerEmail);

    // 2. The customers screen lists the buyer; their page lists the order.
    const creatorContext = await browser.newContext({ locale: browserLocale[locale] });
    const page = await creatorContext.newPage();
    const creatorErrors = watchConsole(page);
    await signIn(page, creator.email, {
      email: t("auth.email"),
      password: t("auth.password"),
      signIn: t("auth.signIn"),
    });
    await page
      .getByRole("navigation", { name: t("account.nav.label") })
      .getByRole("link", { name: t("account.nav.customers") })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: t("customers.title") })).toBeVisible();
    await page.getByLabel(t("customers.search")).fill(buyerEmail.slice(0, 24));
    await page.getByRole("button", { name: t("customers.searchButton") }).click();
    const row = page.getByRole("row").filter({ hasText: buyerEmail });
    await expect(row).toContainText(euros(locale, 2000));
    await row.getByRole("link", { name: buyerEmail }).click();
    await expect(page.getByRole("heading", { level: 1, name: buyerEmail })).toBeVisible({ timeout: 20_000 });
    const order = page.getByRole("row").filter({ hasText: title });
    await expect(order).toContainText(t("customers.statuses.paid"));
    await order.getByRole("link").click();

    // 3. The sale's page: refund half, with a reason the buyer is told.
    await expect(page.getByRole("heading", { level: 1, name: t("sales.title", { title }) })).toBeVisible({
      timeout: 20_000,
    });
    await page.getByRole("button", { name: t("sales.refundButton") }).click();
    const dialog = page.getByRole("dialog", { name: t("sales.refund.title") });
    await dialog.getByRole("radio", { name: t("sales.refund.partial") }).check();
    await dialog
      .getByLabel(t("sales.refund.amount", { currency: "EUR" }))
      .fill(locale === "fr" ? "10,00" : "10.00");
    const reason = `Half of the pack was missing (${stamp})`;
    await dialog.getByLabel(t("sales.refund.reason")).fill(reason);
    await dialog.getByRole("button", { name: t("sales.refund.confirm") }).click();
    await expect(toast(page).filter({ hasText: t("sales.refund.asked") })).toBeVisible();
    const refunds = page.getByRole("region", { name: t("sales.refundsTitle") });
    await expect(refunds.getByRole("row").filter({ hasText: reason })).toContainText(
      t("sales.refundStatuses.succeeded"),
      { timeout: 20_000 },
    );
    const figures = page.getByRole("region", { name: t("sales.figuresTitle") });
    await expect(
      figures
        .getByRole("definition")
        .filter({ hasText: euros(locale, 1000) })
        .first(),
    ).toBeVisible();
    await expect(figures.getByText(t("sales.status.paid"), { exact: true })).toBeVisible();
    const refundMail = await mailOf(buyerEmail, "order-refunded");
    expect(refundMail.text).toContain(reason);

    // 4. An update to the buyers of all links, with a link in its text.
    await page
      .getByRole("navigation", { name: t("account.nav.label") })
      .getByRole("link", { name: t("account.nav.updates") })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: t("updates.title") })).toBeVisible();
    const subject = `New chapter ${stamp}`;
    await page.getByLabel(t("updates.subject")).fill(subject);
    await page
      .getByLabel(t("updates.body"))
      .fill("The second chapter is out: https://example.test/chapter-2");
    await page.getByRole("button", { name: t("updates.send") }).click();
    await expect(toast(page).filter({ hasText: t("updates.sent") })).toBeVisible();
    const counts = (sent: string, unsubscribed: string) =>
      t("updates.counts", { sent, failed: "0", unsubscribed, recipients: "1" });
    await expect(page.getByRole("listitem").filter({ hasText: subject })).toContainText(counts("1", "0"), {
      timeout: 20_000,
    });

    // 5. The buyer unsubscribes from the e-mail's link, signed out, in their language (the French
    // one without JavaScript).
    const unsubscribe = await mailedLink(buyerEmail, "/unsubscribe/");
    const buyer = await browser.newContext({
      locale: browserLocale[locale],
      javaScriptEnabled: locale === "en",
    });
    const buyerPage = await buyer.newPage();
    const errors = watchConsole(buyerPage);
    await buyerPage.goto(unsubscribe);
    await expect(
      buyerPage.getByText(t("unsubscribe.question", { creator: `Studio ${stamp}` })),
    ).toBeVisible();
    await buyerPage.getByRole("button", { name: t("unsubscribe.button") }).click();
    await expect(buyerPage.getByText(t("unsubscribe.done", { creator: `Studio ${stamp}` }))).toBeVisible();
    expect(errors, "the buyer's browser console").toEqual([]);
    await buyer.close();

    // 6. The next update skips them, and their customer row says so.
    const second = `Last chapter ${stamp}`;
    await page.getByLabel(t("updates.subject")).fill(second);
    await page.getByLabel(t("updates.body")).fill("The last chapter is out.");
    await page.getByRole("button", { name: t("updates.send") }).click();
    await expect(page.getByRole("listitem").filter({ hasText: second })).toContainText(counts("0", "1"), {
      timeout: 20_000,
    });

    // 7. Sale e-mails become a daily digest in the settings, and stay so.
    await page
      .getByRole("navigation", { name: t("account.nav.label") })
      .getByRole("link", { name: t("account.nav.settings") })
      .click();
    const notifications = page.getByRole("region", { name: t("settings.notifications.title") });
    const digest = notifications.getByRole("radio", { name: t("settings.notifications.mode.digest") });
    await expect(
      notifications.getByRole("radio", { name: t("settings.notifications.mode.each") }),
    ).toBeChecked();
    await digest.check();
    await notifications.getByRole("button", { name: t("settings.notifications.save") }).click();
    // (The update's toast may still be there: the newest is the save's.)
    await expect(toast(page).last()).toBeVisible();
    await page.reload();
    await expect(digest).toBeChecked();

    expect(creatorErrors, "the creator's browser console").toEqual([]);
    await creatorContext.close();
  });
}
