import { randomBytes } from "node:crypto";
import type { CreatorProfile, Link, PromoCode, QuoteResponse } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { promoCodes } from "../../src/db/schema/index.ts";
import { discountedAmounts } from "../../src/modules/catalogue/promo/service.ts";
import { accountWithSession, errorOf } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";

let ctx: TestContext;
let alice: { id: string; cookie: string };
let bob: { id: string; cookie: string };
let link: Link;
let otherLink: Link;
let usdLink: Link;
let bobsLink: Link;

async function account() {
  return accountWithSession(ctx.database, { onboarded: true });
}

function call(method: "GET" | "POST" | "PATCH" | "DELETE", url: string, cookie?: string, payload?: object) {
  return ctx.app.inject({
    method,
    url,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload ? { payload } : {}),
  });
}

async function makeLink(cookie: string, priceMinor: number, currency = "EUR"): Promise<Link> {
  const profile = (
    await call("POST", "/profiles", cookie, {
      displayName: "P",
      handle: `p_${randomBytes(5).toString("hex")}`,
    })
  ).json<CreatorProfile>();
  const res = await call("POST", "/links", cookie, {
    profileId: profile.id,
    title: "T",
    priceMinor,
    currency,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Link>();
}

const code = () => `C${randomBytes(4).toString("hex").toUpperCase()}`;

async function createCode(cookie: string, body: object): Promise<PromoCode> {
  const res = await call("POST", "/promo-codes", cookie, { code: code(), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<PromoCode>();
}

function quote(token: string, promoCode?: string) {
  return call(
    "POST",
    `/public/links/${token}/quote`,
    undefined,
    promoCode === undefined ? {} : { promoCode },
  );
}

beforeAll(async () => {
  ctx = await testApp();
  alice = await account();
  bob = await account();
  link = await makeLink(alice.cookie, 1005);
  otherLink = await makeLink(alice.cookie, 2000);
  usdLink = await makeLink(alice.cookie, 2000, "USD");
  bobsLink = await makeLink(bob.cookie, 5000);
});
afterAll(() => ctx.close());

describe("discount arithmetic", () => {
  it("rounds percentages half-up on minor units, with integers only", () => {
    const min = 100;
    expect(discountedAmounts(1005, { kind: "percent", value: 10 }, min)).toEqual({
      discount: 101,
      total: 904,
    }); // 100.5 → 101
    expect(discountedAmounts(1004, { kind: "percent", value: 10 }, min)).toEqual({
      discount: 100,
      total: 904,
    }); // 100.4 → 100
    expect(discountedAmounts(333, { kind: "percent", value: 15 }, min)).toEqual({ discount: 50, total: 283 }); // 49.95 → 50
    expect(discountedAmounts(500_000, { kind: "percent", value: 33 }, min)).toEqual({
      discount: 165_000,
      total: 335_000,
    });
  });

  it("takes fixed amounts as they are and never goes below the minimum", () => {
    expect(discountedAmounts(2000, { kind: "fixed", value: 500 }, 100)).toEqual({
      discount: 500,
      total: 1500,
    });
    expect(discountedAmounts(2000, { kind: "fixed", value: 5000 }, 100)).toEqual({
      discount: 1900,
      total: 100,
    });
    expect(discountedAmounts(2000, { kind: "percent", value: 100 }, 100)).toEqual({
      discount: 1900,
      total: 100,
    });
    // A price already at or under the minimum gets no discount rather than a negative one.
    expect(discountedAmounts(100, { kind: "percent", value: 50 }, 100)).toEqual({ discount: 0, total: 100 });
    expect(discountedAmounts(80, { kind: "fixed", value: 10 }, 100)).toEqual({ discount: 0, total: 80 });
  });
});

describe("promo codes", () => {
  it("needs a session", async () => {
    expect((await call("GET", "/promo-codes")).statusCode).toBe(401);
  });

  it("creates upper-cased codes, lists, edits and deletes them", async () => {
    const created = await call("POST", "/promo-codes", alice.cookie, {
      code: " summer-25 ",
      kind: "percent",
      value: 25,
      expiresAt: "2999-01-01T00:00:00.000Z",
      usageLimit: 10,
      linkIds: [link.id],
    });
    expect(created.statusCode, created.body).toBe(201);
    const promo = created.json<PromoCode>();
    expect(promo).toMatchObject({
      code: "SUMMER-25",
      kind: "percent",
      value: 25,
      currency: null,
      usageLimit: 10,
      usedCount: 0,
      linkIds: [link.id],
      expiresAt: "2999-01-01T00:00:00.000Z",
    });
    const list = (await call("GET", "/promo-codes", alice.cookie)).json<{ items: PromoCode[] }>();
    expect(list.items.find((p) => p.id === promo.id)).toEqual(promo);
    const patched = await call("PATCH", `/promo-codes/${promo.id}`, alice.cookie, {
      kind: "fixed",
      value: 300,
      currency: "EUR",
      linkIds: [],
      expiresAt: null,
    });
    expect(patched.json<PromoCode>()).toMatchObject({
      kind: "fixed",
      value: 300,
      currency: "EUR",
      linkIds: [],
      expiresAt: null,
    });
    expect((await call("DELETE", `/promo-codes/${promo.id}`, alice.cookie)).statusCode).toBe(200);
    expect((await call("DELETE", `/promo-codes/${promo.id}`, alice.cookie)).statusCode).toBe(404);
  });

  it.each([
    [{ code: "ab", kind: "percent", value: 10 }, "code"],
    [{ code: "A".repeat(33), kind: "percent", value: 10 }, "code"],
    [{ code: "NO SPACE", kind: "percent", value: 10 }, "code"],
    [{ code: "OKAY", kind: "percent", value: 0 }, "value"],
    [{ code: "OKAY", kind: "percent", value: 101 }, "value"],
    [{ code: "OKAY", kind: "percent", value: 2.5 }, "value"],
    [{ code: "OKAY", kind: "fixed", value: 100 }, "currency"],
    [{ code: "OKAY", kind: "fixed", value: 100, currency: "JPY" }, "currency"],
    [{ code: "OKAY", kind: "fixed", value: 0, currency: "EUR" }, "value"],
    [{ code: "OKAY", kind: "gift", value: 10 }, "kind"],
    [{ code: "OKAY", kind: "percent", value: 10, expiresAt: "tomorrow" }, "expiresAt"],
    [{ code: "OKAY", kind: "percent", value: 10, usageLimit: 0 }, "usageLimit"],
    [{ code: "OKAY", kind: "percent", value: 10, linkIds: ["x"] }, "linkIds.0"],
  ])("refuses %j with a field error on %s", async (body, field) => {
    const res = await call("POST", "/promo-codes", alice.cookie, body);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(errorOf(res).errors ?? {})).toContain(field);
  });

  it("checks kind, value and currency together when editing", async () => {
    const promo = await createCode(alice.cookie, { kind: "fixed", value: 500, currency: "EUR" });
    const tooMuch = await call("PATCH", `/promo-codes/${promo.id}`, alice.cookie, { kind: "percent" });
    expect(Object.keys(errorOf(tooMuch).errors ?? {})).toEqual(["value"]);
    const withCurrency = await call("PATCH", `/promo-codes/${promo.id}`, alice.cookie, {
      kind: "percent",
      value: 5,
      currency: "EUR",
    });
    expect(Object.keys(errorOf(withCurrency).errors ?? {})).toEqual(["currency"]);
    const ok = await call("PATCH", `/promo-codes/${promo.id}`, alice.cookie, { kind: "percent", value: 5 });
    expect(ok.json<PromoCode>()).toMatchObject({ kind: "percent", value: 5, currency: null });
  });

  it("keeps codes unique per creator, not across creators", async () => {
    const c = code();
    await createCode(alice.cookie, { code: c, kind: "percent", value: 10 });
    const dup = await call("POST", "/promo-codes", alice.cookie, {
      code: c.toLowerCase(),
      kind: "percent",
      value: 20,
    });
    expect(dup.statusCode).toBe(400);
    expect(errorOf(dup).errors?.code).toBeDefined();
    await createCode(bob.cookie, { code: c, kind: "percent", value: 10 });
    const other = await createCode(alice.cookie, { kind: "percent", value: 10 });
    const rename = await call("PATCH", `/promo-codes/${other.id}`, alice.cookie, { code: c });
    expect(errorOf(rename).errors?.code).toBeDefined();
  });

  it("hides my codes from another account and refuses their links", async () => {
    const promo = await createCode(alice.cookie, { kind: "percent", value: 10 });
    const list = (await call("GET", "/promo-codes", bob.cookie)).json<{ items: PromoCode[] }>();
    expect(list.items.map((p) => p.id)).not.toContain(promo.id);
    expect((await call("PATCH", `/promo-codes/${promo.id}`, bob.cookie, { value: 99 })).statusCode).toBe(404);
    expect((await call("DELETE", `/promo-codes/${promo.id}`, bob.cookie)).statusCode).toBe(404);
    const foreign = await call("POST", "/promo-codes", alice.cookie, {
      code: code(),
      kind: "percent",
      value: 10,
      linkIds: [bobsLink.id],
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (await call("PATCH", `/promo-codes/${promo.id}`, alice.cookie, { linkIds: [bobsLink.id] })).statusCode,
    ).toBe(404);
  });
});

describe("quote", () => {
  it("answers the plain price without a code", async () => {
    const res = await quote(link.token);
    expect(res.statusCode).toBe(200);
    expect(res.json<QuoteResponse>()).toEqual({ price: 1005, discount: 0, total: 1005, currency: "EUR" });
  });

  it("applies a percentage, rounded half-up, whatever the case typed", async () => {
    const promo = await createCode(alice.cookie, { kind: "percent", value: 10 });
    const res = await quote(link.token, promo.code.toLowerCase());
    expect(res.json<QuoteResponse>()).toEqual({
      price: 1005,
      discount: 101,
      total: 904,
      currency: "EUR",
      promoCode: { code: promo.code, kind: "percent", value: 10 },
    });
  });

  it("applies a fixed amount and clamps at the minimum price", async () => {
    const small = await createCode(alice.cookie, { kind: "fixed", value: 300, currency: "EUR" });
    expect((await quote(otherLink.token, small.code)).json<QuoteResponse>()).toMatchObject({
      discount: 300,
      total: 1700,
    });
    const huge = await createCode(alice.cookie, { kind: "fixed", value: 100_000, currency: "EUR" });
    const min = ctx.config.rules.linkPriceMinMinor;
    expect((await quote(otherLink.token, huge.code)).json<QuoteResponse>()).toMatchObject({
      price: 2000,
      discount: 2000 - min,
      total: min,
    });
    const all = await createCode(alice.cookie, { kind: "percent", value: 100 });
    expect((await quote(otherLink.token, all.code)).json<QuoteResponse>()).toMatchObject({ total: min });
  });

  async function promoError(token: string, promoCode: string): Promise<string | undefined> {
    const res = await quote(token, promoCode);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).error).toBe("ValidationException");
    return errorOf(res).errors?.promoCode?.[0];
  }

  it("refuses unknown codes, and another creator's codes", async () => {
    expect(await promoError(link.token, "NOPE-NOPE")).toBe("Unknown promo code.");
    expect(await promoError(link.token, "??")).toBe("Unknown promo code.");
    const bobs = await createCode(bob.cookie, { kind: "percent", value: 50 });
    expect(await promoError(link.token, bobs.code)).toBe("Unknown promo code.");
  });

  it("refuses expired codes", async () => {
    const promo = await createCode(alice.cookie, {
      kind: "percent",
      value: 10,
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(await promoError(link.token, promo.code)).toBe("This promo code has expired.");
    await call("PATCH", `/promo-codes/${promo.id}`, alice.cookie, {
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await quote(link.token, promo.code)).statusCode).toBe(200);
  });

  it("refuses codes that are used up", async () => {
    const promo = await createCode(alice.cookie, { kind: "percent", value: 10, usageLimit: 2 });
    await ctx.database.db.update(promoCodes).set({ usedCount: 1 }).where(eq(promoCodes.id, promo.id));
    expect((await quote(link.token, promo.code)).statusCode).toBe(200);
    await ctx.database.db.update(promoCodes).set({ usedCount: 2 }).where(eq(promoCodes.id, promo.id));
    expect(await promoError(link.token, promo.code)).toBe("This promo code is used up.");
  });

  it("honours restrictions to some links", async () => {
    const promo = await createCode(alice.cookie, { kind: "percent", value: 10, linkIds: [otherLink.id] });
    expect((await quote(otherLink.token, promo.code)).statusCode).toBe(200);
    expect(await promoError(link.token, promo.code)).toBe("This promo code is not valid for this link.");
  });

  it("refuses a fixed amount in another currency", async () => {
    const promo = await createCode(alice.cookie, { kind: "fixed", value: 100, currency: "EUR" });
    expect(await promoError(usdLink.token, promo.code)).toBe("This promo code is in EUR, the price in USD.");
  });

  it("answers 404 for links not on sale", async () => {
    expect((await quote("A".repeat(22))).statusCode).toBe(404);
    expect((await quote("bad")).statusCode).toBe(404);
    const paused = await makeLink(alice.cookie, 1000);
    await call("POST", `/links/${paused.id}/pause`, alice.cookie);
    expect((await quote(paused.token)).statusCode).toBe(404);
  });
});
