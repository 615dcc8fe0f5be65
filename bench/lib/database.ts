import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

/** The few parts of node-postgres used here. */
interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<void>;
}
interface PgModule {
  Client: new (config: { connectionString: string; connectionTimeoutMillis?: number }) => PgClient;
}

export interface BenchDatabase {
  /** What the API gets: DATABASE_URL or DATA_DIR. */
  env: Record<string, string>;
  /** Human description for the report, e.g. "PostgreSQL 15.20 (fresh database salelink_bench_1a2b3c4d)". */
  description: string;
  dispose(): Promise<void>;
}

const loopbackHosts = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/**
 * node-postgres is the API's own dependency: loading it through the API's package keeps the bench on
 * the exact driver the API uses, without a second declaration to keep in step.
 */
function loadPg(apiDir: string): PgModule {
  const require = createRequire(path.join(apiDir, "package.json"));
  return require("pg") as PgModule;
}

async function withClient<T>(pg: PgModule, url: string, use: (client: PgClient) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database on the given PostgreSQL, dropped afterwards, so runs never see each other's data;
 * PGlite in a temporary directory when that server cannot be reached.
 */
export async function createBenchDatabase(adminUrl: string, apiDir: string): Promise<BenchDatabase> {
  const url = new URL(adminUrl);
  // The bench creates and drops databases: it only ever does so on this machine.
  if (!loopbackHosts.has(url.hostname)) {
    throw new Error(`Refusing to use a non-loopback database host "${url.hostname}"; use 127.0.0.1`);
  }
  const pg = loadPg(apiDir);
  const name = `salelink_bench_${randomBytes(4).toString("hex")}`;
  let version: string;
  try {
    version = await withClient(pg, adminUrl, async (client) => {
      const { rows } = await client.query("SHOW server_version");
      await client.query(`CREATE DATABASE "${name}"`);
      return String(rows[0]?.server_version ?? "?");
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message || err.name : String(err);
    return createPgliteDatabase(`PostgreSQL at ${redact(url)} is unreachable or refused (${reason})`);
  }
  const benchUrl = new URL(adminUrl);
  benchUrl.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: benchUrl.toString() },
    description: `PostgreSQL ${version} on 127.0.0.1 (fresh database ${name}, dropped afterwards)`,
    async dispose() {
      await withClient(pg, adminUrl, async (client) => {
        // FORCE (PostgreSQL 13+) ends connections a killed API may have left behind.
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
      console.log(`[bench] Dropped database ${name}.`);
    },
  };
}

async function createPgliteDatabase(reason: string): Promise<BenchDatabase> {
  const dir = await mkdtemp(path.join(tmpdir(), "salelink-bench-pglite-"));
  console.warn(
    [
      "",
      `!! ${reason}.`,
      `!! Falling back to embedded PGlite in ${dir}: the API's numbers are then not comparable with a`,
      "!! PostgreSQL run. Start PostgreSQL or pass --database-url to measure against it.",
      "",
    ].join("\n"),
  );
  return {
    env: { DATA_DIR: dir },
    description: "embedded PGlite in a temporary directory (PostgreSQL was unreachable)",
    async dispose() {
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function redact(url: URL): string {
  const copy = new URL(url.toString());
  if (copy.password) copy.password = "***";
  return copy.toString();
}
