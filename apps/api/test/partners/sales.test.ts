import type {
  CheckoutResponse,
  MembershipStats,
  PartnerClaimResponse,
  PartnerList,
  PartnerVia,
  Programmes,
} from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaigns, jobs, orders, partnerMemberships, users } from "../../src/db/schema/index.ts";
import { releaseHoldsAsOf } from "../../src/modules/orders/service.ts";
import { PartnerAttributions } from "../../src/modules/partners/attribution/service.ts";
import { auditLedger, balancesOf } from "../../src/modules/wallet/ledger.ts";
import { directSessionCookie, errorOf, insertAccount } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";
import { caller, joined, type Someone, saveProgramme, shop, someone } from "./support.ts";

/*
 * Partner programmes' money end to end (issue 20, decision 035): a visitor follows a partner's
 * `?via=` link, buys, and the sale's one ledger transaction splits the amount paid between the
 * platform fee, the partner's commission (out of the creator's share) and the creator's net. The
 * commission follows the sale: held, claimable, claimed once, reversed by a refund.
 */

let ctx: TestContext;
const helpers = checkoutHelpers(() => ctx);
const call = (...args: Parameters<ReturnType<typeof caller>>) => caller(ctx)(...args);
let admin: Someone;

beforeAll(async () => {
  ctx = await testApp({
    HOLD_DAYS: "7",
    CLICK_FLUSH_MS: "20",
    CLICK_TOKEN_CACHE_MS: "0",
    // Nothing listens there: the refresh jobs are queued, and fail quietly.
    WEB_REVALIDATE_URL: "http://127.0.0.1:9/api/revalidate",
    WEB_REVALIDATE_SECRET: "r".repeat(32),
  });
  const account = await insertAccount(ctx.database, { onboarded: true });
  await ctx.database.db.update(users).set({ role: "admin" }).where(eq(users.id, account.id));
  admin = { ...account, cookie: await directSessionCookie(ctx.database, account.id) };
});

afterAll(async () => {
  await ctx?.close();
});

interface Programme {
  creator: Someone;
  partner: Someone;
  code: string;
  membershipId: string;
}

/** A creator with an open programme at `rateBps` and one active partner. */
async function programme(rateBps = 2000): Promise<Programme> {
  const creator = await someone(ctx);
  const partner = await someone(ctx);
  await saveProgramme(ctx, creator.cookie, { joinMode: "open", defaultRateBps: rateBps });
  const m = await joined(ctx, partner.cookie, creator.id);
  expect(m.status).toBe("active");
  return { creator, partner, code: m.code, membershipId: m.id };
}

const via = (code: string, minutesAgo = 1): PartnerVia => ({ code, at: Date.now() - minutesAgo * 60_000 });

