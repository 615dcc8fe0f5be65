import { type APIRequestContext, type Page, request } from "@playwright/test";
import { expect, mailedLink, signInThroughPage, signInWords, uniqueEmail } from "../fixtures.ts";
import { apiUrl, webUrl } from "../playwright.config.ts";

/*
 * Fresh accounts for the identity and payout journeys: an identity check is done once per account
 * and counted per day, so each test brings its own account instead of reusing a demo one.
 */

export const PASSWORD = "payouts-journey-1";

export type Onboarding = "individual" | "professional" | "none";

export interface Account {
  email: string;
  /** Signed in as the account (the browser's origin, as the API requires). */
  api: APIRequestContext;
  /** The user agent it signed up with: its device, with the loopback address. */
  userAgent: string;
}

const address = { line1: "12 Calle Mayor", city: "Madrid", postalCode: "28013", country: "ES" };

/**
 * Signs up, confirms the e-mail and (unless "none") onboards, through the API: an individual gives
 * first and last names (so the identity form hides them), a professional account gives none.
 */
export async function freshAccount(
  label: string,
  onboarding: Onboarding,
  locale = "en",
  /** Which pair of servers: the main one, or the one on Stripe (playwright.config.ts). */
  servers = { api: apiUrl, web: webUrl },
): Promise<Account> {
  const email = uniqueEmail(label);
  // A device of its own (the sign-up's address and user agent are a strong signal: two accounts
  // signed up from one device are one person's, and earn each other no commission).
  const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36 e2e/${email}`;
  const api = await request.newContext({
    baseURL: servers.api,
    extraHTTPHeaders: { origin: servers.web },
    userAgent,
  });
  const signup = await api.post("/auth/signup", {
    data: { email, password: PASSWORD, acceptTerms: true, locale, turnstileToken: "e2e" },
  });
  expect(signup.status()).toBe(201);
  const token = new URL(await mailedLink(email, "emailToken=", servers.api)).searchParams.get("emailToken");
  expect((await api.post(`/auth/verify/email/${token}`)).status()).toBe(200);
  expect((await api.post("/auth/signin", { data: { email, password: PASSWORD } })).status()).toBe(200);
  if (onboarding !== "none") {
    const body =
      onboarding === "individual"
        ? { kind: "individual", firstName: "Ada", lastName: "Lovelace", dateOfBirth: "1990-12-10", address }
        : {
            kind: "professional",
            companyName: "Lovelace Analytical Ltd",
            registrationNumber: "B12345678",
            vatNumber: "ESB12345678",
            address,
          };
    expect((await api.post("/profile/onboarding", { data: body })).status()).toBe(200);
  }
  return { email, api, userAgent };
}

/** Signs in through the sign-in page, in the page's language: the dashboard, or onboarding when not done. */
export const signIn = (page: Page, email: string, words = signInWords) =>
  signInThroughPage(page, email, PASSWORD, { words, landing: /\/account(\/onboarding)?$/ });
