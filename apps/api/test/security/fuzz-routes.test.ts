import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbKind } from "../support/app.ts";
import { buildWorld, newParty, type Party, send, type World } from "./access-fixtures.ts";
import { matrixRows } from "./access-matrix-rows.ts";
import type { Req, Row } from "./access-rows.ts";
import { type FuzzCase, fixedBodyCases, fixedPathCases, type Operation, randomCase } from "./fuzz-cases.ts";
import { answerProblems, type Counts, changedTables, countedApart, tableCounter } from "./fuzz-checks.ts";
import { storedNameProblems, uploadCases } from "./fuzz-upload-cases.ts";
import { appRoutes, type Method, type Route, routeKey } from "./route-catalogue.ts";

/*
 * Every route fuzzed from its OpenAPI schema, sent as the caller with the most rights on it (the
 * owner, or an admin) so that validation, not authentication, answers. No answer may be a server
 * error or carry a stack trace, every error follows the one format, and a refused request stores
 * nothing. Replay a failure with the seed it prints: FUZZ_SEED=<seed>; FUZZ_RUNS sets the random
 * cases per route, FUZZ_ONLY a pattern of the routes to fuzz ("POST /links").
 */

const seed = Number(process.env.FUZZ_SEED ?? 20261122);
const runs = Number(process.env.FUZZ_RUNS ?? 6);
/** Only the routes whose "METHOD /path" matches, to replay one quickly. */
const only = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : undefined;
const rows: Record<string, Row> = matrixRows;

let world: World;
let doc: { paths: Record<string, Record<string, Operation>> };
let count: () => Promise<Counts>;
let last: Counts;
/** Whether a call of the batch being counted succeeded (its rows are then no refusal's). */
let batchSucceeded = false;
/** Refusals by the router itself, which answer before our error handler can (see the last test). */

beforeAll(async () => {
  world = await buildWorld();
  doc = world.ctx.app.swagger() as unknown as typeof doc;
  count = await tableCounter(world.ctx.database);
  last = await count();
}, 120_000);
afterAll(() => world.close());

/** `/links/:id` as the OpenAPI document writes it: `/links/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z]+)/g, "{$1}").replace(/\*$/, "{*}");

/** Who sends a route's bad requests: whoever would succeed with a good one. */
async function callerFor(row: Row, prepared: Record<string, string>): Promise<Party> {
  if (row.expect.admin < 300 && row.expect.creator >= 400) return world.admin;
  // The call ends or changes its caller's sessions: an account of its own.
  if (row.fresh) return newParty(world.ctx);
  if (prepared.ownerCookie) return { ...world.creator, cookie: prepared.ownerCookie };
  return world.creator;
}

/**
 * Sends one case; answers what is wrong with its answer (nothing: an empty list). With `each`, the
 * row counts are taken after the call and compared when it was refused; otherwise the call is
 * part of a batch counted as a whole (closeBatch), which keeps the file fast: the fixed cases are
 * refusals by design, and reads (GET) store nothing.
 */
async function probe(
  method: Method,
  c: FuzzCase,
  cookie: string,
  documented: string[],
  each: boolean,
): Promise<string[]> {
  const res = await send(world.ctx, method, c.url, {
    cookie,
    ...(c.payload !== undefined ? { payload: c.payload } : {}),
    ...(c.headers ? { headers: c.headers } : {}),
  });
  const where = `${method} ${c.url.slice(0, 120)} [${c.label}] → ${res.statusCode}`;
  const problems = answerProblems(res, documented);
  // Fastify's router answers an over-long path parameter or a malformed URL itself, unless app.ts
  // hands those refusals to the error handler (its frameworkErrors option).
  if (res.body.includes('"code":"FST_ERR_')) problems.push("answered by the router, not the error handler");
  if (c.url.startsWith("/upload") && res.statusCode === 201) problems.push(...storedNameProblems(res));
  if (!each) {
    if (res.statusCode < 400) batchSucceeded = true;
    return problems.map((p) => `${where}: ${p}`);
  }
  const now = await count();
  if (res.statusCode >= 400 && res.statusCode < 500) {
    const changed = changedTables(last, now);
    if (changed.length > 0)
      problems.push(`a refused request (${res.statusCode}) stored rows in ${changed.join(", ")}`);
  }
  last = now;
  return problems.map((p) => `${where}: ${p}`);
}

/** Compares the counts around a batch of calls, unless one of them succeeded. */
async function closeBatch(what: string): Promise<string[]> {
  const now = await count();
  const changed = batchSucceeded ? [] : changedTables(last, now);
  last = now;
  batchSucceeded = false;
  return changed.length > 0 ? [`${what}: refused calls stored rows in ${changed.join(", ")}`] : [];
}

describe(`every route fuzzed from its schema (${dbKind}, FUZZ_SEED=${seed})`, () => {
  it("knows every route's schema, and counts only tables that exist apart", async () => {
    const missing = appRoutes(world.ctx.app)
      .filter((r) => !r.url.startsWith("/docs"))
      .filter((r) => !doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()])
      .map(routeKey);
    expect(missing, "routes absent from the OpenAPI document").toEqual([]);
    const tables = Object.keys(await count());
    expect(tables.filter((t) => countedApart.has(t)).sort()).toEqual([...countedApart].sort());
  });

  it("answers every bad request without a server error, a stack trace or a stored row", async () => {
    const problems: string[] = [];
    for (const route of appRoutes(world.ctx.app)) {
      const key = routeKey(route);
      if (only && !only.test(key)) continue;
      const row = rows[key];
      if (!row) throw new Error(`${key} has no row in the access matrix, which gives its valid request`);
      const prepared = row.prepare ? await row.prepare(world) : {};
      const caller = await callerFor(row, prepared);
      const base: Req = await row.request({ as: "creator", who: caller, world, prepared });
      const op = doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      const documented = Object.keys(op?.responses ?? {});
      // What the set-up above stored is not the bad requests' doing.
      last = await count();
      batchSucceeded = false;
      // Some upload cases are stored on purpose (a hostile name, cleaned): those are counted one by one.
      const uploads = route.url === "/upload";
      for (const c of fixedCases(route, op, base))
        problems.push(...(await probe(route.method, c, caller.cookie, documented, uploads)));
      problems.push(...(await closeBatch(`${key} (fixed cases)`)));
      const each = route.method !== "GET";
      try {
        await fc.assert(
          fc.asyncProperty(randomCase(route, op, base), async (c) => {
            const found = await probe(route.method, c, caller.cookie, documented, each);
            if (found.length > 0) throw new Error(found.join("\n"));
          }),
          { seed, numRuns: runs, endOnFailure: true },
        );
      } catch (error) {
        problems.push(`FUZZ_SEED=${seed} ${key}: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (!each) problems.push(...(await closeBatch(`${key} (random reads)`)));
    }
    expect(problems, `FUZZ_SEED=${seed}`).toEqual([]);
  }, 300_000);
});

function fixedCases(route: Route, op: Operation | undefined, base: Req): FuzzCase[] {
  if (route.url === "/upload") return uploadCases();
  const cases = fixedPathCases(route, base);
  const takesBody = op?.requestBody !== undefined || route.url.startsWith("/webhooks");
  if (takesBody && route.method !== "GET") cases.push(...fixedBodyCases(base));
  return cases;
}
