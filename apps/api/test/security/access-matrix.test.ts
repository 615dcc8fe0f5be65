import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbKind } from "../support/app.ts";
import { buildWorld, type Creator, callers, send, type World } from "./access-fixtures.ts";
import { callerAccount, callerOrder, matrixRows } from "./access-matrix-rows.ts";
import type { Expect } from "./access-rows.ts";
import { appRoutes, type Method, routeKey } from "./route-catalogue.ts";

/*
 * Every route the app registers × five callers: anonymous, a buyer (signed in, holding an order
 * token), the creator who owns the resource in the URL, another creator set up just as fully, and
 * an admin. Each cell states the status it must get. A route without a row fails, and so does a row
 * whose route is gone. A stranger reaching a creator's resource is the leak this guards against.
 */

let world: World;

beforeAll(async () => {
  const started = Date.now();
  world = await buildWorld();
  console.log(`fixtures built in ${Date.now() - started} ms`);
}, 120_000);
afterAll(() => world.close());

/** What only the creator may see: none of it may reach another account's answers. */
function secretsOf(creator: Creator): string[] {
  return [
    creator.email,
    creator.bank.id,
    creator.promo.id,
    creator.campaign.id,
    creator.content.id,
    creator.cover.id,
    creator.identitySessionId,
    creator.sale.orderId,
  ];
}

describe(`access matrix: every route × every caller (${dbKind})`, () => {
  it("has one row per route the app registers, and no row for a route that is gone", () => {
    const registered = appRoutes(world.ctx.app).map(routeKey);
    // The parser is checked on known routes, or an empty list would pass everything below.
    expect(registered).toContain("GET /files/*");
    expect(registered).toContain("DELETE /profiles/:id");
    expect(
      registered.filter((r) => !(r in matrixRows)),
      "routes without a row",
    ).toEqual([]);
    expect(
      Object.keys(matrixRows).filter((r) => !registered.includes(r)),
      "rows without a route",
    ).toEqual([]);
  });

  for (const [key, row] of Object.entries(matrixRows)) {
    it(key, async () => {
      const method = key.split(" ")[0] as Method;
      const prepared = row.prepare ? await row.prepare(world) : {};
      const got: Partial<Expect> = {};
      const leaks: string[] = [];
      for (const as of callerOrder) {
        const who = await callerAccount(world, as, row, prepared);
        const req = await row.request({ as, who, world, prepared });
        const res = await send(world.ctx, method, req.url, {
          cookie: who?.cookie,
          ...(req.payload !== undefined ? { payload: req.payload } : {}),
          ...(req.headers ? { headers: req.headers } : {}),
        });
        got[as] = res.statusCode;
        const signedInRoute = row.expect.anonymous === 401;
        if (signedInRoute && (as === "other" || as === "buyer") && res.statusCode < 300) {
          for (const secret of secretsOf(world.creator)) {
            if (res.body.includes(secret)) leaks.push(`${as} saw ${secret}: ${res.body.slice(0, 300)}`);
          }
        }
      }
      const expected = Object.fromEntries(callers.map((c) => [c, row.expect[c]]));
      expect(Object.fromEntries(callers.map((c) => [c, got[c]])), key).toEqual(expected);
      expect(leaks, key).toEqual([]);
    });
  }
});
