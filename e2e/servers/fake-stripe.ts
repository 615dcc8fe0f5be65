/*
 * The fake Stripe API of the API's tests, as a process of its own for the Stripe e2e run
 * (playwright.config.ts): the e2e API on Stripe talks to it (STRIPE_API_URL), the browser's fake
 * Stripe.js reaches it through page.route, and it signs its webhooks to the API with the run's
 * secret. Any request without a key answers 401, which Playwright takes as "ready".
 */
import { startFakeStripe } from "../../apps/api/test/support/fake-stripe.ts";

const port = Number(process.env.FAKE_STRIPE_PORT ?? "4198");
const webhookUrl = process.env.FAKE_STRIPE_WEBHOOK_URL;
const secret = process.env.FAKE_STRIPE_WEBHOOK_SECRET;
if (!webhookUrl || !secret)
  throw new Error("FAKE_STRIPE_WEBHOOK_URL and FAKE_STRIPE_WEBHOOK_SECRET are required");

const stripe = await startFakeStripe({ port, webhook: { url: webhookUrl, secret } });
console.log(`fake Stripe on ${stripe.url}, webhooks to ${webhookUrl}`);

const stop = () => {
  void stripe.close().then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
