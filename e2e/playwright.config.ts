import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const API_PORT = 4100;
const WEB_PORT = 3100;
/** Serves the configured third-party scripts (chat widget, analytics tag) as empty JavaScript. */
const SCRIPTS_PORT = 3199;
/** The configured scripts' origin: the pages' Content-Security-Policy allows it (security-csp.spec.ts). */
export const scriptsOrigin = `http://127.0.0.1:${SCRIPTS_PORT}`;
/**
 * E2E_EXISTING_SERVERS=1 runs against servers already listening on E2E_API_URL and E2E_WEB_URL
 * (default: the dev ports 4000 and 3000) instead of starting fresh ones: for working on one spec.
 */
const existing = process.env.E2E_EXISTING_SERVERS === "1";
export const apiUrl = existing
  ? (process.env.E2E_API_URL ?? "http://localhost:4000")
  : `http://localhost:${API_PORT}`;
export const webUrl = existing
  ? (process.env.E2E_WEB_URL ?? "http://localhost:3000")
  : `http://localhost:${WEB_PORT}`;
const root = path.resolve(import.meta.dirname, "..");

/*
 * A second API and web app, on Stripe (decision 040), for stripe-checkout.spec.ts only: the main
 * run uses the sandbox. The API talks to the fake Stripe server (e2e/servers/fake-stripe.ts), which
 * signs its webhooks back to it; the browser's Stripe.js is faked by the spec itself.
 */
const STRIPE_API_PORT = 4101;
const STRIPE_WEB_PORT = 3101;
const FAKE_STRIPE_PORT = 4198;
export const stripeApiUrl = `http://localhost:${STRIPE_API_PORT}`;
export const stripeWebUrl = `http://localhost:${STRIPE_WEB_PORT}`;
/** The fake Stripe server, where the spec sends Stripe.js's calls to https://api.stripe.com. */
export const fakeStripeUrl = `http://127.0.0.1:${FAKE_STRIPE_PORT}`;
/** apps/api/test/support/fake-stripe*.ts's keys (test keys of a fake, not secrets). */
const FAKE_STRIPE_SECRET_KEY = "sk_test_fake_secret_4242";
const FAKE_STRIPE_PUBLISHABLE_KEY = "pk_test_fake_publishable_4242";

/** Debian's Chromium, with the flags this machine's closed network needs. */
const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// A fresh embedded database for every run (the web server and the API are started once, here).
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), "salelink-e2e-"));
process.env.E2E_DATA_DIR = dataDir;
const stripeDataDir =
  process.env.E2E_STRIPE_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), "salelink-e2e-stripe-"));
process.env.E2E_STRIPE_DATA_DIR = stripeDataDir;
/**
 * Secrets of one run, made here and handed to the workers through the environment (each worker
 * loads this file again): no secret is a constant anyone could read in the source.
 */
const runSecret = (name: string) => {
  const secret = process.env[name] ?? randomBytes(32).toString("base64url");
  process.env[name] = secret;
  return secret;
};
const APP_SECRET = runSecret("E2E_APP_SECRET");
const REVALIDATE_SECRET = runSecret("E2E_REVALIDATE_SECRET");
const STRIPE_WEBHOOK_SECRET = `whsec_${runSecret("E2E_STRIPE_WEBHOOK_SECRET")}`;

