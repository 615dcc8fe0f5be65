import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { type AppDeps, buildApp } from "../../src/app.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import { type Database, openDatabase } from "../../src/db/client.ts";

/** "postgres" when the suite runs against PostgreSQL (DATABASE_URL set), else "pglite". */
export const dbKind = process.env.DATABASE_URL ? "postgres" : "pglite";

let migrated: Promise<Blob> | undefined;

/** One migrated, empty PGlite per test process, dumped: every test database starts as a copy. */
function migratedPglite(): Promise<Blob> {
  migrated ??= (async () => {
    const database = await openDatabase({ dataDir: "memory://" });
    try {
      if (!database.dump) throw new Error("PGlite cannot be dumped");
      return await database.dump();
    } finally {
      await database.close();
    }
  })();
  return migrated;
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a new PostgreSQL database
 * created next to DATABASE_URL's and dropped afterwards.
 */
export async function testDatabase(): Promise<Database & { url?: string }> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return openDatabase({ dataDir: "memory://", loadDataDir: await migratedPglite() });
  const name = `salelink_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({
    url: url.toString(),
    dataDir: "unused",
    poolSize: 20,
    // close() drops the database WITH (FORCE) while pool.end() may still be closing connections.
    onPoolError: () => undefined,
  });
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/** A throwaway secret per test process: no signature made by a test holds for another run. */
export const TEST_APP_SECRET = randomBytes(32).toString("base64url");

/** The invoices' supplier, which production requires (issue 22). */
export const TEST_INVOICE_SELLER = {
  INVOICE_SELLER_NAME: "Salelink Test SAS",
  INVOICE_SELLER_ADDRESS: "1 rue de l'Exemple|75001 Paris|France",
  INVOICE_SELLER_VAT_NUMBER: "FR40303265045",
} as const;

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    ...TEST_INVOICE_SELLER,
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    SEED_DEMO: "false",
    JOBS_ENABLED: "false",
    APP_SECRET: TEST_APP_SECRET,
    // The suites were written for the operator's bank transfers; the sandbox bank has its own tests.
    PAYOUT_PROVIDER: "manual",
    // The suites drive holds and read mail through the dev routes (production refuses them); their
    // default (off) and their loopback check are tested in platform/dev-routes.test.ts.
    DEV_ROUTES: overrides.NODE_ENV === "production" ? "false" : "true",
    ...overrides,
  });
}

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

export async function testApp(
  overrides: Record<string, string> = {},
  /** Adds routes of the test's own before the app is sealed. */
  beforeReady?: (app: FastifyInstance) => void,
  /** Stand-ins for configured providers (a payment provider that fails, …). */
  providers?: AppDeps["providers"],
): Promise<TestContext> {
  const database = await testDatabase();
  const config = testConfig(overrides);
  const app = await buildApp({ config, db: database.db, ...(providers ? { providers } : {}) });
  beforeReady?.(app);
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
