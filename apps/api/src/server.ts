import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { type MetricsServer, startMetricsServer } from "./modules/metrics/index.ts";
import { SandboxInProductionError } from "./providers/production-guard.ts";
import { seedDemo } from "./seed.ts";
import { seedDemoCatalogue } from "./seed-catalogue.ts";

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 }) : undefined;
  // Process metrics (GC observer, event-loop monitor) only when something can scrape them.
  const app = await buildApp({ config, db: database.db, redis, processMetrics: config.metricsPort !== null });
  if (config.SEED_DEMO) {
    await seedDemo(database.db, app.log);
    await seedDemoCatalogue(database.db, app.services.storage, app.log);
  }
  let metricsServer: MetricsServer | undefined;

  let closing = false;
  /*
   * A deploy replaces instances one by one: readiness turns 503 at once, the load balancer stops
   * sending new requests within its probe interval (the drain), then the server stops listening,
   * lets requests in flight finish, and the onClose hooks flush the click buffer and stop the jobs
   * worker (which hands back what it has not started) before Redis and the database close.
   */
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // Referenced on purpose: should the steps below wait on nothing alive, this still ends it, with 1.
    setTimeout(() => {
      app.log.error({ timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, "shutdown took too long; exiting");
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    app.services.lifecycle.startDraining();
    app.log.info({ signal, drainMs: config.shutdownDrainMs }, "shutting down: draining");
    await sleep(config.shutdownDrainMs);
    // Connections that fall idle after close() began would otherwise stay open until their
    // keep-alive timeout (72 s in Fastify) and hold the close up; no request is in flight on them.
    const idleSweep = setInterval(() => app.server.closeIdleConnections(), 250);
    // The worker stops claiming now, not once the last request is answered (onClose waits for it).
    await Promise.all([app.services.jobs.worker.stop(), app.close()]);
    clearInterval(idleSweep);
    await metricsServer?.close();
    if (redis) await redis.quit().catch(() => redis.disconnect());
    await database.close();
    app.log.info("shut down");
    process.exit(0);
  };
  const onSignal = (signal: string) => {
    shutdown(signal).catch((err: unknown) => {
      app.log.error({ err }, "shutdown failed");
      process.exit(1);
    });
  };
  process.on("SIGINT", () => onSignal("SIGINT"));
  process.on("SIGTERM", () => onSignal("SIGTERM"));

  await app.listen({ host: config.API_HOST, port: config.API_PORT });
  if (config.metricsPort !== null) {
    metricsServer = await startMetricsServer(app.services.metrics, {
      host: config.METRICS_HOST,
      port: config.metricsPort,
      onError: (err) => app.log.error({ err }, "metrics scrape failed"),
    });
    app.log.info({ host: config.METRICS_HOST, port: metricsServer.port }, "metrics listening");
  }
  app.log.info({ database: database.kind, redis: Boolean(redis) }, "api ready");
}

main().catch((err) => {
  // A refused configuration is the operator's to fix: its message says how, a stack trace would not.
  console.error(err instanceof SandboxInProductionError ? err.message : err);
  process.exit(1);
});
