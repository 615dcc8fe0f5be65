import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import type { Database } from "../../src/db/client.ts";
import { insertAccount, PASSWORD } from "../support/accounts.ts";
import { TEST_INVOICE_SELLER, testConfig, testDatabase } from "../support/app.ts";

describe.skipIf(!process.env.REDIS_URL)("several API instances with REDIS_URL", () => {
  let database: Database;
  let redis: Redis;
  beforeAll(async () => {
    database = await testDatabase();
    redis = new Redis(process.env.REDIS_URL ?? "");
  });
  afterAll(async () => {
    redis.disconnect();
    await database.close();
  });

  it("count sign-in attempts together", async () => {
    // A namespace of its own, so parallel runs never share counters.
    const config = testConfig({ RATE_LIMIT_SIGNIN_MAX: "3", RATE_LIMIT_WINDOW_SECONDS: "60" });
    const prefix = `test-${Date.now()}-${Math.random()}`;
    const instance = async () => {
      const app = await buildApp({ config, db: database.db, redis, rateLimitNamespace: prefix });
      await app.ready();
      return app;
    };
    const a = await instance();
    const b = await instance();
    try {
      const user = await insertAccount(database, { onboarded: true });
      const attempt = (app: typeof a) =>
        app.inject({
          method: "POST",
          url: "/auth/signin",
          payload: { email: user.email, password: "wrong-password" },
        });
      expect((await attempt(a)).statusCode).toBe(400);
      expect((await attempt(b)).statusCode).toBe(400);
      expect((await attempt(a)).statusCode).toBe(400);
      // The fourth attempt, on the other instance, is over the shared limit.
      const limited = await attempt(b);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toBe("RateLimitException");
      // The right password does not get through either while the window lasts.
      const ok = await b.inject({
        method: "POST",
        url: "/auth/signin",
        payload: { email: user.email, password: PASSWORD },
      });
      expect(ok.statusCode).toBe(429);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe("production start-up", () => {
  it("refuses sandbox providers unless allowed", async () => {
    const database = await testDatabase();
    try {
      const production = { NODE_ENV: "production", ...TEST_INVOICE_SELLER, APP_SECRET: "s".repeat(40) };
      await expect(buildApp({ config: testConfig(production), db: database.db })).rejects.toThrow(
        /bot-check \(sandbox\).*mail \(outbox\)/,
      );
      // Sandbox payments are never allowed beside real payouts (platform/config.test.ts): Stripe's, here.
      const stripe = { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PUBLISHABLE_KEY: "pk_test_x" };
      const allowed = await buildApp({
        config: testConfig({
          ...production,
          ...stripe,
          ALLOW_SANDBOX_PROVIDERS: "true",
          PAYMENT_PROVIDER: "stripe",
          STRIPE_WEBHOOK_SECRET: "whsec_x",
        }),
        db: database.db,
      });
      await allowed.close();
    } finally {
      await database.close();
    }
  });
});