/** Settings both APIs share: the tests' generous limits and fast jobs. */
const apiTestEnv = {
  DATABASE_URL: "",
  REDIS_URL: "",
  LOG_LEVEL: "warn",
  SEED_DEMO: "true",
  APP_SECRET,
  // The tests read mail and release holds through the dev routes (from 127.0.0.1).
  DEV_ROUTES: "true",
  // Every browser test signs in from 127.0.0.1: the limits themselves are tested in the API suite.
  RATE_LIMIT_SIGNIN_MAX: "1000",
  RATE_LIMIT_SIGNUP_MAX: "1000",
  RATE_LIMIT_PASSWORD_MAX: "1000",
  RATE_LIMIT_EMAIL_MAX: "1000",
  // Likewise every checkout and promo code (issue 16's limits are tested in the API suite).
  CHECKOUT_RESERVATIONS_PER_ADDRESS_MAX: "1000",
  CHECKOUT_RESERVATIONS_PER_EMAIL_MAX: "1000",
  PROMO_FAILURES_PER_ADDRESS_MAX: "1000",
  PROMO_FAILURES_PER_LINK_MAX: "1000",
  // The demo creator uploads in many tests; the per-account upload rate is tested in the API suite.
  UPLOAD_RATE_PER_HOUR: "1000",
  JOBS_POLL_MS: "200",
};

