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
  /**
   * PostgreSQL only: samples what the bench database's connections are doing until stopped, and tells
   * the mean number of connections per state (waiting for a lock, idle in a transaction, ...).
   */
  sampleActivity?(): ActivitySampler;
  /**
   * PostgreSQL only: stands in for autovacuum's ANALYZE when the server runs without it (this
   * machine's does), so the planner sees a launch's tables as they grow, as in production.
   */
  keepAnalyzed?(): Analyzer;
}

export interface Analyzer {
  /** What was done, e.g. "autovacuum is off: ANALYZE every 10 s, 9 times"; undefined when nothing. */
  stop(): Promise<string | undefined>;
}

/** Autovacuum's naptime is a minute by default; a launch's tables change completely faster than that. */
const analyzeEveryMs = 10_000;

export interface ActivitySampler {
  /** The means over the samples, e.g. "6.8 waiting for a row lock, 1.1 idle in transaction"; undefined without samples. */
  stop(): Promise<string | undefined>;
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
    sampleActivity: () => sampleActivity(pg, adminUrl, name),
    keepAnalyzed: () => keepAnalyzed(pg, benchUrl.toString()),
    async dispose() {
      await withClient(pg, adminUrl, async (client) => {
        // FORCE (PostgreSQL 13+) ends connections a killed API may have left behind.
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
      console.log(`[bench] Dropped database ${name}.`);
    },
  };
}

/** What a connection is doing, in words, from pg_stat_activity. */
const activitySql = (database: string) => `
  select case
      when wait_event_type = 'Lock' then 'waiting for a lock (' || wait_event || ')'
      when state = 'idle in transaction' then 'idle in a transaction (waiting for the API)'
      when state = 'active' and wait_event_type = 'Client' then 'reading from the API'
      when state = 'active' and wait_event_type is not null then 'waiting for ' || wait_event
      when state = 'active' then 'running'
      else coalesce(state, 'unknown')
    end as what, count(*)::int as n
  from pg_stat_activity
  where datname = '${database}' and pid <> pg_backend_pid()
  group by 1`;

/** Polls pg_stat_activity every 250 ms on its own connection (read-only), for as long as a measurement. */
function sampleActivity(pg: PgModule, adminUrl: string, database: string): ActivitySampler {
  const totals = new Map<string, number>();
  let samples = 0;
  let running = true;
  const done = (async () => {
    const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3_000 });
    try {
      await client.connect();
      while (running) {
        const { rows } = await client.query(activitySql(database));
        samples += 1;
        for (const row of rows) {
          const what = String(row.what);
          totals.set(what, (totals.get(what) ?? 0) + Number(row.n));
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } catch {
      // Sampling is an extra: a failure only leaves the numbers out.
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      if (samples === 0) return undefined;
      return [...totals.entries()]
        .filter(([what]) => what !== "idle")
        .sort((a, b) => b[1] - a[1])
        .map(([what, total]) => `${(total / samples).toFixed(1)} ${what}`)
        .join(", ");
    },
  };
}

/** While autovacuum is off on the server, ANALYZE the bench database every `analyzeEveryMs`. */
function keepAnalyzed(pg: PgModule, url: string): Analyzer {
  let running = true;
  let wake: () => void = () => undefined;
  const done = (async (): Promise<string | undefined> => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
    let runs = 0;
    try {
      await client.connect();
      const { rows } = await client.query("SHOW autovacuum");
      if (rows[0]?.autovacuum === "on") return undefined;
      while (running) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, analyzeEveryMs);
        });
        if (!running) break;
        await client.query("ANALYZE");
        runs += 1;
      }
      return `autovacuum is off on this PostgreSQL: the bench ran ANALYZE every ${analyzeEveryMs / 1000} s instead (${runs} times)`;
    } catch (err) {
      return `autovacuum is off on this PostgreSQL and the bench's ANALYZE failed (${err instanceof Error ? err.message : err})`;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return {
    async stop() {
      running = false;
      wake();
      return done;
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
