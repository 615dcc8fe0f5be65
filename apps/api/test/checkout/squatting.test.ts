import type { CheckoutResponse, PublicLink } from "@salelink/contracts";
import { eq, sql } from "drizzle-orm";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { jobs, linkStockUnits, orders } from "../../src/db/schema/index.ts";
import { accountWithSession, directSessionCookie, errorOf, insertAccount } from "../support/accounts.ts";
import { type TestContext, testApp, testConfig } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

/*
 * Issue 16, item 6 (stock squatting) and item 9 (promo code guessing), with the default settings:
 * reservations are capped per address and per buyer, short, given back when the buyer leaves or the
 * payment fails, and the public link tells "sold out" from "all reserved, back in N minutes" by the
 * rule checkout applies. Wrong promo codes are limited per address and per link, on both paths.
 */

let ctx: TestContext;
let creator: { id: string; cookie: string };
const helpers = checkoutHelpers(() => ctx);
const newLink = (extra: object = {}) => helpers.newLink(creator.cookie, extra);

/** Each test its own client address, so the per-address counts of one do not reach another. */
let nextAddress = 1;
const newAddress = () => `10.16.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

const checkoutFrom = (address: string, token: string, body: object = {}, language = "en") =>
  ctx.app.inject({
    method: "POST",
    url: "/stripe/checkout",
    remoteAddress: address,
    headers: { "accept-language": language },
    payload: { token, email: "buyer@example.test", locale: "fr", ...body },
  });
const quoteFrom = (address: string, token: string, promoCode: string, language = "en") =>
  ctx.app.inject({
    method: "POST",
    url: `/public/links/${token}/quote`,
    remoteAddress: address,
    headers: { "accept-language": language },
    payload: { promoCode },
  });
const publicLink = async (token: string) =>
  (await ctx.app.inject({ url: `/public/links/${token}` })).json<PublicLink>();

beforeAll(async () => {
  // The public read cache off: each read here must see the reservations of the call before it.
  ctx = await testApp({ PUBLIC_READ_CACHE_MS: "0" });
  creator = await accountWithSession(ctx.database, { onboarded: true });
});
afterAll(() => ctx?.close());

describe("stock squatting", () => {
  it("five anonymous checkouts from one address cannot reserve a stock of 5", async () => {
    const link = await newLink({ stockLimit: 5 });
    const address = newAddress();
    const answers: Awaited<ReturnType<typeof checkoutFrom>>[] = [];
    for (let i = 0; i < 5; i++) {
      answers.push(await checkoutFrom(address, link.token, { email: `squat${i}@example.test` }, "fr"));
    }
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 429, 429]);
    const refused = answers[3];
    if (!refused) throw new Error("no fourth answer");
    expect(errorOf(refused)).toEqual({
      statusCode: 429,
      error: "RateLimitException",
      message: "Vous avez commencé trop de paiements. Veuillez réessayer dans 10 min.",
    });
    expect(refused.headers["retry-after"]).toBeDefined();
    // Two units are still for sale, to anyone else.
    expect(await publicLink(link.token)).toMatchObject({ soldOut: false, reservedOut: false });
    const other = await checkoutFrom(newAddress(), link.token, { email: "real@example.test" });
    expect(other.statusCode, other.body).toBe(201);
  });

  it("one e-mail cannot hold more than its cap of reservations, from any address", async () => {
    const results = [];
    for (let i = 0; i < 3; i++) {
      const link = await newLink({ stockLimit: 10 });
      results.push(
        (await checkoutFrom(newAddress(), link.token, { email: "hoarder@example.test" })).statusCode,
      );
    }
    expect(results).toEqual([201, 201, 429]);
  });

  it("a buyer's new checkout of the same link replaces their reservation instead of taking another", async () => {
    const link = await newLink({ stockLimit: 2 });
    const address = newAddress();
    const first = (
      await checkoutFrom(address, link.token, { email: "twice@example.test" })
    ).json<CheckoutResponse>();
    const again = await checkoutFrom(address, link.token, { email: "twice@example.test" });
    expect(again.statusCode, again.body).toBe(201);
    const [replaced] = await ctx.database.db.select().from(orders).where(eq(orders.id, first.orderId));
    expect(replaced).toMatchObject({ status: "failed", failureReason: "replaced" });
    // One unit held, one left: another buyer still gets it.
    expect(await publicLink(link.token)).toMatchObject({ soldOut: false, reservedOut: false });
    expect((await checkoutFrom(newAddress(), link.token, { email: "other@example.test" })).statusCode).toBe(
      201,
    );
  });

  it("tells 'all reserved, back in N minutes' apart from 'sold out', as checkout answers", async () => {
    const link = await newLink({ stockLimit: 1 });
    expect(await publicLink(link.token)).toMatchObject({
      soldOut: false,
      reservedOut: false,
      availableAgainAt: null,
    });
    const started = (
      await checkoutFrom(newAddress(), link.token, { email: "holder@example.test" })
    ).json<CheckoutResponse>();
    const [order] = await ctx.database.db.select().from(orders).where(eq(orders.id, started.orderId));
    const shown = await publicLink(link.token);
    expect(shown).toMatchObject({ soldOut: false, reservedOut: true });
    // Back when the reservation ends: CHECKOUT_RESERVATION_MINUTES (10 by default) after it began.
    expect(new Date(shown.availableAgainAt ?? 0).getTime()).toBe(
      (order?.createdAt.getTime() ?? 0) + 10 * 60_000,
    );
    const refused = await checkoutFrom(newAddress(), link.token, { email: "late@example.test" }, "es");
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(
      "Todas las unidades restantes están reservadas por compradores que están pagando. Inténtalo de nuevo en 10 min.",
    );

    // The reservation ends: for sale again, on the page and at checkout.
    await ctx.database.db
      .update(orders)
      .set({ createdAt: sql`now() - interval '10 minutes 1 second'` })
      .where(eq(orders.id, started.orderId));
    await ctx.database.db
      .update(linkStockUnits)
      .set({ heldUntil: sql`now() - interval '1 second'` })
      .where(eq(linkStockUnits.orderId, started.orderId));
    expect(await publicLink(link.token)).toMatchObject({ soldOut: false, reservedOut: false });
    const next = (
      await checkoutFrom(newAddress(), link.token, { email: "next@example.test" })
    ).json<CheckoutResponse>();
    await helpers.pay(next);
    expect(await publicLink(link.token)).toMatchObject({
      soldOut: true,
      reservedOut: false,
      availableAgainAt: null,
    });
    expect(errorOf(await checkoutFrom(newAddress(), link.token)).message).toBe("This link is sold out.");
  });

  it("leaving the checkout gives the unit back at once, with the checkout's secret only", async () => {
    const link = await newLink({ stockLimit: 1 });
    const started = (
      await checkoutFrom(newAddress(), link.token, { email: "leaver@example.test" })
    ).json<CheckoutResponse>();
    expect((await publicLink(link.token)).reservedOut).toBe(true);

    const cancel = (secret: string) =>
      ctx.app.inject({ method: "POST", url: `/checkout/${started.orderId}/cancel?secret=${secret}` });
    expect((await cancel("x".repeat(43))).statusCode).toBe(404);
    expect((await publicLink(link.token)).reservedOut).toBe(true);

    const left = await cancel(started.checkoutSecret);
    expect(left.statusCode, left.body).toBe(200);
    expect(left.json()).toEqual({ status: "failed" });
    const [order] = await ctx.database.db.select().from(orders).where(eq(orders.id, started.orderId));
    expect(order).toMatchObject({ status: "failed", failureReason: "canceled" });
    expect((await publicLink(link.token)).reservedOut).toBe(false);
    expect((await checkoutFrom(newAddress(), link.token, { email: "taker@example.test" })).statusCode).toBe(
      201,
    );
  });

  it("a failed payment gives the unit back at once", async () => {
    const link = await newLink({ stockLimit: 1 });
    const started = (
      await checkoutFrom(newAddress(), link.token, { email: "declined@example.test" })
    ).json<CheckoutResponse>();
    expect((await publicLink(link.token)).reservedOut).toBe(true);
    await helpers.pay(started, "4000000000000002");
    expect(await publicLink(link.token)).toMatchObject({ soldOut: false, reservedOut: false });
  });
});

describe("promo code guessing", () => {
  it("limits wrong codes per address on the quote, then refuses even the right one", async () => {
    const link = await newLink();
    await helpers.call(
      "POST",
      "/promo-codes",
      { kind: "percent", value: 20, code: "GUESS20" },
      creator.cookie,
    );
    const address = newAddress();
    for (let i = 0; i < 10; i++) {
      const wrong = await quoteFrom(address, link.token, `WRONG${i}`);
      expect(wrong.statusCode).toBe(400);
    }
    const blocked = await quoteFrom(address, link.token, "GUESS20", "fr");
    expect(blocked.statusCode).toBe(429);
    expect(errorOf(blocked)).toMatchObject({
      error: "RateLimitException",
      message: "Trop de codes promo erronés. Veuillez réessayer dans 15 min.",
      errors: { promoCode: ["Trop de codes promo erronés. Veuillez réessayer dans 15 min."] },
    });
    // Checkout is the same path for a guesser: refused too.
    expect((await checkoutFrom(address, link.token, { promoCode: "GUESS20" })).statusCode).toBe(429);
    // No code at all still quotes; another address still uses the right code.
    const plain = await ctx.app.inject({
      method: "POST",
      url: `/public/links/${link.token}/quote`,
      remoteAddress: address,
      payload: {},
    });
    expect(plain.statusCode).toBe(200);
    expect((await quoteFrom(newAddress(), link.token, "GUESS20")).statusCode).toBe(200);
  });

  it("counts wrong codes sent to checkout with those sent to the quote", async () => {
    const link = await newLink();
    const address = newAddress();
    for (let i = 0; i < 5; i++)
      expect((await quoteFrom(address, link.token, `NOPE${i}`)).statusCode).toBe(400);
    for (let i = 0; i < 5; i++) {
      expect((await checkoutFrom(address, link.token, { promoCode: `NADA${i}` })).statusCode).toBe(400);
    }
    expect((await quoteFrom(address, link.token, "NOPE9")).statusCode).toBe(429);
  });

  it("limits wrong codes per link, whatever the number of addresses", async () => {
    const link = await newLink();
    for (let i = 0; i < 50; i++) {
      expect((await quoteFrom(newAddress(), link.token, `SPREAD${i}`)).statusCode).toBe(400);
    }
    expect((await quoteFrom(newAddress(), link.token, "SPREAD99")).statusCode).toBe(429);
    // Another link of the same creator is not affected.
    expect((await quoteFrom(newAddress(), (await newLink()).token, "SPREAD99")).statusCode).toBe(400);
  });
});

describe.skipIf(!process.env.REDIS_URL)("promo code guessing across API instances (REDIS_URL)", () => {
  it("counts wrong codes together, in the store the auth routes use", async () => {
    const redis = new Redis(process.env.REDIS_URL ?? "");
    const config = testConfig({ PROMO_FAILURES_PER_ADDRESS_MAX: "3" });
    // A namespace of its own, so parallel runs never share counters.
    const prefix = `test-${Date.now()}-${Math.random()}`;
    const instance = async () => {
      const app = await buildApp({ config, db: ctx.database.db, redis, rateLimitNamespace: prefix });
      await app.ready();
      return app;
    };
    const a = await instance();
    const b = await instance();
    try {
      const link = await newLink();
      const guess = (app: typeof a, code: string) =>
        app.inject({
          method: "POST",
          url: `/public/links/${link.token}/quote`,
          remoteAddress: "10.99.0.1",
          payload: { promoCode: code },
        });
      expect((await guess(a, "ONE")).statusCode).toBe(400);
      expect((await guess(b, "TWO")).statusCode).toBe(400);
      expect((await guess(a, "THREE")).statusCode).toBe(400);
      // The fourth, on the other instance, is past the shared limit.
      const limited = await guess(b, "FOUR");
      expect(limited.statusCode).toBe(429);
      expect(errorOf(limited).error).toBe("RateLimitException");
    } finally {
      await a.close();
      await b.close();
      redis.disconnect();
    }
  });
});

describe("the cached link page while its units are reserved", () => {
  it("is refreshed when the stock turns reserved, each minute of it, when it ends and when the buyer leaves", async () => {
    const wired = await testApp({
      PUBLIC_READ_CACHE_MS: "0",
      WEB_REVALIDATE_URL: "http://127.0.0.1:9/api/revalidate",
      WEB_REVALIDATE_SECRET: "s".repeat(32),
    });
    try {
      const account = await insertAccount(wired.database, { onboarded: true });
      const own = checkoutHelpers(() => wired);
      const link = await own.newLink(await directSessionCookie(wired.database, account.id), {
        stockLimit: 1,
      });
      const refreshes = async () =>
        (
          await wired.database.db
            .select({ payload: jobs.payload, runAt: jobs.runAt })
            .from(jobs)
            .where(eq(jobs.kind, "web.revalidate"))
        )
          .filter((j) => JSON.stringify(j.payload).includes(`link:${link.token}`))
          .map((j) => j.runAt.getTime())
          .sort((a, b) => a - b);
      const before = (await refreshes()).length;
      const started = (await own.checkout(link.token)).json<CheckoutResponse>();
      const shown = (await wired.app.inject({ url: `/public/links/${link.token}` })).json<PublicLink>();
      const end = new Date(shown.availableAgainAt ?? 0).getTime();
      const queued = (await refreshes()).slice(before);
      // At once, then every minute of the 10-minute reservation, then a second after it ends.
      expect(queued).toHaveLength(11);
      expect(queued[0]).toBeLessThanOrEqual(Date.now());
      expect(queued.at(-1)).toBe(end + 1000);
      for (const [i, at] of queued.slice(1, -1).entries()) {
        expect(at - (queued[1] ?? 0)).toBe(i * 60_000);
      }
      const left = await wired.app.inject({
        method: "POST",
        url: `/checkout/${started.orderId}/cancel?secret=${started.checkoutSecret}`,
      });
      expect(left.statusCode).toBe(200);
      expect((await refreshes()).length).toBe(before + 12);
    } finally {
      await wired.close();
    }
  });
});