/** A checkout of a new link of the creator with these `via` codes, paid; answers the order. */
async function buy(
  seller: Someone,
  codes: PartnerVia[] | undefined,
  opts: { priceMinor?: number; email?: string; token?: string } = {},
) {
  const token =
    opts.token ?? (await helpers.newLink(seller.cookie, { priceMinor: opts.priceMinor ?? 2000 })).token;
  const res = await helpers.checkout(token, {
    ...(codes ? { via: codes } : {}),
    ...(opts.email ? { email: opts.email } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  const started = res.json<CheckoutResponse>();
  await helpers.pay(started);
  return order(started.orderId);
}

async function order(id: string) {
  const [row] = await ctx.database.db.select().from(orders).where(eq(orders.id, id));
  if (!row) throw new Error(`no order ${id}`);
  return row;
}

async function balance(holder: string, account: string) {
  return (
    (await balancesOf(ctx.database.db, holder)).find((b) => b.account === account && b.currency === "EUR")
      ?.balanceMinor ?? 0
  );
}

async function expectLedgerClean() {
  expect(await auditLedger(ctx.database.db)).toEqual({
    unbalancedTransactions: [],
    balancesNotMatchingEntries: [],
    negativeBalances: [],
  });
}

const release = (ids: string[]) =>
  releaseHoldsAsOf(ctx.database.db, new Date(Date.now() + 8 * 86_400_000), ids);

async function refund(orderId: string) {
  const res = await call("POST", `/admin/orders/${orderId}/refund`, admin.cookie, {
    reason: "Buyer asked for it",
  });
  expect(res.statusCode, res.body).toBe(202);
  await ctx.app.services.jobs.worker.runDue();
  expect((await order(orderId)).status).toBe("refunded");
}

async function partnersOf(creator: Someone, query = "") {
  const res = await call("GET", `/partner-programme/partners${query}`, creator.cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PartnerList>();
}

async function myProgramme(p: Programme, query = "") {
  const res = await call("GET", `/programmes/memberships/${p.membershipId}${query}`, p.partner.cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<MembershipStats>();
}

describe(`attribution of a sale to a partner (${dbKind})`, () => {
  it("splits the amount paid: fee on the whole, the partner's share out of the creator's", async () => {
    const p = await programme(2000);
    const paid = await buy(p.creator, [via(p.code)], { priceMinor: 2000 });
    expect(paid).toMatchObject({
      status: "paid",
      partnerMembershipId: p.membershipId,
      partnerId: p.partner.id,
      partnerRateBps: 2000,
      partnerBlocked: null,
      feeMinor: 200,
      partnerCommissionMinor: 400,
      netMinor: 1400,
    });
    expect(await balance(p.creator.id, "pending")).toBe(1400);
    expect(await balance(p.partner.id, "partner_pending")).toBe(400);
    await expectLedgerClean();
    const list = await partnersOf(p.creator);
    expect(list.items[0]?.stats).toMatchObject({
      sales: 1,
      money: [{ currency: "EUR", revenueMinor: 2000, heldMinor: 400, owedMinor: 0, paidMinor: 0 }],
    });
  });

  it("takes the newest click of the creator's programme within its window; others attribute nothing", async () => {
    const p = await programme(1000);
    const second = await someone(ctx);
    const m2 = await joined(ctx, second.cookie, p.creator.id);
    const other = await programme(1000);
    // The newest of this creator's codes wins, whatever the order sent; another creator's is ignored.
    const won = await buy(p.creator, [via(p.code, 30), via(other.code, 1), via(m2.code, 10)]);
    expect(won.partnerMembershipId).toBe(m2.id);
    // Past the programme's window (30 days): nothing.
    const late = await buy(p.creator, [via(p.code, 31 * 24 * 60)]);
    expect(late.partnerMembershipId).toBeNull();
    expect(late.netMinor).toBe(1800);
    // An unknown code, another programme's only: the checkout goes through and attributes nothing.
    expect((await buy(p.creator, [via("ZZZZZZZZ")])).partnerMembershipId).toBeNull();
    expect((await buy(p.creator, [via(other.code)])).partnerMembershipId).toBeNull();
    // A malformed code is a 400 on the field, in the caller's language.
    const link = await helpers.newLink(p.creator.cookie);
    const bad = await helpers.checkout(link.token, { via: [{ code: "no", at: Date.now() }] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(errorOf(bad).errors ?? {}).some((k) => k.startsWith("via"))).toBe(true);
  });

  it("a removed partner, or a programme turned off, attributes nothing from then on", async () => {
    const p = await programme();
    const kept = await buy(p.creator, [via(p.code)]);
    expect(kept.partnerCommissionMinor).toBe(400);
    const removed = await call("DELETE", `/partner-programme/partners/${p.membershipId}`, p.creator.cookie);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await buy(p.creator, [via(p.code)])).partnerMembershipId).toBeNull();
    // The earlier commission stays owed.
    expect(await balance(p.partner.id, "partner_pending")).toBe(400);

    const q = await programme();
    await saveProgramme(ctx, q.creator.cookie, { enabled: false, joinMode: "open" });
    expect((await buy(q.creator, [via(q.code)])).partnerMembershipId).toBeNull();
  });

  it("uses the rate of the moment of checkout, and a link's own rate over the default", async () => {
    const p = await programme(1000);
    const link = await helpers.newLink(p.creator.cookie, { priceMinor: 3000 });
    const started = (await helpers.checkout(link.token, { via: [via(p.code)] })).json<CheckoutResponse>();
    // The creator raises the rate (and gives this link its own) before the payment arrives.
    await saveProgramme(ctx, p.creator.cookie, {
      joinMode: "open",
      defaultRateBps: 5000,
      linkRates: [{ linkId: link.id, rateBps: 3300 }],
    });
    await helpers.pay(started);
    const first = await order(started.orderId);
    expect(first).toMatchObject({ partnerRateBps: 1000, partnerCommissionMinor: 300, netMinor: 2400 });
    // The next sale takes the link's own 33 %: 990 of 3,000.
    const next = await buy(p.creator, [via(p.code)], { token: link.token, email: "other@example.test" });
    expect(next).toMatchObject({ partnerRateBps: 3300, partnerCommissionMinor: 990, netMinor: 1710 });
  });

  it("a partner buying through their own link, or sharing the creator's mailbox, earns nothing; the creator sees why", async () => {
    const p = await programme();
    const own = await buy(p.creator, [via(p.code)], { email: p.partner.email.toUpperCase() });
    expect(own).toMatchObject({ partnerBlocked: "self-purchase", partnerCommissionMinor: 0, netMinor: 1800 });
    expect(await balance(p.partner.id, "partner_pending")).toBe(0);

    // The creator's second account as partner: the same mailbox, normalised (dots and +tags).
    const creator = await someone(ctx);
    const [local, domain] = creator.email.split("@");
    const alias = await insertAccount(ctx.database, { onboarded: true, email: `${local}+p@${domain}` });
    const aliasCookie = await directSessionCookie(ctx.database, alias.id);
    await saveProgramme(ctx, creator.cookie, { joinMode: "open" });
    const m = await joined(ctx, aliasCookie, creator.id);
    const shared = await buy(creator, [via(m.code)]);
    expect(shared).toMatchObject({ partnerBlocked: "shared-signals", partnerCommissionMinor: 0 });

    const list = await partnersOf(p.creator);
    expect(list.items[0]?.stats.blocked).toEqual([{ reason: "self-purchase", sales: 1 }]);
    expect(list.items[0]?.stats.sales).toBe(0);
    expect((await partnersOf(creator)).items[0]?.stats.blocked).toEqual([
      { reason: "shared-signals", sales: 1 },
    ]);
  });

  it("a sale can carry a platform referral commission and a partner commission", async () => {
    const p = await programme(1000);
    const referrer = await someone(ctx);
    // The creator was referred to the platform by `referrer` (a campaign of theirs, at sign-up).
    const [campaign] = await ctx.database.db
      .insert(campaigns)
      .values({ ownerId: referrer.id, name: "Mine", token: `tok${Date.now().toString(36)}` })
      .returning({ id: campaigns.id });
    await ctx.database.db
      .update(users)
      .set({ referredByCampaignId: campaign?.id ?? null, createdAt: new Date() })
      .where(eq(users.id, p.creator.id));
    const paid = await buy(p.creator, [via(p.code)], { priceMinor: 2000 });
    expect(paid).toMatchObject({
      referrerId: referrer.id,
      feeMinor: 200,
      commissionMinor: 40,
      partnerCommissionMinor: 200,
      netMinor: 1600,
    });
    expect(await balance(referrer.id, "affiliate_pending")).toBe(40);
    expect(await balance(p.partner.id, "partner_pending")).toBe(200);
    await expectLedgerClean();
  });
});

describe(`a partner's commission follows the sale (${dbKind})`, () => {
  it("held, then claimable, claimed once into the wallet; the figures follow", async () => {
    const p = await programme(2500);
    const a = await buy(p.creator, [via(p.code)], { priceMinor: 1000 });
    const b = await buy(p.creator, [via(p.code)], { priceMinor: 3000 });
    const nothing = await call("POST", "/programmes/claim", p.partner.cookie);
    expect(nothing.statusCode).toBe(409);
    await release([a.id, b.id]);
    expect(await balance(p.partner.id, "partner_claimable")).toBe(1000);
    const programmes = (await call("GET", "/programmes", p.partner.cookie)).json<Programmes>();
    expect(programmes.claimable).toEqual([{ currency: "EUR", amount: 1000 }]);
    expect((await myProgramme(p)).stats.money).toEqual([
      { currency: "EUR", revenueMinor: 4000, heldMinor: 0, owedMinor: 1000, paidMinor: 0 },
    ]);

    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call("POST", "/programmes/claim", p.partner.cookie)),
    );
    const ok = answers.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]?.json<PartnerClaimResponse>()).toEqual({
      amount: 1000,
      currency: "EUR",
      claims: [{ currency: "EUR", amount: 1000 }],
    });
    expect(await balance(p.partner.id, "partner_claimable")).toBe(0);
    expect(await balance(p.partner.id, "available")).toBe(1000);
    expect((await myProgramme(p)).stats.money[0]).toMatchObject({ owedMinor: 0, paidMinor: 1000 });
    // The platform referral claim does not take partner commissions, nor the other way round.
    expect((await call("POST", "/campaigns/claim", p.partner.cookie)).statusCode).toBe(409);
    await expectLedgerClean();
  });

  it("a refund during the hold reverses the commission with the sale", async () => {
    const p = await programme(2000);
    const sold = await buy(p.creator, [via(p.code)]);
    await refund(sold.id);
    expect(await balance(p.partner.id, "partner_pending")).toBe(0);
    expect(await balance(p.creator.id, "pending")).toBe(0);
    const stats = (await myProgramme(p)).stats;
    expect(stats).toMatchObject({ sales: 0, refunds: 1 });
    await expectLedgerClean();
  });

  it("a refund after the claim takes the partner's claimed commission back from the partner, not the creator", async () => {
    const p = await programme(2000);
    const kept = await buy(p.creator, [via(p.code)], { priceMinor: 5000 });
    const sold = await buy(p.creator, [via(p.code)], { priceMinor: 2000 });
    await release([kept.id, sold.id]);
    expect((await call("POST", "/programmes/claim", p.partner.cookie)).statusCode).toBe(200);
    expect(await balance(p.creator.id, "available")).toBe(3500 + 1400);
    await refund(sold.id);
    // The creator gives back their net (1,400); the partner their claimed 400 (decision 042).
    expect(await balance(p.creator.id, "available")).toBe(3500);
    expect(await balance(p.partner.id, "available")).toBe(1000);
    expect((await myProgramme(p)).stats.money[0]).toMatchObject({ paidMinor: 1000, revenueMinor: 5000 });
    await expectLedgerClean();
  });
});

