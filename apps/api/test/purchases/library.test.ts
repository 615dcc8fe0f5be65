import {
  type CheckoutResponse,
  LIBRARY_TOKEN_HEADER,
  type Library,
  type LibraryAccess,
  PURCHASES_LINKS_PER_HOUR,
  RECEIPT_RESENDS_PER_HOUR,
} from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purchaseLinks } from "../../src/db/schema/index.ts";
import { hashToken } from "../../src/lib/tokens.ts";
import {
  accountWithSession,
  directSessionCookie,
  errorOf,
  insertAccount,
  mailsTo,
  uniqueEmail,
} from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

/*
 * The buyer's library (issue 21): "send me my purchases" e-mails a one-time link to every order
 * paid with an address; a verified account reads its own address's; a receipt is sent again.
 */

let ctx: TestContext;
const helpers = checkoutHelpers(() => ctx);
let seller: { id: string; cookie: string };

beforeAll(async () => {
  ctx = await testApp({ RATE_LIMIT_EMAIL_MAX: "1000" });
  seller = await accountWithSession(ctx.database, { onboarded: true });
});
afterAll(() => ctx.close());

const post = (url: string, payload?: object, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: "POST", url, headers, ...(payload ? { payload } : {}) });
const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: "GET", url, headers });

/** A paid purchase of a new link of the seller by `email`; its order id. */
async function bought(email: string, title = "Sunset pack"): Promise<string> {
  const link = await helpers.newLink(seller.cookie, { title });
  const res = await helpers.checkout(link.token, { email });
  expect(res.statusCode, res.body).toBe(201);
  const started = res.json<CheckoutResponse>();
  await helpers.pay(started);
  return started.orderId;
}

/** The token of the newest library link e-mailed to `email`. */
async function mailedToken(email: string): Promise<string> {
  await ctx.app.services.jobs.worker.runDue();
  const mails = (await mailsTo(ctx, email)).filter((m) => m.template === "purchases-link");
  const text = mails.at(-1)?.text ?? "";
  const token = new RegExp(`${ctx.config.WEB_ORIGIN}/purchases/open/([A-Za-z0-9_-]{43})`).exec(text)?.[1];
  if (!token) throw new Error(`no library link in: ${text}`);
  return token;
}

