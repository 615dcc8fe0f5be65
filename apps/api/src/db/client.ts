import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { errorChain } from "../lib/pg-errors.ts";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;
/** The one database type every query function takes: PGlite and PostgreSQL alike. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A query function accepts the database or a transaction on it. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
  /** PGlite only: its whole data directory as a tarball, to open copies of it (`loadDataDir`). */
  dump?(): Promise<Blob>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent, PGlite is used. */
  url?: string;
  /** PGlite's directory; "memory://" keeps it in memory (tests). */
  dataDir: string;
  /**
   * PGlite only: starts from this dump of another database (`Database.dump`) instead of an empty
   * one; its pending migrations are still applied. The tests open each in-memory database from one
   * migrated dump: 1.3 s instead of 3.5 s each.
   */
  loadDataDir?: Blob;
  poolSize?: number;
  /**
   * Called when the server drops an idle pooled connection (restart, failover). Without a listener
   * node-postgres would crash the process; the pool replaces the connection on next use.
   */
  onPoolError?: (err: Error) => void;
}

/** node-postgres's and PostgreSQL's ways of saying the connection to the database is gone or refused. */
const connectionLost =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect)/;
const connectionCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "57P01",
  "57P02",
  "57P03",
]);

/**
 * True when `err` (or an error it wraps, as drizzle does) means the database could not be reached
 * or dropped the connection: a passing outage, not a bug (the server rolls an unfinished transaction back).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (const e of errorChain(err)) {
    if (!(e instanceof Error)) return false;
    const code = (e as Error & { code?: unknown }).code;
    if (typeof code === "string" && (connectionCodes.has(code) || code.startsWith("08"))) return true;
    if (connectionLost.test(e.message)) return true;
  }
  return false;
}

/** Arbitrary constant naming this application's migration lock. */
const MIGRATION_LOCK_ID = 72_410_001;

function migrationsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // src/db/migrations when running from source, dist/migrations from the bundle.
  const candidates = [path.join(here, "migrations"), path.join(here, "db", "migrations")];
  const found = candidates.find((dir) => existsSync(path.join(dir, "meta", "_journal.json")));
  if (!found) throw new Error(`No migrations found in ${candidates.join(" or ")}`);
  return found;
}

/** Opens the database and applies pending migrations (both drivers). */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const migrations = { migrationsFolder: migrationsFolder() };
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    const onError =
      options.onPoolError ?? ((err: Error) => console.error("database connection lost:", err.message));
    pool.on("error", onError);
    // A connection lost while checked out (in a request's transaction) emits "error" on its client,
    // where the pool listens only while the client is idle: unheard, it would crash the process.
    // The query in flight fails on its own, and the pool discards the client when it comes back.
    pool.on("connect", (client) => client.on("error", onError));
    const db = drizzleNodePg(pool, { schema });
    // Instances starting together take turns: the first migrates, the others find nothing to do.
    // The migration runs on the lock's own connection, so a pool of one is enough.
    const lock = await pool.connect();
    try {
      await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
      await migrateNodePg(drizzleNodePg(lock, { schema }), migrations);
    } finally {
      await lock.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => undefined);
      lock.release();
    }
    return { db, kind: "postgres", close: () => pool.end() };
  }
  const inMemory = options.dataDir.startsWith("memory://");
  if (!inMemory) await mkdir(options.dataDir, { recursive: true });
  const client = new PGlite({
    // The extensions the migrations create (PostgreSQL ships them in its contrib).
    extensions: { pg_trgm },
    ...(inMemory ? {} : { dataDir: options.dataDir }),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, migrations);
  return {
    db,
    kind: "pglite",
    close: () => client.close(),
    dump: async () => client.dumpDataDir("none"),
  };
}
