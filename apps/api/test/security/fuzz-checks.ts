import { errorResponseSchema } from "@salelink/contracts";
import { sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import type { Database } from "../../src/db/client.ts";
import { rowsOf } from "../../src/modules/wallet/ledger.ts";

/*
 * What every answer to a bad request must be: no server error, no stack trace, the one error format,
 * and nothing stored when the request was refused.
 */

/** Frames and paths a stack trace or a leaked error would carry. */
const traces: readonly RegExp[] = [
  /(?:\n|\\n)\s+at \S/,
  /\bat [^\s(]+ \([^)]*:\d+:\d+\)/,
  /[\w./-]+\.(?:ts|js|mjs|cjs):\d+:\d+/,
  /node_modules/,
  /\/src\//,
  /\/work\//,
];

/**
 * Problems with one answer; `documented` lists the statuses the route's OpenAPI document declares
 * (a 503 is fine where the route says it may be unavailable).
 */
export function answerProblems(res: LightMyRequestResponse, documented: readonly string[]): string[] {
  const problems: string[] = [];
  const status = res.statusCode;
  if (status >= 500 && !(status === 503 && documented.includes("503"))) problems.push(`status ${status}`);
  const isError = status >= 400;
  const isJson = String(res.headers["content-type"] ?? "").includes("json");
  // Error answers are ours through and through; a successful answer may be a file or a page.
  const checked = isError ? traces : traces.slice(0, 3);
  if (isError || isJson) {
    for (const pattern of checked) {
      if (pattern.test(res.body)) problems.push(`body matches ${pattern}: ${res.body.slice(0, 200)}`);
    }
  }
  if (isError) {
    let body: unknown;
    try {
      body = res.json();
    } catch {
      problems.push(`error body is not JSON: ${res.body.slice(0, 200)}`);
      return problems;
    }
    const parsed = errorResponseSchema.safeParse(body);
    if (!parsed.success) problems.push(`error body off the format: ${res.body.slice(0, 200)}`);
    else if (parsed.data.statusCode !== status)
      problems.push(`statusCode ${parsed.data.statusCode} in a ${status}`);
    else if (parsed.data.error === "InternalServerErrorException")
      problems.push("InternalServerErrorException");
  }
  return problems;
}

/**
 * Tables whose row count may change while a refused request is answered, through no fault of it.
 * - campaign_click_days: the click buffer writes the clicks counted by earlier, accepted calls on
 *   its own timer (CLICK_FLUSH_MS), whenever it fires.
 * (The job worker does not run in tests, JOBS_ENABLED=false: the jobs table is checked too.)
 */
export const countedApart = new Set(["campaign_click_days"]);

export type Counts = Record<string, number>;

/** The row count of every table of the application (PGlite and PostgreSQL alike). */
export async function tableCounter(database: Database): Promise<() => Promise<Counts>> {
  const tables = rowsOf<{ name: string }>(
    await database.db.execute(
      sql`select c.relname as name from pg_catalog.pg_class c
          join pg_catalog.pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`,
    ),
  ).map((r) => r.name);
  if (tables.length < 10) throw new Error(`only ${tables.length} tables found`);
  const query = sql.raw(
    tables.map((t) => `select '${t}' as name, count(*)::int as n from "${t}"`).join(" union all "),
  );
  return async () => {
    const rows = rowsOf<{ name: string; n: number }>(await database.db.execute(query));
    return Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
  };
}

/** The tables whose counts differ, but for those counted apart. */
export function changedTables(before: Counts, after: Counts): string[] {
  return Object.keys(after).filter((t) => !countedApart.has(t) && before[t] !== after[t]);
}
