import "server-only";
import { businessRulesEnvSchema } from "@salelink/contracts/business-rules";

/** Server-side settings of the web app, read at run time (never baked into the build). */
export const serverEnv = {
  /** The API as browsers reach it (the spec's "API base"). */
  apiPublicUrl: process.env.API_PUBLIC_URL ?? "http://localhost:4000",
  /** The API as this server reaches it (a private address in production); defaults to the public one. */
  apiInternalUrl: process.env.API_INTERNAL_URL || process.env.API_PUBLIC_URL || "http://localhost:4000",
  /**
   * How often this server asks the API whether maintenance is on (server/maintenance-gate.ts,
   * decision 022): pages see a switch at most this long after the API does. 250 ms to 60 s.
   */
  maintenancePollMs: Math.min(Math.max(Number(process.env.MAINTENANCE_POLL_MS) || 2_000, 250), 60_000),
  /** Shared with the API, which calls /api/revalidate after edits; empty turns that route off (503). */
  revalidateSecret: process.env.REVALIDATE_SECRET ?? "",
  siteUrl: process.env.WEB_ORIGIN ?? "http://localhost:3000",
  analyticsId: process.env.ANALYTICS_ID ?? "",
  /** Script URL of the analytics tag; {id} is replaced by ANALYTICS_ID. */
  analyticsSrc: process.env.ANALYTICS_SRC ?? "https://www.googletagmanager.com/gtag/js?id={id}",
  chatWidgetSrc: process.env.CHAT_WIDGET_SRC ?? "",
  /** The same bot-check settings as the API: the page shows the widget the API verifies. */
  botCheck: {
    kind: process.env.BOT_CHECK_PROVIDER === "turnstile" ? ("turnstile" as const) : ("sandbox" as const),
    siteKey: process.env.TURNSTILE_SITE_KEY ?? null,
  },
  /** The API's payment provider (same variable): the page's CSP allows Stripe.js only with Stripe. */
  paymentProvider: process.env.PAYMENT_PROVIDER === "stripe" ? ("stripe" as const) : ("sandbox" as const),
  /** The API's storage variables: signed file URLs point at S3-compatible storage (the page's CSP). */
  storage: {
    kind: process.env.STORAGE_PROVIDER === "s3" ? ("s3" as const) : ("local" as const),
    endpoint: process.env.S3_ENDPOINT || null,
    bucket: process.env.S3_BUCKET ?? "",
    region: process.env.S3_REGION || "us-east-1",
    forcePathStyle: !["false", "0", "no"].includes(process.env.S3_FORCE_PATH_STYLE ?? "true"),
  },
  development: process.env.NODE_ENV === "development",
  /** The same business rules the API applies, from the same variables. */
  rules: businessRulesEnvSchema.parse(process.env),
};
