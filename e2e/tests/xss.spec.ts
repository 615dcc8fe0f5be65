import type { APIRequestContext, Page } from "@playwright/test";
import { expect, signInAs, test } from "../fixtures.ts";
import { apiUrl, webUrl } from "../playwright.config.ts";
import { freshAccount, signIn } from "./identity-helpers.ts";

/*
 * Text people type reaches other people's browsers: a creator's name and bio, link titles, report
 * messages, campaign names, bank holder and onboarding names. Each is saved with script-injection
 * payloads and every page that shows it must show the payload as text, run nothing, open nothing.
 * The CSP allows inline scripts (decision 015), so these tests guard React's escaping itself.
 */

const SCRIPT = "<script>window.__xss=1</script>";
const IMG = `<img src=x onerror="window.__xss=1">`;
const SVG = `"><svg onload=window.__xss=1>`;
const TEMPLATE = "{{7*7}}";
/** Every payload in one string (103 characters): for fields that take it whole. */
const ALL = `${SCRIPT}${IMG}${SVG}${TEMPLATE}`;

/** Watches a page for the signs of an injection that ran: dialogs and the marker variable. */
function guard(page: Page): { dialogs: string[] } {
  const seen = { dialogs: [] as string[] };
  page.on("dialog", (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return seen;
}

/** The page shows each text literally, and no payload ran or became an element. */
async function expectInert(page: Page, seen: { dialogs: string[] }, texts: string[]): Promise<void> {
  for (const text of texts)
    await expect(page.getByText(text, { exact: false }).filter({ visible: true }).first()).toBeVisible();
  // onerror/onload handlers run asynchronously: give them the chance to (the page has loaded by then).
  await page.waitForLoadState("load");
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  await expect(page.locator("svg[onload], img[onerror], script:text('window.__xss')")).toHaveCount(0);
  await expect(page.locator("a[href^='javascript:' i]")).toHaveCount(0);
  expect(seen.dialogs).toEqual([]);
}

async function json<T>(res: Awaited<ReturnType<APIRequestContext["post"]>>): Promise<T> {
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as T;
}

interface Hostile {
  email: string;
  userId: string;
  profileId: string;
  token: string;
}

/** A creator whose every free-text field carries payloads, with a link, a campaign and a bank account. */
async function hostileCreator(): Promise<Hostile> {
  const { email, api } = await freshAccount("xss", "none");
  try {
    await json(
      await api.post("/profile/onboarding", {
        data: {
          kind: "individual",
          firstName: `${SCRIPT}${TEMPLATE}`,
          lastName: `${SVG}${IMG}`,
          dateOfBirth: "1990-12-10",
          address: { line1: ALL, city: "Madrid", postalCode: "28013", country: "ES" },
        },
      }),
    );
    const { id: userId } = await json<{ id: string }>(await api.get("/profile"));
    const handle = `xss_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const profile = await json<{ id: string }>(
      await api.post("/profiles", { data: { displayName: `${SVG}${TEMPLATE}`, handle, bio: ALL } }),
    );
    const link = await json<{ id: string; token: string }>(
      await api.post("/links", {
        data: {
          profileId: profile.id,
          title: ALL,
          description: `${IMG} javascript:window.__xss=1 ${SCRIPT}`,
          priceMinor: 1500,
          currency: "EUR",
        },
      }),
    );
    await json(await api.post("/campaigns", { data: { name: `${SVG}${IMG}${TEMPLATE}` } }));
    await json(
      await api.post("/profile/bank-accounts", {
        data: { holderName: ALL, iban: "FR7630006000011234567890189" },
      }),
    );
    return { email, userId, profileId: profile.id, token: link.token };
  } finally {
    await api.dispose();
  }
}

test.describe("user text is shown as text", () => {
  test.describe.configure({ mode: "serial" });
  let hostile: Hostile;

  test.beforeAll(async () => {
    hostile = await hostileCreator();
  });

  test("the API refuses javascript: social links and payload promo codes", async () => {
    const { api } = await freshAccount("xss-refused", "none");
    try {
      const profile = await api.post("/profiles", {
        data: {
          displayName: "Refused",
          handle: `xssr_${Date.now().toString(36)}`,
          socialLinks: ["javascript:window.__xss=1"],
        },
      });
      expect(profile.status()).toBe(400);
      const promo = await api.post("/promo-codes", { data: { kind: "percent", value: 10, code: SVG } });
      expect(promo.status()).toBe(400);
    } finally {
      await api.dispose();
    }
  });

  test("the public creator page and the link page", async ({ page, consoleErrors: _ }) => {
    const seen = guard(page);
    await page.goto(`/c/${hostile.profileId}`);
    await expectInert(page, seen, [`${SVG}${TEMPLATE}`, ALL]);
    await page.goto(`/v/${hostile.token}`);
    await expectInert(page, seen, [ALL, "javascript:window.__xss=1"]);
    // The promo field echoes what was typed back in its error: still text.
    await page.getByLabel("Promo code").fill(SVG);
    await page.getByRole("button", { name: "Apply" }).click();
    await expectInert(page, seen, [ALL]);
  });

  test("the checkout page", async ({ page, consoleErrors: _ }) => {
    const seen = guard(page);
    await page.goto(`/checkout/${hostile.token}`);
    await expectInert(page, seen, [ALL]);
  });

  test("the creator's own dashboard pages", async ({ page, consoleErrors: _ }) => {
    const seen = guard(page);
    await signIn(page, hostile.email);
    await page.goto("/account/links");
    await expectInert(page, seen, [ALL]);
    await page.goto("/account/profiles");
    await expectInert(page, seen, [`${SVG}${TEMPLATE}`]);
    await page.goto("/account/affiliates");
    await expectInert(page, seen, [`${SVG}${IMG}${TEMPLATE}`]);
    // The bank accounts (their holder's name) are on the payouts page since issue 23.
    await page.goto("/account/payouts");
    await expectInert(page, seen, [ALL]);
  });

  test("a report's message in the admin queue and the onboarding names in the account's file", async ({
    page,
    playwright,
    consoleErrors: _,
  }) => {
    const buyer = await playwright.request.newContext({
      baseURL: apiUrl,
      extraHTTPHeaders: { origin: webUrl },
    });
    const message = `Broken ${ALL}`;
    try {
      await json(await buyer.post("/report", { data: { token: hostile.token, reason: "other", message } }));
    } finally {
      await buyer.dispose();
    }
    const seen = guard(page);
    await signInAs(page, "admin");
    await page.goto("/admin/reports");
    await expectInert(page, seen, [message]);
    await page.goto(`/admin/accounts/${hostile.userId}`);
    await expectInert(page, seen, [`${SCRIPT}${TEMPLATE} ${SVG}${IMG}`]);
  });

  test("query strings and paths reflected by the blog and the error page", async ({
    page,
    consoleErrors: _,
  }) => {
    const seen = guard(page);
    await page.goto(`/blog?page=${encodeURIComponent(ALL)}&q=${encodeURIComponent(SVG)}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectInert(page, seen, []);
    const res = await page.goto(`/blog/${encodeURIComponent(SVG)}`);
    expect(res?.status()).toBe(404);
    await expectInert(page, seen, []);
  });
});
