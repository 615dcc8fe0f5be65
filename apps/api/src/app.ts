import fastifyCookie from "@fastify/cookie";
import fastifyCors from "@fastify/cors";
import fastifyHelmet from "@fastify/helmet";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Redis } from "ioredis";
import type { Config } from "./config.ts";
import type { Db } from "./db/client.ts";
import { JobRegistry, jobsPlugin, Worker } from "./jobs/index.ts";
import { redactPaths, redactUrl } from "./lib/redact.ts";
import { TtlCache } from "./lib/ttl-cache.ts";
import { profileRoutes } from "./modules/account/routes.ts";
import { adminAccountRoutes } from "./modules/admin/accounts/routes.ts";
import { adminExportRoutes } from "./modules/admin/exports/routes.ts";
import { adminOverviewRoutes } from "./modules/admin/overview/routes.ts";
import { adminReportRoutes } from "./modules/admin/reports/routes.ts";
import { adminVatRoutes } from "./modules/admin/vat/routes.ts";
import { clickRoutes } from "./modules/affiliates/clicks/routes.ts";
import { campaignRoutes } from "./modules/affiliates/routes.ts";
import { auditRoutes } from "./modules/audit/routes.ts";
import { authRoutes } from "./modules/auth/routes.ts";
import { createPublicCache } from "./modules/catalogue/public/cache.ts";
import { registerRevalidateJobs } from "./modules/catalogue/revalidate.ts";
import { catalogueRoutes } from "./modules/catalogue/routes.ts";
import { checkoutRoutes } from "./modules/checkout/routes.ts";
import { applyCardCountry, receivePaymentDelivery } from "./modules/checkout/service.ts";
import { customerRoutes } from "./modules/customers/routes.ts";
import { drainPlugin, Lifecycle } from "./modules/health/lifecycle.ts";
import { healthRoutes } from "./modules/health/routes.ts";
import { mailAttachments } from "./modules/invoices/downloads.ts";
import { invoiceRoutes } from "./modules/invoices/routes.ts";
import { identityRoutes } from "./modules/kyc/routes.ts";
import { receiveIdentityDelivery } from "./modules/kyc/service.ts";
import { registerMailJobs } from "./modules/mail/jobs.ts";
import { devMailEnabled, devMailRoutes } from "./modules/mail/routes.ts";
import { maintenanceRoutes } from "./modules/maintenance/routes.ts";
import { MaintenanceService } from "./modules/maintenance/service.ts";
import { Metrics, metricsPlugin } from "./modules/metrics/index.ts";
import { registerNotificationJobs } from "./modules/notifications/jobs.ts";
import { notificationRoutes } from "./modules/notifications/routes.ts";
import { scheduleSalesDigest } from "./modules/notifications/service.ts";
import { disputeRoutes } from "./modules/orders/disputes/routes.ts";
import { registerOrderJobs } from "./modules/orders/jobs.ts";
import { saleRefundRoutes } from "./modules/orders/refunds/routes.ts";
import { orderRoutes } from "./modules/orders/routes.ts";
import { PartnerAttributions } from "./modules/partners/attribution/service.ts";
import { partnerClickRoutes } from "./modules/partners/clicks/routes.ts";
import { partnerRoutes } from "./modules/partners/routes.ts";
import { adminPayoutRoutes } from "./modules/payouts/admin/routes.ts";
import { bankAccountRoutes } from "./modules/payouts/bank-accounts/routes.ts";
import { applyPayoutEvent, registerPayoutJobs } from "./modules/payouts/events.ts";
import { registerReconcileJobs, scheduleNextReconcile } from "./modules/payouts/reconcile.ts";
import { payoutRoutes } from "./modules/payouts/routes.ts";
import { registerPayoutScheduleJobs } from "./modules/payouts/schedules/jobs.ts";
import { payoutScheduleRoutes } from "./modules/payouts/schedules/routes.ts";
import { scheduleNextPayoutTick } from "./modules/payouts/schedules/service.ts";
import { purchaseRoutes } from "./modules/purchases/routes.ts";
import { reportRoutes } from "./modules/reports/routes.ts";
import { registerUpdateJobs } from "./modules/updates/jobs.ts";
import { updateRoutes } from "./modules/updates/routes.ts";
import { registerUploadJobs } from "./modules/uploads/cleanup.ts";
import { uploadRoutes } from "./modules/uploads/routes.ts";
import { adminDebtRoutes } from "./modules/wallet/debts/routes.ts";
import { registerDebtJobs } from "./modules/wallet/debts/service.ts";
import { registerWalletJobs } from "./modules/wallet/jobs.ts";
import { walletRoutes } from "./modules/wallet/routes.ts";
import { registerSalesSummaryJobs } from "./modules/wallet/summary/jobs.ts";
import { authPlugin } from "./plugins/auth.ts";
import { ignoreContentTypeWithoutBody } from "./plugins/empty-body.ts";
import { frameworkErrors, registerErrorHandler } from "./plugins/error-handler.ts";
import { i18nPlugin } from "./plugins/i18n.ts";
import { maintenanceGate } from "./plugins/maintenance-gate.ts";
import { originCheck } from "./plugins/origin-check.ts";
import { type BotCheck, createBotCheck } from "./providers/bot-check/index.ts";
import { createIdentityProvider, type IdentityProvider } from "./providers/identity/index.ts";
import { registerSandboxIdentityJobs } from "./providers/identity/sandbox/jobs.ts";
import { sandboxIdentityRoutes } from "./providers/identity/sandbox/routes.ts";
import { createMailProvider, type MailProvider } from "./providers/mail/index.ts";
import { createPaymentProvider, type PaymentProvider } from "./providers/payments/index.ts";
import { sandboxDisputeRoutes } from "./providers/payments/sandbox/dispute-routes.ts";
import { registerSandboxPaymentJobs } from "./providers/payments/sandbox/jobs.ts";
import { sandboxPaymentRoutes } from "./providers/payments/sandbox/routes.ts";
import { createPayoutProvider, type PayoutProvider } from "./providers/payouts/index.ts";
import { registerSandboxPayoutJobs } from "./providers/payouts/sandbox/jobs.ts";
import { assertPaymentsMatchPayouts, assertProductionProviders } from "./providers/production-guard.ts";
import { createObjectStorage, type ObjectStorage } from "./providers/storage/index.ts";
import { createViesProvider, type ViesProvider } from "./providers/vies/index.ts";