export default defineConfig({
  testDir: "./tests",
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"], ["json"]],
  outputDir: "./test-results",
  use: {
    baseURL: webUrl,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: chromiumArgs },
  },
  projects: [
    {
      name: "site",
      testIgnore: /maintenance\.spec\.ts|stripe-checkout\.spec\.ts|payouts-automatic\.spec\.ts/,
    },
    // The Stripe checkout and the automatic payouts, against their own API and web app on Stripe
    // and the sandbox's bank (see stripeApiUrl).
    {
      name: "stripe",
      testMatch: /stripe-checkout\.spec\.ts|payouts-automatic\.spec\.ts/,
      use: { baseURL: stripeWebUrl },
    },
    // Maintenance switches the whole platform: it runs alone, after the rest.
    // Each file switches maintenance on and off: one at a time.
    { name: "maintenance", testMatch: /maintenance\.spec\.ts/, dependencies: ["site"], workers: 1 },
  ],
  webServer: existing
    ? []
    : [
        {
          command: "node dist/server.js",
          cwd: path.join(root, "apps/api"),
          url: `http://127.0.0.1:${API_PORT}/health`,
          reuseExistingServer: false,
          timeout: 60_000,
          env: {
            API_PORT: String(API_PORT),
            API_PUBLIC_URL: apiUrl,
            WEB_ORIGIN: webUrl,
            DATA_DIR: dataDir,
            ...apiTestEnv,
            // The operator's bank transfers (approve, mark paid or failed: payouts-journey.spec.ts);
            // the sandbox's bank pays by itself on the Stripe pair (payouts-automatic.spec.ts).
            PAYOUT_PROVIDER: "manual",
            MAINTENANCE_CACHE_SECONDS: "0",
            // Clients re-check after the cooldown the API announces (60 s in production).
            MAINTENANCE_RECHECK_MS: "1000",
            // A creator's sales are e-mailed together per second, not per minute (issue 21).
            SALE_NOTIFY_COALESCE_SECONDS: "1",
            // Edits refresh the web app's cached buyer pages at once.
            WEB_REVALIDATE_URL: `http://127.0.0.1:${WEB_PORT}/api/revalidate`,
            WEB_REVALIDATE_SECRET: REVALIDATE_SECRET,
            // Issue 32 (debts-disputes.spec.ts): a creator may refund a sale already paid out as long
            // as it leaves them owing at most €10.00 (the default, 0, refuses any such refund). The
            // journey's full refund of a withdrawn €20.00 sale (€18.00 of debt) is still refused with
            // its message; its partial refund of €10.00 (€9.00 of debt) goes through.
            REFUND_DEBT_LIMIT_MINOR: "1000",
          },
        },
        {
          // The web app's own server (Next.js's handler plus the run-time CSP, decision 017).
          // On loopback, as `npm start` runs it ("localhost": see scripts/start.mjs).
          command: `node dist/server.js -p ${WEB_PORT} -H localhost`,
          cwd: path.join(root, "apps/web"),
          url: `http://127.0.0.1:${WEB_PORT}/env.json`,
          reuseExistingServer: false,
          timeout: 60_000,
          env: {
            API_PUBLIC_URL: apiUrl,
            WEB_ORIGIN: webUrl,
            REVALIDATE_SECRET,
            ANALYTICS_ID: "G-E2E",
            // Served as JavaScript (pages send nosniff): tests that watch them route these URLs.
            ANALYTICS_SRC: `${scriptsOrigin}/__analytics.js?id={id}`,
            CHAT_WIDGET_SRC: `${scriptsOrigin}/__chat-widget.js`,
            // The server's maintenance gate sees a switch within a quarter second (2 s in production).
            MAINTENANCE_POLL_MS: "250",
            // Proves the affiliate page reads its figures from configuration.
            AFFILIATE_COMMISSION_BPS: "2500",
            AFFILIATE_DURATION_MONTHS: "12",
            AFFILIATE_COOKIE_DAYS: "30",
          },
        },
        {
          command: `node -e "require('node:http').createServer((q, s) => { s.writeHead(200, { 'content-type': 'text/javascript' }); s.end(''); }).listen(${SCRIPTS_PORT}, '127.0.0.1')"`,
          url: `http://127.0.0.1:${SCRIPTS_PORT}/__chat-widget.js`,
          reuseExistingServer: false,
          timeout: 10_000,
        },
        {
          // Any request without a key answers 401: Playwright takes it as ready.
          command: "npx tsx e2e/servers/fake-stripe.ts",
          cwd: root,
          url: `${fakeStripeUrl}/v1/health`,
          reuseExistingServer: false,
          timeout: 30_000,
          env: {
            FAKE_STRIPE_PORT: String(FAKE_STRIPE_PORT),
            FAKE_STRIPE_WEBHOOK_URL: `http://127.0.0.1:${STRIPE_API_PORT}/webhooks/stripe`,
            FAKE_STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET,
          },
        },
        {
          command: "node dist/server.js",
          cwd: path.join(root, "apps/api"),
          url: `http://127.0.0.1:${STRIPE_API_PORT}/health`,
          reuseExistingServer: false,
          timeout: 60_000,
          env: {
            ...apiTestEnv,
            API_PORT: String(STRIPE_API_PORT),
            API_PUBLIC_URL: stripeApiUrl,
            WEB_ORIGIN: stripeWebUrl,
            DATA_DIR: stripeDataDir,
            PAYMENT_PROVIDER: "stripe",
            STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY,
            STRIPE_PUBLISHABLE_KEY: FAKE_STRIPE_PUBLISHABLE_KEY,
            STRIPE_WEBHOOK_SECRET,
            STRIPE_API_URL: fakeStripeUrl,
            // Issue 23: payouts paid by the sandbox's bank within a second; only an amount above
            // 100.00 is held for a review, so a creator's scheduled payouts go straight on.
            PAYOUT_PROVIDER: "sandbox",
            PAYOUT_SANDBOX_SETTLE_SECONDS: "1",
            PAYOUT_REVIEW_RULES: "above_threshold",
            PAYOUT_REVIEW_ABOVE_MINOR: "10000",
            WEB_REVALIDATE_URL: `http://127.0.0.1:${STRIPE_WEB_PORT}/api/revalidate`,
            WEB_REVALIDATE_SECRET: REVALIDATE_SECRET,
          },
        },
        {
          command: `node dist/server.js -p ${STRIPE_WEB_PORT} -H localhost`,
          cwd: path.join(root, "apps/web"),
          url: `http://127.0.0.1:${STRIPE_WEB_PORT}/env.json`,
          reuseExistingServer: false,
          timeout: 60_000,
          env: {
            API_PUBLIC_URL: stripeApiUrl,
            WEB_ORIGIN: stripeWebUrl,
            REVALIDATE_SECRET,
            // The page's CSP allows Stripe.js, its frames and its API only with Stripe.
            PAYMENT_PROVIDER: "stripe",
          },
        },
      ],
});
