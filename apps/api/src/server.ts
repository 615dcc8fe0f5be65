import { Redis } from "ioredis";
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";
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
  const app = await buildApp({ config, db: database.db, redis });
  if (config.SEED_DEMO) {
    await seedDemo(database.db, app.log);
    await seedDemoCatalogue(database.db, app.services.storage, app.log);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    await app.close();
    redis?.disconnect();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ host: config.API_HOST, port: config.API_PORT });
  app.log.info({ database: database.kind, redis: Boolean(redis) }, "api ready");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
