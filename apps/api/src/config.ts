import { bicSchema, businessRulesEnvSchema, ibanSchema, payoutRiskRules } from "@salelink/contracts";
import { nonEuVatCountries } from "@salelink/contracts/vat-countries";
import { z } from "zod";
import { botCheckEnvSchema } from "./providers/bot-check/env.ts";
import { identityEnvSchema } from "./providers/identity/env.ts";
import { mailEnvSchema } from "./providers/mail/env.ts";
import { paymentsEnvSchema } from "./providers/payments/env.ts";
import { payoutsEnvSchema } from "./providers/payouts/env.ts";
import { storageEnvSchema } from "./providers/storage/env.ts";
import { viesEnvSchema } from "./providers/vies/env.ts";

const bool = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"])
    .default(fallback ? "true" : "false")
    .transform((v) => v === "true" || v === "1" || v === "yes");

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  API_HOST: z.string().default("127.0.0.1"),
  API_PORT: z.coerce.number().int().min(0).max(65_535).default(4000),
  /** The API's address as browsers reach it (links in e-mails, OpenAPI servers). */
  API_PUBLIC_URL: z.url().default("http://localhost:4000"),
  /** Where the web app is served; the only origin allowed to call the API with credentials. */
  WEB_ORIGIN: z.url().default("http://localhost:3000"),
  /**
   * The web app's cache-invalidation route (e.g. http://127.0.0.1:3000/api/revalidate). When set, an
   * edit to a link or profile refreshes its public pages at once; unset, they refresh within a minute.
   */
  WEB_REVALIDATE_URL: z.url().optional(),
  /** Shared with the web app's REVALIDATE_SECRET; required with WEB_REVALIDATE_URL. */
  WEB_REVALIDATE_SECRET: z.string().min(32).optional(),
  /**
   * How long this instance serves a public link or creator page from memory (0: never). Edits made
   * through this instance show at once; through another, within this time.
   */
  PUBLIC_READ_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  /** The platform's own name and bank account: the debtor of the payouts' SEPA transfer file (pain.001). */
  PLATFORM_NAME: z.string().trim().min(1).max(70).default("Salelink"),
  PLATFORM_IBAN: ibanSchema.optional(),
  PLATFORM_BIC: bicSchema.optional(),
  /**
   * The countries outside the EU where the platform is registered for VAT (a comma list of GB, NO,
   * CH, IS): their consumers are charged their VAT; elsewhere outside the EU none is (issue 22).
   */
  VAT_REGISTERED_OUTSIDE_EU: z
    .string()
    .default("")
    .transform((list) =>
      list
        .split(",")
        .map((code) => code.trim().toUpperCase())
        .filter((code) => code !== ""),
    )
    .pipe(z.array(z.enum(nonEuVatCountries))),
  /** PostgreSQL connection string; when unset the embedded PGlite database in DATA_DIR is used. */
  DATABASE_URL: z.string().min(1).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DATA_DIR: z.string().default("./data"),
  REDIS_URL: z.string().min(1).optional(),
  /** How often counted affiliate clicks are written to the database, in one batch (ms). */
  CLICK_FLUSH_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** How long a campaign token's lookup is kept in memory by the click counter (archiving shows within it). */
  CLICK_TOKEN_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  /**
   * How long an instance keeps what attributes a checkout to a partner (the creator's memberships of
   * the codes followed, a link's rate, the self-dealing check) in memory: a change (a rate, a
   * removal) shows within it on other instances, at once on the one that made it.
   */
  PARTNER_ATTRIBUTION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /**
   * How long the customers screen's totals ("1-25 of 63,126") are kept per creator and filter, per
   * instance (issue 21): counting 100,000 customers on every page would cost more than the page.
   */
  /**
   * The platform as its invoices name it (issue 22: the deemed supplier): legal name, postal address
   * (lines separated by "|") and VAT number. Required in production; elsewhere, unset, the invoices
   * say they are a sandbox's and not valid.
   */
  INVOICE_SELLER_NAME: z.string().trim().max(200).optional(),
  INVOICE_SELLER_ADDRESS: z.string().trim().max(500).optional(),
  INVOICE_SELLER_VAT_NUMBER: z.string().trim().max(40).optional(),
  CUSTOMERS_COUNT_CACHE_MS: z.coerce.number().int().min(0).max(300_000).default(15_000),
  /** Visitors the in-memory click dedup remembers per hour (without REDIS_URL); past it, repeats may count. */
  CLICK_DEDUP_MAX_VISITORS: z.coerce.number().int().min(1000).max(10_000_000).default(1_000_000),
  /**
   * Distinct visitors (user agents) one client address may add to a campaign's clicks per hour: room
   * for a shared address (an office, a school) without letting one machine rotating user agents or
   * cookies multiply its clicks. Visits past it are counted apart as filtered.
   */
  CLICK_ADDRESS_ALLOWANCE: z.coerce.number().int().min(1).max(1000).default(3),
  /** Bytes an account may keep in uploaded files (MiB): uploads past it are refused (413) before storing. */
  UPLOAD_QUOTA_MB: z.coerce.number().int().min(1).max(10_000_000).default(2048),
  /** Uploads an account may start per hour (429 past it): bounds the disk and CPU one account can use. */
  UPLOAD_RATE_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(60),
  /** An upload attached to nothing (no link, profile or cover) after this many hours is deleted. */
  UPLOAD_UNATTACHED_TTL_HOURS: z.coerce.number().min(0.001).max(8760).default(24),
  /**
   * Which X-Forwarded-For entries to believe for the client address (rate limits): "false" (none,
   * the default: anyone can write that header), a number of proxy hops, or proxy addresses/CIDRs.
   */
  TRUST_PROXY: z.string().default("false"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  COOKIE_DOMAIN: z.string().min(1).optional(),
  /** Secure cookies; on by default in production. */
  COOKIE_SECURE: z.enum(["true", "false"]).optional(),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * Turning 2FA on and asking for the account's deletion need the current password, or a sign-in
   * at most this many minutes ago (0: always the password), so a borrowed or stolen session cannot
   * lock its owner out (issue 16, decision 018).
   */
  REAUTH_WINDOW_MINUTES: z.coerce.number().int().min(0).max(60).default(5),
  /** Seconds a maintenance answer may be served from this instance's memory. */
  MAINTENANCE_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(2),
  MAINTENANCE_RECHECK_MS: z.coerce.number().int().min(1000).max(60_000).default(60_000),
  JOBS_ENABLED: bool(true),
  JOBS_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** How long a claimed job is a worker's before another may take it over. */
  JOBS_LEASE_MS: z.coerce.number().int().min(1000).max(86_400_000).default(300_000),
  /** Dashboard rollups (decision 031): the refresh job's period while jobs run. */
  SALES_ROLLUP_REFRESH_MS: z.coerce.number().int().min(200).max(3_600_000).default(2000),
  /**
   * A dashboard read finding the rollups older than this refreshes them (the job late or off),
   * waiting for it past twice this age; unset: 10 s, and 0 under NODE_ENV=test, where a read must
   * see the sale made just before it.
   */
  SALES_ROLLUP_MAX_AGE_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
  /** How far an order's updated_at (the API's clock) may lag the database's: a refresh looks back this much more. */
  SALES_ROLLUP_OVERLAP_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  /** A creator's sale e-mails: the sales of one window of this many seconds make one e-mail (issue 21). */
  SALE_NOTIFY_COALESCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** The hour (UTC) the daily sales digest goes to creators who chose it. */
  SALES_DIGEST_HOUR_UTC: z.coerce.number().int().min(0).max(23).default(8),
  /**
   * How often the payout schedules are looked at (issue 23): each run starts the weekly, monthly
   * and threshold payouts that are due. 15 minutes by default; the browser tests use 1.
   */
  PAYOUT_SCHEDULE_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  /**
   * The risk rules that hold a payout for an operator's review (issue 23, decision 041): a comma
   * list of `payoutRiskRules`, all of them by default; "none" lets every payout go straight on.
   */
  PAYOUT_REVIEW_RULES: z
    .string()
    .default(payoutRiskRules.join(","))
    .transform((s) => (s.trim() === "none" ? [] : s.split(",").map((r) => r.trim())))
    .pipe(z.array(z.enum(payoutRiskRules))),
  /** above_threshold: a payout above this many minor units of its currency (default 1,000.00). */
  PAYOUT_REVIEW_ABOVE_MINOR: z.coerce.number().int().min(0).default(100_000),
  /** young_account: an account created less than this many days before the payout. */
  PAYOUT_REVIEW_ACCOUNT_AGE_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  /** recent_refunds / recent_reports: a refund of, or a report on, the creator's sales in these days. */
  PAYOUT_REVIEW_RECENT_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  /** bank_account_changed: the payout's bank account was added less than this many days before it. */
  PAYOUT_REVIEW_BANK_CHANGE_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  /**
   * A creator's refund that would leave anyone (the creator, their partner, a referrer) owing more
   * than this many minor units in all, because the sale's money was already paid out or claimed, is
   * refused with the amount; an operator may still refund it (issue 32, decision 042). 0: none.
   */
  REFUND_DEBT_LIMIT_MINOR: z.coerce.number().int().min(0).default(0),
  /** Who bears the payment provider's fee for a chargeback: the sale's creator, or the platform. */
  DISPUTE_FEE_BORNE_BY: z.enum(["creator", "platform"]).default("creator"),
  /**
   * How long after a chargeback opens its evidence is sent to the provider (issue 32): the creator
   * may add a note on the sale's page until then. Within the hour.
   */
  DISPUTE_EVIDENCE_DELAY_MINUTES: z.coerce.number().int().min(0).max(60).default(30),
  /** The fee the sandbox's card issuer charges for a dispute, in minor units (Stripe: 15.00). */
  SANDBOX_DISPUTE_FEE_MINOR: z.coerce.number().int().min(0).default(1500),
  /** How often the reconciliation job compares Stripe Connect balances with the payouts in flight. */
  CONNECT_RECONCILE_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
  SEED_DEMO: bool(true),
  /** Per client address and window: sign-in, sign-up, password and e-mail sending routes. */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  RATE_LIMIT_SIGNIN_MAX: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_SIGNUP_MAX: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_PASSWORD_MAX: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_EMAIL_MAX: z.coerce.number().int().min(1).default(3),
  /**
   * How long a started checkout holds a unit of a limited stock (or a use of a capped promo code):
   * short, so abandoned checkouts cannot keep a drop sold out for long (issue 16, stock squatting).
   */
  CHECKOUT_RESERVATION_MINUTES: z.coerce.number().int().min(1).max(60).default(10),
  /**
   * Reservations one client address, and one buyer e-mail, may take per reservation period: past
   * it, checkout answers 429, so a few anonymous calls cannot reserve a whole stock.
   */
  CHECKOUT_RESERVATIONS_PER_ADDRESS_MAX: z.coerce.number().int().min(1).default(3),
  CHECKOUT_RESERVATIONS_PER_EMAIL_MAX: z.coerce.number().int().min(1).default(2),
  /**
   * Wrong promo codes (quote and checkout) per client address, and per link from every address, in
   * PROMO_FAILURES_WINDOW_SECONDS: past it, 429, so codes cannot be guessed by trying them all.
   */
  PROMO_FAILURES_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  PROMO_FAILURES_PER_ADDRESS_MAX: z.coerce.number().int().min(1).default(10),
  PROMO_FAILURES_PER_LINK_MAX: z.coerce.number().int().min(1).default(50),
  /**
   * Reports one reporter (a hash of address and browser) may send in a day, over every link and
   * order: past it, POST /report answers 429 ReportLimitException, which says so.
   */
  REPORTS_PER_DAY_MAX: z.coerce.number().int().min(1).default(10),
  /** Updates one creator may send to their buyers over a rolling day: past it, POST /updates answers 429. */
  UPDATES_PER_DAY: z.coerce.number().int().min(1).max(100).default(3),
  /** Customers one job of an update's sending reads, e-mails and records (its memory is bounded by it). */
  UPDATES_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(500),
  /** Lets production run with sandbox providers on purpose (a demo or staging); refused otherwise. */
  ALLOW_SANDBOX_PROVIDERS: bool(false),
  /**
   * Secret every signature and sealed value derives its key from (storage URLs, sandbox webhooks,
   * 2FA secrets at rest): required everywhere, 32+ characters, never a constant in the source.
   * `npm start` makes one on first run and keeps it in DATA_DIR/app-secret.
   */
  APP_SECRET: z.string().min(32).optional(),
  /**
   * The unauthenticated /dev/* routes (outbox mail, hold release), answered to loopback clients
   * only. Off unless turned on (`npm start` does); production refuses to start with it.
   */
  DEV_ROUTES: bool(false),
  /** The OpenAPI UI and JSON at /docs. Default: on outside production, off in production. */
  DOCS_ENABLED: z
    .enum(["true", "false", "1", "0", "yes", "no"])
    .transform((v) => v === "true" || v === "1" || v === "yes")
    .optional(),
  /**
   * After SIGTERM, how long the instance keeps serving while readiness answers 503, so the load
   * balancer stops sending it traffic first. Default: 5000 in production, 0 otherwise.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(300_000).optional(),
  /** Past this, a shutdown that has not finished exits with status 1 (counted from the signal). */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /**
   * The Prometheus listener (GET /metrics), apart from the API so it never reaches the load balancer:
   * a port (0: any free one), or "off". Default: 9464 in production, off otherwise.
   */
  METRICS_PORT: z.union([z.literal("off"), z.coerce.number().int().min(0).max(65_535)]).optional(),
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  /** How long the ledger and jobs figures computed for a scrape are reused (scrapes come often). */
  METRICS_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(15_000),
});