describe(`the memory of attributions (${dbKind})`, () => {
  it("answers repeat checkouts from memory; a change made elsewhere shows within its time, here at once", async () => {
    const database = ctx.database.db;
    const p = await programme(1000);
    const attributions = new PartnerAttributions(database, { PARTNER_ATTRIBUTION_CACHE_MS: 300 });
    const link = await helpers.newLink(p.creator.cookie);
    const sale = {
      creatorId: p.creator.id,
      linkId: link.id,
      buyerEmail: "b@example.test",
      via: [via(p.code)],
    };
    expect(await attributions.attribute(sale)).toMatchObject({
      partnerId: p.partner.id,
      partnerRateBps: 1000,
    });
    // Removed by another instance (straight in the database here): still in memory for a moment.
    await database
      .update(partnerMemberships)
      .set({ status: "removed" })
      .where(eq(partnerMemberships.id, p.membershipId));
    expect(await attributions.attribute(sale)).toMatchObject({ partnerId: p.partner.id });
    await new Promise((r) => setTimeout(r, 350));
    expect(await attributions.attribute(sale)).toBeNull();
    // A change through this instance's own routes is forgotten at once.
    const q = await programme(1000);
    const first = await buy(q.creator, [via(q.code)]);
    expect(first.partnerMembershipId).toBe(q.membershipId);
    const removed = await call("DELETE", `/partner-programme/partners/${q.membershipId}`, q.creator.cookie);
    expect(removed.statusCode).toBe(200);
    expect((await buy(q.creator, [via(q.code)])).partnerMembershipId).toBeNull();
  });
});