export const API_VERSION = "0.1.0";

export interface AppDeps {
  config: Config;
  db: Db;
  redis?: Redis;
  /** Where log lines go (tests read them); standard output by default. */
  logStream?: { write(line: string): void };
  /** Keys of the shared rate-limit counters in Redis (tests isolate themselves with it). */
  rateLimitNamespace?: string;
  /** Prefix of the click counter's keys in Redis (tests isolate themselves with it). */
  clicksNamespace?: string;
  /** Process metrics (CPU, memory, event loop) in the registry: the server turns them on, tests not. */
  processMetrics?: boolean;
  /** Replace the configured providers (tests). */
  providers?: {
    botCheck?: BotCheck;
    mail?: MailProvider;
    storage?: ObjectStorage;
    payments?: PaymentProvider;
    payouts?: PayoutProvider;
    identity?: IdentityProvider;
    vies?: ViesProvider;
  };
}

export interface Services {
  maintenance: MaintenanceService;
  /** Readiness turns 503 once draining starts (server.ts, on SIGTERM). */
  lifecycle: Lifecycle;
  /** Served on the separate metrics listener (server.ts), never through the API's routes. */
  metrics: Metrics;
  /** Domain modules register their job kinds here; the worker runs them. */
  jobs: { registry: JobRegistry; worker: Worker };
  botCheck: BotCheck;
  mail: MailProvider;
  storage: ObjectStorage;
  payments: PaymentProvider;
  payouts: PayoutProvider;
  identity: IdentityProvider;
  /** Whether a buyer's VAT number exists (issue 22); the checkout asks it, nothing caches it. */
  vies: ViesProvider;
}