export type Config = z.output<typeof envSchema> & {
  rules: z.output<typeof businessRulesEnvSchema>;
  mail: z.output<typeof mailEnvSchema>;
  botCheck: z.output<typeof botCheckEnvSchema>;
  storage: z.output<typeof storageEnvSchema>;
  payments: z.output<typeof paymentsEnvSchema>;
  payouts: z.output<typeof payoutsEnvSchema>;
  identity: z.output<typeof identityEnvSchema>;
  vies: z.output<typeof viesEnvSchema>;
  cookieSecure: boolean;
  appSecret: string;
  docsEnabled: boolean;
  shutdownDrainMs: number;
  /** SALES_ROLLUP_MAX_AGE_MS with its default applied. */
  salesRollupMaxAgeMs: number;
  /** null: no metrics listener. */
  metricsPort: number | null;
};

export class ConfigError extends Error {}

/** Every variable the API reads: deployment files may set these and no others (a test checks). */
export function configVariableNames(): string[] {
  const parts = [
    envSchema,
    businessRulesEnvSchema,
    mailEnvSchema,
    botCheckEnvSchema,
    storageEnvSchema,
    paymentsEnvSchema,
    payoutsEnvSchema,
    identityEnvSchema,
    viesEnvSchema,
  ];
  // Some parts are an object piped into a transform: the variables are the object's keys.
  const keys = (schema: (typeof parts)[number]) =>
    Object.keys("shape" in schema ? schema.shape : schema.in.shape);
  return [...new Set(parts.flatMap(keys))].sort();
}

