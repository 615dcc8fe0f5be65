import { type APIRequestContext, test as base, expect, type Page, request } from "@playwright/test";
import demo from "../apps/api/src/demo-accounts.json" with { type: "json" };
import { apiUrl, webUrl } from "./playwright.config.ts";

export { expect };

/** A fresh address per test run, so journeys never collide. */
export const uniqueEmail = (label: string): string =>
  `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;

/**
 * The newest link e-mailed to an address whose URL contains `marker`, read from the sandbox outbox
 * (the e2e API keeps e-mails instead of sending them). Waits for the mail job to run.
 */
export async function mailedLink(address: string, marker: string, api = apiUrl): Promise<string> {
  const ctx = await request.newContext({ baseURL: api });
  try {
    let found: string | undefined;
    await expect
      .poll(
        async () => {
          const res = await ctx.get(`/dev/mail?to=${encodeURIComponent(address)}`);
          const body = (await res.json()) as { messages: { links: string[] }[] };
          found = body.messages.flatMap((m) => m.links).find((l) => l.includes(marker));
          return Boolean(found);
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    return found ?? "";
  } finally {
    await ctx.dispose();
  }
}
export const demoPassword = demo.password;
export const demoEmail = (label: "admin" | "creator" | "affiliate"): string => {
  const account = demo.accounts.find((a) => a.label === label);
  if (!account) throw new Error(`no demo account ${label}`);
  return account.email;
};

/** An API client signed in as a demo account (the browser's origin, as the API requires). */
export async function apiAs(label: "admin" | "creator" | "affiliate"): Promise<APIRequestContext> {
  const ctx = await request.newContext({ baseURL: apiUrl, extraHTTPHeaders: { origin: webUrl } });
  const res = await ctx.post("/auth/signin", { data: { email: demoEmail(label), password: demo.password } });
  expect(res.status()).toBe(200);
  return ctx;
}

/** The sign-in page's words, in English unless a test passes its language's. */
export const signInWords = { email: "E-mail", password: "Password", signIn: "Sign in" };

/** Signs in through the sign-in page, in the page's language, and waits to land on `landing`. */
export async function signInThroughPage(
  page: Page,
  email: string,
  password: string,
  { words = signInWords, landing = /\/account$/ }: { words?: typeof signInWords; landing?: RegExp } = {},
): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel(words.email).fill(email);
  await page.getByLabel(words.password).fill(password);
  await page.getByRole("button", { name: words.signIn }).click();
  // A first visit may compile the dashboard in development: allow it time.
  await expect(page).toHaveURL(landing, { timeout: 30_000 });
}

/** Signs in as a demo account through the sign-in page. */
export const signInAs = (page: Page, label: "admin" | "creator" | "affiliate", words = signInWords) =>
  signInThroughPage(page, demoEmail(label), demoPassword, { words });

/** Fails the test on any browser error that is not an expected failed request. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const text = msg.text();
    // The anonymous profile check answers 401 by design; the browser logs every failed request.
    if (text.startsWith("Failed to load resource")) return;
    errors.push(text);
  });
  return errors;
}

export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: async ({ page }, use) => {
    const errors = watchConsole(page);
    await use(errors);
    expect(errors, "browser console errors").toEqual([]);
  },
});