describe(`the creator's pages (${dbKind})`, () => {
  it("are refreshed when the programme is saved: they show it", async () => {
    const creator = await someone(ctx);
    const { profile } = await shop(ctx, creator.cookie);
    await saveProgramme(ctx, creator.cookie, { joinMode: "open" });
    const queued = await ctx.database.db.select().from(jobs).where(eq(jobs.kind, "web.revalidate"));
    const tags = queued.flatMap((j) => (j.payload as { tags: string[] }).tags);
    expect(tags).toEqual(expect.arrayContaining([`creator:${profile.id}`, `creator:${profile.handle}`]));
  });
});

describe(`partner clicks and figures (${dbKind})`, () => {
  it("counts a visitor once an hour, bots apart, and nothing for unknown codes", async () => {
    const p = await programme();
    const click = (code: string, ua: string, ip = "203.0.113.7") =>
      ctx.app.inject({
        method: "PATCH",
        url: `/programmes/clicks/${code}`,
        headers: { "user-agent": ua },
        remoteAddress: ip,
      });
    const browser = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126 Safari/537.36";
    expect((await click(p.code, browser)).statusCode).toBe(204);
    expect((await click(p.code, browser)).statusCode).toBe(204);
    expect((await click(p.code, browser, "203.0.113.8")).statusCode).toBe(204);
    expect((await click(p.code, "Googlebot/2.1 (+http://www.google.com/bot.html)")).statusCode).toBe(204);
    expect((await click("ZZZZZZZZ", browser)).statusCode).toBe(204);
    expect((await click("bad", browser)).statusCode).toBe(400);
    await new Promise((r) => setTimeout(r, 120));
    const mine = await myProgramme(p, "?days=7");
    expect(mine.stats).toMatchObject({ clicks: 2, botClicks: 1 });
    expect(mine.days).toHaveLength(7);
    expect(mine.days.at(-1)?.clicks).toBe(2);
  });

  it("a partner's page lists the creator's links with their rates and a chart of sales", async () => {
    const p = await programme(1500);
    const link = await helpers.newLink(p.creator.cookie, { priceMinor: 4000 });
    await saveProgramme(ctx, p.creator.cookie, {
      joinMode: "open",
      defaultRateBps: 1500,
      linkRates: [{ linkId: link.id, rateBps: 4000 }],
    });
    await buy(p.creator, [via(p.code)], { token: link.token });
    const mine = await myProgramme(p);
    expect(mine.links.find((l) => l.token === link.token)).toMatchObject({ rateBps: 4000, priceMinor: 4000 });
    expect(mine.days.at(-1)).toMatchObject({ sales: 1, commission: [{ currency: "EUR", amount: 1600 }] });
    expect(mine.days).toHaveLength(30);
    // Someone else's membership is not found; a creator's list sorts by what they ask.
    const stranger = await someone(ctx);
    const res = await call("GET", `/programmes/memberships/${p.membershipId}`, stranger.cookie);
    expect(res.statusCode).toBe(404);
    const sorted = await partnersOf(p.creator, "?sort=revenue&dir=desc");
    expect(sorted.items[0]?.stats.money[0]?.revenueMinor).toBe(4000);
  });
});