/** Parses the environment once; a bad value stops start-up with a message naming the variable. */
export function loadConfig(rawEnv: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable counts as unset, as shells and compose files often leave them.
  const env = Object.fromEntries(Object.entries(rawEnv).filter(([, v]) => v !== undefined && v !== ""));
  // Refined schemas cannot be merged into one object: each part is parsed on its own.
  const parsed = envSchema.safeParse(env);
  const rules = businessRulesEnvSchema.safeParse(env);
  const mail = mailEnvSchema.safeParse(env);
  const botCheck = botCheckEnvSchema.safeParse(env);
  const storage = storageEnvSchema.safeParse(env);
  const payments = paymentsEnvSchema.safeParse(env);
  const payouts = payoutsEnvSchema.safeParse(env);
  const identity = identityEnvSchema.safeParse(env);
  const vies = viesEnvSchema.safeParse(env);
  if (
    !parsed.success ||
    !rules.success ||
    !mail.success ||
    !botCheck.success ||
    !storage.success ||
    !payments.success ||
    !payouts.success ||
    !identity.success ||
    !vies.success
  ) {
    const issues = [parsed, rules, mail, botCheck, storage, payments, payouts, identity, vies].flatMap(
      (r) => r.error?.issues ?? [],
    );
    const lines = issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const cfg = parsed.data;
  if (!cfg.APP_SECRET) {
    // No fallback: a constant in the source would let anyone sign storage URLs and webhooks.
    throw new ConfigError(
      `Invalid configuration:
  APP_SECRET: required (32 characters or more). \`npm start\` makes one and keeps it in DATA_DIR/app-secret;
  elsewhere set a random one, e.g. APP_SECRET=$(openssl rand -base64 48)`,
    );
  }
  if (cfg.NODE_ENV === "production" && cfg.DEV_ROUTES) {
    throw new ConfigError(
      "Invalid configuration:\n  DEV_ROUTES: must be off in production (the /dev routes have no authentication)",
    );
  }
  if (cfg.WEB_REVALIDATE_URL && !cfg.WEB_REVALIDATE_SECRET) {
    throw new ConfigError(
      "Invalid configuration:\n  WEB_REVALIDATE_SECRET: required with WEB_REVALIDATE_URL (32 characters or more)",
    );
  }
  const production = cfg.NODE_ENV === "production";
  const seller = ["INVOICE_SELLER_NAME", "INVOICE_SELLER_ADDRESS", "INVOICE_SELLER_VAT_NUMBER"] as const;
  const missingSeller = seller.filter((name) => !cfg[name]);
  if (production && missingSeller.length > 0) {
    // An invoice without its supplier's name, address and VAT number is not an invoice.
    throw new ConfigError(
      `Invalid configuration:\n${missingSeller.map((n) => `  ${n}: required in production (the invoices' supplier)`).join("\n")}`,
    );
  }
  const shutdownDrainMs = cfg.SHUTDOWN_DRAIN_MS ?? (production ? 5000 : 0);
  if (shutdownDrainMs >= cfg.SHUTDOWN_TIMEOUT_MS) {
    throw new ConfigError(
      `Invalid configuration:
  SHUTDOWN_DRAIN_MS: must be below SHUTDOWN_TIMEOUT_MS (${cfg.SHUTDOWN_TIMEOUT_MS})`,
    );
  }
  if (cfg.DATABASE_URL && cfg.JOBS_ENABLED && cfg.JOBS_CONCURRENCY >= cfg.DATABASE_POOL_SIZE) {
    // Each running job holds a connection; requests need some too.
    throw new ConfigError(
      `Invalid configuration:
  JOBS_CONCURRENCY: must be below DATABASE_POOL_SIZE (${cfg.DATABASE_POOL_SIZE})`,
    );
  }
  return {
    ...cfg,
    rules: rules.data,
    mail: mail.data,
    botCheck: botCheck.data,
    storage: storage.data,
    payments: payments.data,
    payouts: payouts.data,
    identity: identity.data,
    vies: vies.data,
    appSecret: cfg.APP_SECRET,
    docsEnabled: cfg.DOCS_ENABLED ?? !production,
    cookieSecure: cfg.COOKIE_SECURE ? cfg.COOKIE_SECURE === "true" : production,
    shutdownDrainMs,
    salesRollupMaxAgeMs: cfg.SALES_ROLLUP_MAX_AGE_MS ?? (cfg.NODE_ENV === "test" ? 0 : 10_000),
    metricsPort: cfg.METRICS_PORT === "off" ? null : (cfg.METRICS_PORT ?? (production ? 9464 : null)),
  };
}
