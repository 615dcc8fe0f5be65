import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import type { Database } from "../../src/db/client.ts";
import { isLoopback } from "../../src/plugins/dev-routes.ts";
import {
  TEST_APP_SECRET,
  TEST_INVOICE_SELLER,
  type TestContext,
  testApp,
  testConfig,
  testDatabase,
} from "../support/app.ts";

/*
 * Issue 16, item 1: GET /dev/mail listed every account's live reset links and anonymous
 * POST /dev/holds/release made pending money withdrawable, whenever NODE_ENV was not production.
 */

const release = { asOf: new Date(Date.now() + 365 * 86_400_000).toISOString() };
const devCalls = [
  { method: "GET", url: "/dev/mail" },
  { method: "GET", url: "/dev/mail/00000000-0000-4000-8000-000000000000" },
  { method: "POST", url: "/dev/holds/release", payload: release },
] as const;

/** What any unknown route answers: the dev routes must be indistinguishable from one when closed. */
async function unknownRoute(app: FastifyInstance) {
  const res = await app.inject({ method: "GET", url: "/no-such-route" });
  expect(res.statusCode).toBe(404);
  return res.json();
}

describe("the dev routes, left at their default", () => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await testDatabase();
    // The configuration as it comes, without the test helper's opt-in.
    const config = loadConfig({
      NODE_ENV: "development",
      APP_SECRET: TEST_APP_SECRET,
      LOG_LEVEL: "silent",
      SEED_DEMO: "false",
      JOBS_ENABLED: "false",
    });
    expect(config.DEV_ROUTES).toBe(false);
    app = await buildApp({ config, db: database.db });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it.each(devCalls)("do not exist, even for loopback: $method $url", async (call) => {
    const res = await app.inject(call);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(await unknownRoute(app));
  });
});

describe("the dev routes, turned on", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await testApp({ DEV_ROUTES: "true" });
  });
  afterAll(() => ctx.close());

  it.each(devCalls)("answer a client on this machine: $method $url", async (call) => {
    for (const remoteAddress of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"]) {
      const res = await ctx.app.inject({ ...call, remoteAddress });
      // 404 for the unknown message id is the route's own answer (its body says "E-mail not found").
      if (call.url.startsWith("/dev/mail/")) expect(res.json().message).toMatch(/E-mail/);
      else expect(res.statusCode, `${remoteAddress}: ${res.body}`).toBe(200);
    }
  });

  it.each(devCalls)("answer anyone else as an unknown route: $method $url", async (call) => {
    for (const remoteAddress of ["203.0.113.7", "10.0.0.2", "::ffff:192.168.1.4", "2001:db8::1"]) {
      const res = await ctx.app.inject({ ...call, remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(404);
      expect(res.json()).toEqual(await unknownRoute(ctx.app));
    }
  });
});

describe("the dev routes behind a trusted proxy", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await testApp({ DEV_ROUTES: "true", TRUST_PROXY: "true" });
  });
  afterAll(() => ctx.close());

  it("refuse a request a proxy on this machine forwards for an outside client", async () => {
    for (const call of devCalls) {
      const res = await ctx.app.inject({ ...call, headers: { "x-forwarded-for": "203.0.113.7" } });
      expect(res.statusCode, call.url).toBe(404);
      expect(res.json()).toEqual(await unknownRoute(ctx.app));
    }
    const local = await ctx.app.inject({ url: "/dev/mail", headers: { "x-forwarded-for": "127.0.0.1" } });
    expect(local.statusCode).toBe(200);
  });

  it("refuse an outside socket that claims to forward for loopback", async () => {
    const res = await ctx.app.inject({
      url: "/dev/mail",
      remoteAddress: "203.0.113.7",
      headers: { "x-forwarded-for": "127.0.0.1" },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe("production", () => {
  it("refuses to start with the dev routes on, naming the variable", () => {
    const production = { NODE_ENV: "production", ...TEST_INVOICE_SELLER, APP_SECRET: TEST_APP_SECRET };
    expect(() => loadConfig({ ...production, DEV_ROUTES: "true" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, DEV_ROUTES: "true" })).toThrow(/DEV_ROUTES/);
    expect(loadConfig(production).DEV_ROUTES).toBe(false);
  });
});

describe("isLoopback", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.255.0.9", true],
    ["::1", true],
    ["[::1]", true],
    ["::ffff:127.0.0.1", true],
    ["0:0:0:0:0:0:0:1", true],
    ["128.0.0.1", false],
    ["10.0.0.1", false],
    ["::ffff:10.0.0.1", false],
    ["::2", false],
    ["localhost", false],
    ["", false],
    [undefined, false],
  ])("%s → %s", (address, expected) => {
    expect(isLoopback(address)).toBe(expected);
  });
});

describe("/docs", () => {
  const stripe = {
    PAYMENT_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: "sk_test_x",
    STRIPE_PUBLISHABLE_KEY: "pk_test_x",
    STRIPE_WEBHOOK_SECRET: "whsec_x",
  };
  const production = {
    NODE_ENV: "production",
    ...TEST_INVOICE_SELLER,
    ALLOW_SANDBOX_PROVIDERS: "true",
    ...stripe,
  };

  let database: Database;
  beforeAll(async () => {
    database = await testDatabase();
  });
  afterAll(() => database.close());

  async function docsStatus(overrides: Record<string, string>) {
    const app = await buildApp({ config: testConfig(overrides), db: database.db });
    try {
      await app.ready();
      const ui = await app.inject({ url: "/docs" });
      const json = await app.inject({ url: "/docs/json" });
      // The UI answers a redirect or a page; either way, not 404.
      return [ui.statusCode === 404 ? 404 : 200, json.statusCode];
    } finally {
      await app.close();
    }
  }

  it("is served outside production by default", async () => {
    expect(await docsStatus({})).toEqual([200, 200]);
  });

  it("is not served in production unless DOCS_ENABLED turns it on", async () => {
    expect(await docsStatus(production)).toEqual([404, 404]);
    expect(await docsStatus({ ...production, DOCS_ENABLED: "true" })).toEqual([200, 200]);
    expect(await docsStatus({ DOCS_ENABLED: "false" })).toEqual([404, 404]);
  });
});