async function open(token: string): Promise<LibraryAccess> {
  const res = await post(`/purchases/open/${token}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<LibraryAccess>();
}

const library = (access: string) => get("/purchases/library", { [LIBRARY_TOKEN_HEADER]: access });

describe(`the buyer's library by e-mail (${dbKind})`, () => {
  it("e-mails a one-time link to an address that bought, the same answer to one that did not", async () => {
    const buyer = uniqueEmail("library-buyer");
    await bought(buyer);
    const nobody = uniqueEmail("library-nobody");
    const asked = await post("/purchases/link", { email: buyer.toUpperCase(), locale: "fr" });
    const unknown = await post("/purchases/link", { email: nobody, locale: "fr" });
    expect(asked.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(asked.json()).toEqual(unknown.json());
    await ctx.app.services.jobs.worker.runDue();
    const [mail] = (await mailsTo(ctx, buyer)).filter((m) => m.template === "purchases-link");
    expect(mail).toMatchObject({ locale: "fr", subject: "Vos achats sur Salelink" });
    expect(await mailsTo(ctx, nobody)).toEqual([]);
    // A malformed address is a field error in the caller's language.
    const bad = await post("/purchases/link", { email: "nope", locale: "en" }, { "accept-language": "es" });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(errorOf(bad).errors ?? {})).toEqual(["email"]);
  });

  it("opens once: every order of the address with its files and order page; the link is spent", async () => {
    const buyer = uniqueEmail("library-open");
    const first = await bought(buyer, "First pack");
    await bought(buyer, "Second pack");
    await bought(uniqueEmail("someone-else"), "Not theirs");
    await post("/purchases/link", { email: buyer, locale: "en" });
    const token = await mailedToken(buyer);
    const access = await open(token);
    expect((await post(`/purchases/open/${token}`)).statusCode).toBe(404);

    const res = await library(access.accessToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const lib = res.json<Library>();
    expect(lib.email).toBe(buyer);
    expect(lib.orders.map((o) => o.title)).toEqual(["Second pack", "First pack"]);
    expect(JSON.stringify(lib)).not.toContain(first);
    // Each order's token opens its order page, files and all.
    const [newest] = lib.orders;
    const page = await get(`/orders/${newest?.orderToken}`);
    expect(page.statusCode).toBe(200);
    expect(page.json<{ title: string }>().title).toBe("Second pack");

    // No access, a wrong one, or an expired one: the same 401.
    expect((await get("/purchases/library")).statusCode).toBe(401);
    expect((await library("x".repeat(43))).statusCode).toBe(401);
    await ctx.database.db
      .update(purchaseLinks)
      .set({ accessExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(purchaseLinks.tokenHash, hashToken(token)));
    const expired = await get("/purchases/library", {
      [LIBRARY_TOKEN_HEADER]: access.accessToken,
      "accept-language": "fr",
    });
    expect(expired.statusCode).toBe(401);
    expect(errorOf(expired).message).toBe("Cet accès à vos achats a expiré. Demandez un nouveau lien.");
  });

  it("a link unused past its hour no longer opens", async () => {
    const buyer = uniqueEmail("library-late");
    await bought(buyer);
    await post("/purchases/link", { email: buyer, locale: "en" });
    const token = await mailedToken(buyer);
    await ctx.database.db
      .update(purchaseLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(purchaseLinks.tokenHash, hashToken(token)));
    expect((await post(`/purchases/open/${token}`)).statusCode).toBe(404);
  });

  it(`sends at most ${PURCHASES_LINKS_PER_HOUR} links an hour to one address, answering the same`, async () => {
    const buyer = uniqueEmail("library-flood");
    await bought(buyer);
    const answers = [];
    for (let i = 0; i < PURCHASES_LINKS_PER_HOUR + 2; i++) {
      answers.push((await post("/purchases/link", { email: buyer, locale: "en" })).statusCode);
    }
    expect(answers).toEqual(Array(PURCHASES_LINKS_PER_HOUR + 2).fill(202));
    await ctx.app.services.jobs.worker.runDue();
    const sent = (await mailsTo(ctx, buyer)).filter((m) => m.template === "purchases-link");
    expect(sent).toHaveLength(PURCHASES_LINKS_PER_HOUR);
  });

  it(`sends a receipt again, at most ${RECEIPT_RESENDS_PER_HOUR} times an hour, only of one's own orders`, async () => {
    const buyer = uniqueEmail("library-receipt");
    await bought(buyer, "Receipt pack");
    await post("/purchases/link", { email: buyer, locale: "en" });
    const access = (await open(await mailedToken(buyer))).accessToken;
    const [order] = (await library(access).then((r) => r.json<Library>())).orders;
    const url = `/purchases/library/orders/${order?.orderToken}/receipt`;
    const headers = { [LIBRARY_TOKEN_HEADER]: access };
    const receipts = async () =>
      (await mailsTo(ctx, buyer)).filter((m) => m.template === "order-receipt").length;
    await ctx.app.services.jobs.worker.runDue();
    const before = await receipts();
    for (let i = 0; i < RECEIPT_RESENDS_PER_HOUR; i++)
      expect((await post(url, undefined, headers)).statusCode).toBe(202);
    expect((await post(url, undefined, headers)).statusCode).toBe(429);
    await ctx.app.services.jobs.worker.runDue();
    expect(await receipts()).toBe(before + RECEIPT_RESENDS_PER_HOUR);
    // Another address's library does not reach this order.
    const other = uniqueEmail("library-other");
    await bought(other);
    await post("/purchases/link", { email: other, locale: "en" });
    const otherAccess = (await open(await mailedToken(other))).accessToken;
    const foreign = await post(url, undefined, { [LIBRARY_TOKEN_HEADER]: otherAccess });
    expect(foreign.statusCode).toBe(404);
  });
});

describe(`the library of a signed-in account (${dbKind})`, () => {
  it("lists what the account's verified address bought; an unverified one is asked to verify", async () => {
    const account = await accountWithSession(ctx.database, { onboarded: true });
    await bought(account.email, "Mine");
    const res = await get("/purchases", { cookie: account.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Library>().orders.map((o) => o.title)).toEqual(["Mine"]);
    const unverified = await insertAccount(ctx.database, { verified: false });
    const cookie = await directSessionCookie(ctx.database, unverified.id);
    expect((await get("/purchases", { cookie })).statusCode).toBe(403);
    expect((await get("/purchases")).statusCode).toBe(401);
  });
});