declare module "fastify" {
  interface FastifyInstance {
    services: Services;
  }
}

export function loggerOptions(config: Config, stream?: AppDeps["logStream"]): FastifyServerOptions["logger"] {
  if (config.LOG_LEVEL === "silent") return false;
  return {
    level: config.LOG_LEVEL,
    ...(stream ? { stream } : {}),
    redact: { paths: redactPaths, censor: "[redacted]" },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
      }),
    },
  };
}

/** TRUST_PROXY as Fastify understands it: off, a number of proxy hops, or proxy addresses. */
export function trustProxySetting(
  value: string,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (value === "false" || value === "") return false;
  if (value === "true") return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value.split(",").map((v) => v.trim());
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps;
  const app = Fastify({
    logger: loggerOptions(config, deps.logStream),
    trustProxy: trustProxySetting(config.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
    // The router's own refusals (over-long path parameter, malformed URL) in the one error format.
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // Before any plugin, so the hook runs for every route.
  ignoreContentTypeWithoutBody(app);

  const botCheck = deps.providers?.botCheck ?? createBotCheck(config.botCheck);
  const mail = deps.providers?.mail ?? createMailProvider(config.mail, db);
  const storage =
    deps.providers?.storage ??
    createObjectStorage(config.storage, {
      apiPublicUrl: config.API_PUBLIC_URL,
      signingSecret: config.appSecret,
    });
  const payments =
    deps.providers?.payments ?? createPaymentProvider(config.payments, { db, appSecret: config.appSecret });
  const payouts = deps.providers?.payouts ?? createPayoutProvider(config.payouts);
  const identity =
    deps.providers?.identity ??
    createIdentityProvider(config.identity, { appSecret: config.appSecret, webOrigin: config.WEB_ORIGIN });
  const vies = deps.providers?.vies ?? createViesProvider(config.vies);
  assertProductionProviders({
    nodeEnv: config.NODE_ENV,
    allowSandbox: config.ALLOW_SANDBOX_PROVIDERS,
    providers: [
      { name: "bot-check", kind: botCheck.kind },
      { name: "mail", kind: mail.kind, sandbox: mail.kind === "outbox" },
      // One machine's disk: fine for a demo, not for several instances behind a load balancer.
      { name: "storage", kind: storage.kind, sandbox: storage.kind === "local" },
      { name: "payments", kind: payments.kind },
      // `manual` is not a sandbox: the operator pays each approved payout by bank transfer.
      { name: "payouts", kind: payouts.kind, sandbox: payouts.kind === "sandbox" },
      { name: "identity", kind: identity.kind },
      // The sandbox makes its answers up: a reverse charge on its word would be VAT left unpaid.
      { name: "vies", kind: vies.kind },
    ],
  });
  assertPaymentsMatchPayouts({ nodeEnv: config.NODE_ENV, payments: payments.kind, payouts: payouts.kind });

  const metrics = new Metrics({
    db,
    cacheMs: config.METRICS_CACHE_MS,
    defaultMetrics: deps.processMetrics ?? false,
  });
  const registry = new JobRegistry();
  // Every module's job handlers, here and nowhere else (never from an HTTP plugin).
  registerMailJobs(registry, { mail, attachments: mailAttachments });
  registerRevalidateJobs(registry, { config });
  registerUploadJobs(registry, { storage });
  registerPayoutJobs(registry, { config, payouts });
  if (payouts.kind === "sandbox") {
    registerSandboxPayoutJobs(registry, { apply: (tx, event) => applyPayoutEvent(tx, payouts, event) });
  }
  registerPayoutScheduleJobs(registry, { config, payouts });
  // Stripe Connect's reconciliation (issue 32): only a provider with connected accounts has one.
  if (payouts.connectedBalances) registerReconcileJobs(registry, { config, payouts });
  // A sandbox's deliveries exist only where that sandbox is the provider (as do its routes, below).
  if (payments.kind === "sandbox") {
    registerSandboxPaymentJobs(registry, {
      appSecret: config.appSecret,
      receive: (tx, rawBody, headers) => receivePaymentDelivery({ config, payments }, tx, rawBody, headers),
    });
  }
  if (identity.kind === "sandbox") {
    registerSandboxIdentityJobs(registry, {
      appSecret: config.appSecret,
      receive: (tx, rawBody, headers) => receiveIdentityDelivery(identity, tx, rawBody, headers),
    });
  }
  registerOrderJobs(registry, { config, payments });
  registerWalletJobs(registry);
  registerDebtJobs(registry, { config });
  registerSalesSummaryJobs(registry, { config });
  registerUpdateJobs(registry, { config, mail });
  registerNotificationJobs(registry, { config });
  const services: Services = {
    botCheck,
    mail,
    storage,
    payments,
    payouts,
    identity,
    vies,
    lifecycle: new Lifecycle(),
    metrics,
    maintenance: new MaintenanceService(db, {
      cacheMs: config.MAINTENANCE_CACHE_SECONDS * 1000,
      recheckMs: config.MAINTENANCE_RECHECK_MS,
    }),
    jobs: {
      registry,
      worker: new Worker({
        db,
        registry,
        logger: app.log.child({ module: "jobs" }),
        pollMs: config.JOBS_POLL_MS,
        concurrency: config.JOBS_CONCURRENCY,
        leaseMs: config.JOBS_LEASE_MS,
        onRunEnd: (kind, outcome, ms) => metrics.observeJob(kind, outcome, ms),
      }),
    },
  };
  app.decorate("services", services);

  await app.register(metricsPlugin, { metrics });
  await app.register(drainPlugin, { lifecycle: services.lifecycle });
  await app.register(i18nPlugin);
  await app.register(fastifyCookie);
  await app.register(fastifyCors, {
    origin: [config.WEB_ORIGIN],
    credentials: true,
    methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
  });
  // The API answers JSON only; the docs UI needs its own scripts and styles.
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: false,
    crossOriginResourcePolicy: { policy: "same-site" },
  });
  await app.register(fastifyRateLimit, {
    global: false,
    ...(deps.redis ? { redis: deps.redis, nameSpace: `${deps.rateLimitNamespace ?? "salelink"}:rl:` } : {}),
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: "Salelink API",
        description: "The API base of the Salelink platform.",
        version: API_VERSION,
      },
      servers: [{ url: config.API_PUBLIC_URL }],
      components: { securitySchemes: { session: { type: "apiKey", in: "cookie", name: "sid" } } },
    },
    transform: jsonSchemaTransform,
  });
  // The route list is a map for an attacker: production serves it only when DOCS_ENABLED says so.
  if (config.docsEnabled) await app.register(fastifySwaggerUi, { routePrefix: "/docs" });

  await app.register(originCheck, { allowed: [config.WEB_ORIGIN, config.API_PUBLIC_URL] });
  await app.register(authPlugin, { db, config });
  await app.register(maintenanceGate, { service: services.maintenance });
  await app.register(jobsPlugin, { worker: services.jobs.worker, enabled: config.JOBS_ENABLED });
  // The daily sales digest is a chain of runs; every instance that runs jobs makes sure it exists.
  if (config.JOBS_ENABLED) {
    app.addHook("onReady", async () => {
      // Not worth refusing to start over: the next instance's start or a creator choosing the digest retries.
      await scheduleSalesDigest(db, config).catch((err: unknown) =>
        app.log.warn({ err }, "Could not queue the daily sales digest"),
      );
      // The payout schedules' chain, the same way (issue 23).
      await scheduleNextPayoutTick(db, config).catch((err: unknown) =>
        app.log.warn({ err }, "Could not queue the payout schedules' run"),
      );
      if (services.payouts.connectedBalances)
        await scheduleNextReconcile(db, config).catch((err: unknown) =>
          app.log.warn({ err }, "Could not queue the Stripe Connect reconciliation"),
        );
    });
  }

  await app.register(healthRoutes, {
    db,
    version: API_VERSION,
    lifecycle: services.lifecycle,
    ...(deps.redis ? { redis: deps.redis } : {}),
  });
  await app.register(maintenanceRoutes, { service: services.maintenance });
  const authDeps = { db, config, botCheck, pokeJobs: () => services.jobs.worker.poke() };
  await app.register(authRoutes, authDeps);
  await app.register(profileRoutes, authDeps);
  await app.register(notificationRoutes, { db, config });
  const publicCache = createPublicCache(config);
  await app.register(catalogueRoutes, { db, config, publicCache });
  await app.register(uploadRoutes, { db, config });
  await app.register(walletRoutes, { db, config });
  await app.register(adminDebtRoutes, { db });
  await app.register(bankAccountRoutes, { db, config });
  const payoutDeps = { db, config, payouts, pokeJobs: authDeps.pokeJobs };
  await app.register(payoutRoutes, payoutDeps);
  await app.register(adminPayoutRoutes, payoutDeps);
  await app.register(payoutScheduleRoutes, payoutDeps);
  await app.register(adminAccountRoutes, { db, config, publicCache });
  await app.register(auditRoutes, { db });
  await app.register(adminOverviewRoutes, { db });
  await app.register(adminReportRoutes, { db, config, publicCache, pokeJobs: authDeps.pokeJobs });
  await app.register(orderRoutes, { db, config, payments, storage, pokeJobs: authDeps.pokeJobs });
  await app.register(saleRefundRoutes, { db, config, payments, pokeJobs: authDeps.pokeJobs });
  await app.register(disputeRoutes, { db });
  await app.register(invoiceRoutes, { db, config });
  await app.register(purchaseRoutes, { db, config, storage, pokeJobs: authDeps.pokeJobs });
  await app.register(updateRoutes, { db, config, pokeJobs: authDeps.pokeJobs });
  await app.register(customerRoutes, {
    db,
    counts: new TtlCache<number>({ ttlMs: config.CUSTOMERS_COUNT_CACHE_MS, maxEntries: 10_000 }),
  });
  await app.register(reportRoutes, { db, config });
  await app.register(adminExportRoutes, { db, config });
  await app.register(adminVatRoutes, { db });
  const attributions = new PartnerAttributions(db, config);
  await app.register(checkoutRoutes, { db, config, payments, attributions, vies });
  if (payments.kind === "sandbox") {
    await app.register(sandboxPaymentRoutes, {
      db,
      pokeJobs: authDeps.pokeJobs,
      cardCountry: (orderId, country, confirmed) => applyCardCountry(db, config, orderId, country, confirmed),
      disputeFeeMinor: config.SANDBOX_DISPUTE_FEE_MINOR,
    });
    await app.register(sandboxDisputeRoutes, {
      db,
      feeMinor: config.SANDBOX_DISPUTE_FEE_MINOR,
      pokeJobs: authDeps.pokeJobs,
    });
  }
  await app.register(identityRoutes, { db, config, identity });
  if (identity.kind === "sandbox") {
    await app.register(sandboxIdentityRoutes, { db, pokeJobs: authDeps.pokeJobs });
  }
  const clickDeps = {
    db,
    config,
    ...(deps.redis ? { redis: deps.redis } : {}),
    namespace: deps.clicksNamespace ?? "salelink",
  };
  await app.register(clickRoutes, clickDeps);
  await app.register(partnerClickRoutes, clickDeps);
  await app.register(campaignRoutes, { db, config });
  await app.register(partnerRoutes, { db, config, pokeJobs: authDeps.pokeJobs, attributions });
  if (devMailEnabled(config)) await app.register(devMailRoutes, { db });

  return app;
}
