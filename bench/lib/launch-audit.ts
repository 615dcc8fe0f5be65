/**
 * The API's own functions run on the bench database, in a child process with tsx
 * (`node --import tsx lib/launch-audit.ts <task>`, LAUNCH_AUDIT_DATABASE_URL set, LAUNCH_AUDIT_API_DIR
 * for another package than apps/api), each printing one line of JSON:
 * - `audit`: the ledger audit (`auditLedger`, apps/api/src/modules/wallet/ledger.ts), so the launch
 *   scenario checks the ledger exactly as the API's tests do, whatever its balance design;
 * - `rollups`: brings the dashboard rollups current after a bulk insert (`refreshSalesRollups`,
 *   apps/api/src/modules/wallet/summary/service.ts), when the API has them.
 * The API's source is imported by a computed path, so the bench's type check stays out of it.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { apiDir as defaultApiDir } from "./context.ts";

/** The package of the API being measured (the bench's --api-dir), whose source is run. */
const apiDir = process.env.LAUNCH_AUDIT_API_DIR || defaultApiDir;
const sourceFile = (file: string) => path.join(apiDir, "src", file);
const load = async <T>(file: string) => (await import(pathToFileURL(sourceFile(file)).href)) as T;

interface Pool {
  end(): Promise<void>;
}
interface Db {
  transaction<T>(run: (tx: unknown) => Promise<T>): Promise<T>;
}

/**
 * The API's schema over its own drivers, without running migrations: the API being measured has
 * already migrated this database, and its functions must see the database as that API left it.
 */
async function open(url: string): Promise<{ db: Db; pool: Pool }> {
  const require = createRequire(path.join(apiDir, "package.json"));
  const pg = require("pg") as { Pool: new (c: { connectionString: string; max: number }) => Pool };
  const { drizzle } = require("drizzle-orm/node-postgres") as {
    drizzle: (pool: Pool, config: { schema: unknown }) => Db;
  };
  const schema = await load<Record<string, unknown>>("db/schema/index.ts");
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  return { db: drizzle(pool, { schema }), pool };
}

async function audit(db: Db): Promise<unknown> {
  const { auditLedger } = await load<{ auditLedger(db: Db): Promise<Record<string, string[]>> }>(
    "modules/wallet/ledger.ts",
  );
  const problems = await auditLedger(db);
  // Counts and a few examples: one short line, whatever the number of problems.
  return {
    problems: Object.fromEntries(
      Object.entries(problems).map(([name, list]) => [
        name,
        { count: list.length, sample: list.slice(0, 5) },
      ]),
    ),
  };
}

async function rollups(db: Db): Promise<unknown> {
  const file = "modules/wallet/summary/service.ts";
  if (!existsSync(sourceFile(file))) return { done: "this API keeps no rollups: reads computed per request" };
  const { refreshSalesRollups } = await load<{
    refreshSalesRollups(tx: unknown): Promise<{ salesRows: number; referralRows: number }>;
  }>(file);
  const started = Date.now();
  const result = await db.transaction((tx) => refreshSalesRollups(tx));
  return {
    done: `refreshSalesRollups in ${Date.now() - started} ms (${result.salesRows} sales rows, ${result.referralRows} referral rows)`,
  };
}

/** The innermost message (drizzle wraps the driver's error, whose message says what is wrong). */
function rootMessage(err: unknown): string {
  let e = err;
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  return e instanceof Error ? e.message : String(e);
}

const url = process.env.LAUNCH_AUDIT_DATABASE_URL;
const task = process.argv[2];
if (!url || (task !== "audit" && task !== "rollups")) {
  console.error("usage: LAUNCH_AUDIT_DATABASE_URL=… node --import tsx lib/launch-audit.ts audit|rollups");
  process.exit(2);
}
const { db, pool } = await open(url);
try {
  console.log(JSON.stringify(await (task === "audit" ? audit(db) : rollups(db))));
} catch (err) {
  // Typically the API's source ahead of the built API that made this database (rebuild with --rebuild).
  console.log(JSON.stringify({ error: rootMessage(err) }));
  process.exitCode = 3;
} finally {
  await pool.end();
}
