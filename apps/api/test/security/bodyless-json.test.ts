import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbKind } from "../support/app.ts";
import { buildWorld, callers, send, type World } from "./access-fixtures.ts";
import { callerAccount, callerOrder, matrixRows } from "./access-matrix-rows.ts";
import type { Expect } from "./access-rows.ts";

/*
 * Issue 17, item 15: browsers and HTTP clients often send `Content-Type: application/json` on calls
 * that carry no body. Every body-less POST and DELETE of the access matrix is sent that way here, by
 * the matrix's five callers, and must get the matrix's own answers (401 to the anonymous caller, not
 * Fastify's "empty JSON body" 400). Routes that need a body must still refuse an empty one.
 */

const json = { "content-type": "application/json" };

let world: World;

beforeAll(async () => {
  world = await buildWorld();
}, 120_000);
afterAll(() => world.close());

const bodyless = Object.entries(matrixRows).filter(([key]) => /^(POST|DELETE) /.test(key));

describe(`body-less calls with a JSON content type get the access matrix's answers (${dbKind})`, () => {
  it("covers the routes that answer anonymous callers 401", () => {
    // The list is read from the matrix: an empty one would pass everything below.
    expect(bodyless.map(([key]) => key)).toEqual(
      expect.arrayContaining(["POST /auth/logout", "DELETE /links/:id", "POST /campaigns/claim"]),
    );
  });

  for (const [key, row] of bodyless) {
    it(key, async (test) => {
      const method = key.startsWith("POST ") ? "POST" : "DELETE";
      const prepared = row.prepare ? await row.prepare(world) : {};
      const got: Partial<Expect> = {};
      const bodies: string[] = [];
      for (const as of callerOrder) {
        const who = await callerAccount(world, as, row, prepared);
        const req = await row.request({ as, who, world, prepared });
        // A route the matrix calls with a body is not body-less: its empty body is checked below.
        if (req.payload !== undefined) return test.skip();
        const res = await send(world.ctx, method, req.url, {
          cookie: who?.cookie,
          headers: { ...req.headers, ...json },
        });
        got[as] = res.statusCode;
        bodies.push(`${as}: ${res.body.slice(0, 200)}`);
      }
      const expected = Object.fromEntries(callers.map((c) => [c, row.expect[c]]));
      expect(Object.fromEntries(callers.map((c) => [c, got[c]])), bodies.join("\n")).toEqual(expected);
    });
  }

  it("still refuses an empty body where the route needs one, after the auth check", async () => {
    const { cookie } = world.buyer;
    const cases = [
      { method: "POST", url: "/campaigns", cookie, status: 400, error: "ValidationException" },
      { method: "PATCH", url: "/profile/locale", cookie, status: 400, error: "ValidationException" },
      { method: "POST", url: "/auth/signin", cookie: undefined, status: 400, error: "ValidationException" },
      { method: "POST", url: "/campaigns", cookie: undefined, status: 401, error: "UnauthorizedException" },
    ] as const;
    for (const c of cases) {
      const res = await send(world.ctx, c.method, c.url, { cookie: c.cookie, headers: json });
      expect({ status: res.statusCode, error: res.json().error }, `${c.method} ${c.url}`).toEqual({
        status: c.status,
        error: c.error,
      });
    }
    // Malformed JSON is still malformed.
    const broken = await send(world.ctx, "POST", "/auth/signin", { payload: '{"email": ', headers: json });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toBe("BadRequestException");
  });
});
