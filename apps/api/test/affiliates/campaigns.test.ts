import type {
  CampaignList,
  CampaignStats,
  Campaign as CampaignView,
  CheckoutResponse,
  ClaimResponse,
  Earning,
  ReferralList,
} from "@salelink/contracts";
import { campaignTokenSchema } from "@salelink/contracts";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaigns, commissionClaims, orders, users } from "../../src/db/schema/index.ts";
import { releaseHoldsAsOf } from "../../src/modules/orders/service.ts";
import { auditLedger, balancesOf, type Posting, post } from "../../src/modules/wallet/ledger.ts";
import {
  accountsApp,
  directSessionCookie,
  errorOf,
  insertAccount,
  signUp,
  userId,
} from "../support/accounts.ts";
import type { TestContext } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

/*
 * The affiliate programme end to end: a campaign's token at sign-up, the referred account's sales
 * through the sandbox checkout, commissions held, released, claimed once, reversed by refunds.
 */

let ctx: TestContext;
const helpers = checkoutHelpers(() => ctx);
const { call, checkout, pay } = helpers;
const runJobs = () => ctx.app.services.jobs.worker.runDue();

interface Person {
  id: string;
  email: string;
  cookie: string;
}

let referrer: Person;
let admin: Person;

async function person(role: "user" | "admin" = "user"): Promise<Person> {
  const account = await insertAccount(ctx.database, { onboarded: true });
  if (role === "admin") await ctx.database.db.update(users).set({ role }).where(eq(users.id, account.id));
  return { ...account, cookie: await directSessionCookie(ctx.database, account.id) };
}

/** Signs up through the API with `?ref=`, then opens a session (verified and onboarded directly). */
async function referredBy(token: string, label: string): Promise<Person> {
  const email = `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;
  const res = await signUp(ctx, { email }, token);
  expect(res.statusCode, res.body).toBe(201);
  const id = await userId(ctx.database, email);
  await ctx.database.db
    .update(users)
    .set({ emailVerifiedAt: new Date(), onboardingCompletedAt: new Date() })
    .where(eq(users.id, id));
  return { id, email, cookie: await directSessionCookie(ctx.database, id) };
}

async function sale(seller: Person, priceMinor = 2000): Promise<string> {
  const link = await helpers.newLink(seller.cookie, { priceMinor });
  const started = (await checkout(link.token)).json<CheckoutResponse>();
  await pay(started);
  return started.orderId;
}

async function order(id: string) {
  const [row] = await ctx.database.db.select().from(orders).where(eq(orders.id, id));
  if (!row) throw new Error(`no order ${id}`);
  return row;
}

async function balance(holder: string, account: string, currency = "EUR") {
  return (
    (await balancesOf(ctx.database.db, holder)).find((b) => b.account === account && b.currency === currency)
      ?.balanceMinor ?? 0
  );
}

const list = async (who: Person) => {
  const res = await call("GET", "/campaigns", undefined, who.cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CampaignList>();
};
const claim = (who: Person) => call("POST", "/campaigns/claim", undefined, who.cookie);
const earnings = async (who: Person, query = "") =>
  (await call("GET", `/campaigns/earnings${query}`, undefined, who.cookie)).json<{
    items: Earning[];
    nextCursor: string | null;
  }>();
const euros = (money: { currency: string; amount: number }[]) =>
  money.find((m) => m.currency === "EUR")?.amount ?? 0;
const total = (items: CampaignView[], key: "pending" | "claimable" | "claimed") =>
  items.reduce((n, c) => n + euros(c[key]), 0);

/** The campaign figures, summed over the account, are the ledger's affiliate balances. */
async function expectFiguresMatchLedger(who: Person) {
  const campaigns = await list(who);
  expect(total(campaigns.items, "pending")).toBe(await balance(who.id, "affiliate_pending"));
  expect(total(campaigns.items, "claimable")).toBe(await balance(who.id, "affiliate_claimable"));
  expect(euros(campaigns.claimable)).toBe(await balance(who.id, "affiliate_claimable"));
  return campaigns;
}

async function refund(orderId: string) {
  const res = await call(
    "POST",
    `/admin/orders/${orderId}/refund`,
    { reason: "Buyer asked for it" },
    admin.cookie,
  );
  expect(res.statusCode, res.body).toBe(202);
  await runJobs();
  expect((await order(orderId)).status).toBe("refunded");
}

/** Every table's rows, hashed: equal digests mean nothing was written in between. */
async function databaseDigest(): Promise<Record<string, string>> {
  const tables = (
    (await ctx.database.db.execute(
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    )) as unknown as { rows: { name: string }[] }
  ).rows;
  const digest: Record<string, string> = {};
  for (const { name } of tables) {
    const res = (await ctx.database.db.execute(
      sql`select md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as d from ${sql.identifier(name)} t`,
    )) as unknown as { rows: { d: string }[] };
    digest[name] = res.rows[0]?.d ?? "";
  }
  return digest;
}

const release = (ids: string[]) =>
  releaseHoldsAsOf(ctx.database.db, new Date(Date.now() + 8 * 86_400_000), ids);

beforeAll(async () => {
  ctx = await accountsApp({
    HOLD_DAYS: "7",
    WEB_ORIGIN: "https://salelink.example",
    // Clicks reach the database within a few tens of milliseconds; an archived token stops at once.
    CLICK_FLUSH_MS: "20",
    CLICK_TOKEN_CACHE_MS: "0",
  });
  referrer = await person();
  admin = await person("admin");
});
afterAll(async () => {
  await ctx.close();
});

describe("campaigns", () => {
  it("needs a session", async () => {
    expect((await call("GET", "/campaigns")).statusCode).toBe(401);
    expect((await call("POST", "/campaigns/claim")).statusCode).toBe(401);
  });

  it("reads campaigns without writing anything; an account without one creates it", async () => {
    const before = await databaseDigest();
    const [first, again] = await Promise.all([list(referrer), list(referrer)]);
    // The attack of the pentest: a GET that created a campaign. It changes nothing now.
    expect(first.items).toEqual([]);
    expect(again.items).toEqual([]);
    expect(await databaseDigest()).toEqual(before);
    expect(first.rules).toEqual({
      commissionBps: 2000,
      durationMonths: 12,
      holdDays: 7,
      cookieDays: 30,
      clicksPerAddress: 3,
    });

    const made = (
      await call("POST", "/campaigns", { name: "My link" }, referrer.cookie)
    ).json<CampaignView>();
    expect(made).toMatchObject({
      name: "My link",
      status: "active",
      clicks: 0,
      filteredClicks: 0,
      signups: 0,
    });
    expect(campaignTokenSchema.safeParse(made.token).success).toBe(true);
    expect(made.shareUrl).toBe(`https://salelink.example/?ref=${made.token}`);

    const res = await call("POST", "/campaigns", { name: "  Newsletter " }, referrer.cookie);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<CampaignView>();
    expect(created.name).toBe("Newsletter");
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(created.token).not.toBe(made.token);
    expect((await list(referrer)).items.map((c) => c.id)).toContain(created.id);
    expect((await call("POST", "/campaigns", { name: "" }, referrer.cookie)).statusCode).toBe(400);
  });

  it("gives every new account its first campaign at sign-up, named in its language", async () => {
    const email = `first-${Date.now().toString(36)}@example.test`;
    expect((await signUp(ctx, { email, locale: "fr" })).statusCode).toBe(201);
    const id = await userId(ctx.database, email);
    const mine = await ctx.database.db.select().from(campaigns).where(eq(campaigns.ownerId, id));
    expect(mine.map((c) => [c.name, c.status])).toEqual([["Mon lien", "active"]]);
  });

  it("renames, archives and unarchives; an archived campaign's token attributes no sign-up", async () => {
    const created = (await call("POST", "/campaigns", { name: "Old" }, referrer.cookie)).json<CampaignView>();
    const patch = (body: object) => call("PATCH", `/campaigns/${created.id}`, body, referrer.cookie);
    expect((await patch({ name: "Spring" })).json<CampaignView>().name).toBe("Spring");
    expect((await patch({})).statusCode).toBe(400);
    expect((await patch({ status: "archived" })).json<CampaignView>().status).toBe("archived");

    const ignored = await referredBy(created.token, "late");
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, ignored.id));
    expect(row?.referredByCampaignId).toBeNull();

    expect((await patch({ status: "active" })).json<CampaignView>().status).toBe("active");
    const counted = await referredBy(created.token, "again");
    const [after] = await ctx.database.db.select().from(users).where(eq(users.id, counted.id));
    expect(after?.referredByCampaignId).toBe(created.id);
    expect((await list(referrer)).items.find((c) => c.id === created.id)?.signups).toBe(1);
  });

  it("shows the clicks of its share link, bots apart, and counts none once archived", async () => {
    const created = (
      await call("POST", "/campaigns", { name: "Clicks" }, referrer.cookie)
    ).json<CampaignView>();
    const visit = (ua: string) =>
      ctx.app.inject({
        method: "PATCH",
        url: `/campaigns/clicks/${created.token}`,
        payload: { token: created.token },
        remoteAddress: "198.51.100.20",
        headers: { "user-agent": ua },
      });
    const browser =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
    expect((await visit(browser)).statusCode).toBe(204);
    expect((await visit(browser)).statusCode).toBe(204);
    expect((await visit("Twitterbot/1.0")).statusCode).toBe(204);
    const counts = async () => {
      const mine = (await list(referrer)).items.find((c) => c.id === created.id);
      return { clicks: mine?.clicks, botClicks: mine?.botClicks };
    };
    await expect.poll(counts, { timeout: 5000 }).toEqual({ clicks: 1, botClicks: 1 });
    const stats = (
      await call("GET", `/campaigns/stats?days=2&campaignId=${created.id}`, undefined, referrer.cookie)
    ).json<CampaignStats>();
    expect(stats.days.at(-1)).toMatchObject({ clicks: 1, botClicks: 1, signups: 0 });

    await call("PATCH", `/campaigns/${created.id}`, { status: "archived" }, referrer.cookie);
    expect((await visit("Mozilla/5.0 (Macintosh) Version/17.5 Safari/605.1.15")).statusCode).toBe(204);
    // Many flush intervals later, still the clicks of before.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await counts()).toEqual({ clicks: 1, botClicks: 1 });
  });

  it("another account's campaigns are neither listed nor changed nor read", async () => {
    const other = await person();
    const mine = (await list(referrer)).items[0];
    if (!mine) throw new Error("no campaign");
    const theirs = await list(other);
    expect(theirs.items.map((c) => c.id)).not.toContain(mine.id);
    const patched = await call("PATCH", `/campaigns/${mine.id}`, { name: "Mine now" }, other.cookie);
    expect(patched.statusCode).toBe(404);
    expect(errorOf(patched).message).toBe("This campaign was not found.");
    const stats = await call("GET", `/campaigns/stats?campaignId=${mine.id}`, undefined, other.cookie);
    expect(stats.statusCode).toBe(404);
    expect((await list(referrer)).items.find((c) => c.id === mine.id)?.name).toBe(mine.name);
    expect((await earnings(other)).items).toEqual([]);
    expect(
      (await call("GET", "/campaigns/referrals", undefined, other.cookie)).json<ReferralList>().items,
    ).toEqual([]);
  });
});

describe("commissions", () => {
  let campaign: CampaignView;
  let seller: Person;
  const sold: string[] = [];

  it("a referred account's sales earn 20% of the 10% fee, rounded half up at each step", async () => {
    campaign = (await call("POST", "/campaigns", { name: "Shop" }, referrer.cookie)).json<CampaignView>();
    seller = await referredBy(campaign.token, "rachel");
    sold.push(await sale(seller, 2000));
    // 20.00: fee 2.00, commission 0.40.
    expect(await order(sold[0] ?? "")).toMatchObject({
      referrerId: referrer.id,
      feeMinor: 200,
      commissionMinor: 40,
      netMinor: 1800,
    });
    // 10.35: fee 103.5 -> 104 (half up), commission 20.8 -> 21, in integers from the rounded fee.
    sold.push(await sale(seller, 1035));
    expect(await order(sold[1] ?? "")).toMatchObject({ feeMinor: 104, commissionMinor: 21, netMinor: 931 });

    const campaigns = await expectFiguresMatchLedger(referrer);
    const shop = campaigns.items.find((c) => c.id === campaign.id);
    expect(shop).toMatchObject({ signups: 1, sales: 2, claimable: [], claimed: [] });
    expect(shop?.pending).toEqual([{ currency: "EUR", amount: 61 }]);
    expect(await balance(referrer.id, "affiliate_pending")).toBe(61);
  });

  it("nothing is claimable during the hold", async () => {
    const res = await claim(referrer);
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe("Nothing to claim yet.");
    const fr = await ctx.app.inject({
      method: "POST",
      url: "/campaigns/claim",
      headers: { cookie: referrer.cookie, "x-locale": "es" },
    });
    expect(errorOf(fr).message).toBe("Todavía no hay nada que reclamar.");
    const page = await earnings(referrer);
    expect(page.items.map((e) => [e.orderId, e.status, e.commission])).toEqual([
      [sold[1], "pending", 21],
      [sold[0], "pending", 40],
    ]);
    expect(page.items[0]).toMatchObject({ campaignId: campaign.id, saleAmount: 1035, currency: "EUR" });
    expect(page.items[0]?.account).toMatch(/^r•••@example\.test$/);
  });

  it("after the hold the commission is claimable, and ten claims at once credit it once", async () => {
    expect(await release(sold)).toBe(2);
    const campaigns = await expectFiguresMatchLedger(referrer);
    expect(campaigns.claimable).toEqual([{ currency: "EUR", amount: 61 }]);
    expect((await earnings(referrer)).items.map((e) => e.status)).toEqual(["claimable", "claimable"]);

    const availableBefore = await balance(referrer.id, "available");
    const answers = await Promise.all(Array.from({ length: 10 }, () => claim(referrer)));
    const won = answers.filter((r) => r.statusCode === 200);
    expect(won).toHaveLength(1);
    expect(won[0]?.json<ClaimResponse>()).toEqual({
      amount: 61,
      currency: "EUR",
      claims: [{ currency: "EUR", amount: 61 }],
    });
    for (const lost of answers.filter((r) => r.statusCode !== 200)) {
      expect(lost.statusCode).toBe(409);
      expect(errorOf(lost).message).toBe("Nothing to claim yet.");
    }
    expect(await balance(referrer.id, "available")).toBe(availableBefore + 61);
    expect(await balance(referrer.id, "affiliate_claimable")).toBe(0);
    const claims = await ctx.database.db
      .select()
      .from(commissionClaims)
      .where(eq(commissionClaims.userId, referrer.id));
    expect(claims).toHaveLength(1);
    expect((await order(sold[0] ?? "")).commissionClaimId).toBe(claims[0]?.id);

    const after = await expectFiguresMatchLedger(referrer);
    expect(after.items.find((c) => c.id === campaign.id)?.claimed).toEqual([{ currency: "EUR", amount: 61 }]);
    expect(after.claimable).toEqual([]);
    expect((await earnings(referrer)).items.map((e) => e.status)).toEqual(["claimed", "claimed"]);
  });

  it("a refund after the claim takes the commission back from the referrer's wallet; the unclaimed one stays claimable", async () => {
    const third = await sale(seller, 2000);
    await release([third]);
    expect(await balance(referrer.id, "affiliate_claimable")).toBe(40);
    const available = await balance(referrer.id, "available");

    await refund(sold[0] ?? "");
    // The claimed 0.40 comes back from the referrer (decision 042), never from the next claim.
    expect(await balance(referrer.id, "available")).toBe(available - 40);
    expect(await balance(referrer.id, "affiliate_claimable")).toBe(40);
    const campaigns = await expectFiguresMatchLedger(referrer);
    const shop = campaigns.items.find((c) => c.id === campaign.id);
    expect(shop).toMatchObject({ sales: 2, claimed: [{ currency: "EUR", amount: 21 }] });
    const status = new Map((await earnings(referrer)).items.map((e) => [e.orderId, e.status]));
    expect(status.get(sold[0] ?? "")).toBe("reversed");

    const res = await claim(referrer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ClaimResponse>().amount).toBe(40);
    expect(await balance(referrer.id, "available")).toBe(available);
    sold.push(third);
  });

  it("a refund during the hold reverses the pending commission", async () => {
    const held = await sale(seller, 3000);
    expect(await balance(referrer.id, "affiliate_pending")).toBe(60);
    await refund(held);
    expect(await balance(referrer.id, "affiliate_pending")).toBe(0);
    await expectFiguresMatchLedger(referrer);
    const row = (await earnings(referrer)).items.find((e) => e.orderId === held);
    expect(row).toMatchObject({ status: "reversed", commission: 60 });
    // A reversed commission is never claimed.
    expect((await claim(referrer)).statusCode).toBe(409);
  });

  it("sales after the referred account's first 12 months earn nothing", async () => {
    const late = await referredBy(campaign.token, "late");
    const joined = new Date();
    joined.setUTCMonth(joined.getUTCMonth() - 12);
    joined.setUTCDate(joined.getUTCDate() - 1);
    await ctx.database.db.update(users).set({ createdAt: joined }).where(eq(users.id, late.id));
    const id = await sale(late, 2000);
    expect(await order(id)).toMatchObject({ referrerId: null, commissionMinor: 0, feeMinor: 200 });
    expect((await earnings(referrer)).items.map((e) => e.orderId)).not.toContain(id);

    // Within the window (11 months in), still earning.
    joined.setUTCMonth(joined.getUTCMonth() + 2);
    await ctx.database.db.update(users).set({ createdAt: joined }).where(eq(users.id, late.id));
    expect((await order(await sale(late, 2000))).commissionMinor).toBe(40);
  });

  it("pages the earnings newest first, one row at a time through same-second payments", async () => {
    // Providers date payments to the second: several sales paid in the same one.
    await ctx.database.db
      .update(orders)
      .set({ paidAt: new Date(Math.floor(Date.now() / 1000) * 1000) })
      .where(eq(orders.referrerId, referrer.id));
    const all = await earnings(referrer, "?limit=100");
    expect(all.items.length).toBeGreaterThan(4);
    expect(all.nextCursor).toBeNull();
    const walked: Earning[] = [];
    let cursor: string | null = null;
    do {
      const page = await earnings(referrer, `?limit=1${cursor ? `&cursor=${cursor}` : ""}`);
      walked.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor && walked.length <= all.items.length);
    expect(walked).toEqual(all.items);
    const times = all.items.map((e) => e.paidAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("lists the referred accounts anonymised, under a stable pseudonym", async () => {
    const res = await call("GET", "/campaigns/referrals", undefined, referrer.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(seller.email);
    expect(res.body).not.toContain(seller.id);
    const rachel = res.json<ReferralList>().items.find((r) => r.account === `r•••@example.test`);
    expect(rachel).toMatchObject({ campaignId: campaign.id, sales: 2 });
    // 0.21 and 0.40 claimed; 0.40 refunded after its claim was taken back (decision 042), and 0.60
    // reversed in the hold, are not earned.
    expect(rachel?.earned).toEqual([{ currency: "EUR", amount: 61 }]);
    const joined = new Date(rachel?.joinedAt ?? "");
    const until = new Date(joined);
    until.setUTCMonth(until.getUTCMonth() + 12);
    expect(rachel?.earnsUntil).toBe(until.toISOString());
    const again = (
      await call("GET", "/campaigns/referrals", undefined, referrer.cookie)
    ).json<ReferralList>();
    expect(again.items.map((r) => r.id)).toEqual(res.json<ReferralList>().items.map((r) => r.id));
  });

  it("counts sign-ups per day, zero-filled, over all campaigns or one", async () => {
    const res = await call("GET", "/campaigns/stats?days=7", undefined, referrer.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const { days } = res.json<CampaignStats>();
    expect(days).toHaveLength(7);
    expect(days.at(-1)?.date).toBe(new Date().toISOString().slice(0, 10));
    expect(days.slice(0, 6).every((d) => d.signups === 0 && d.clicks === 0)).toBe(true);
    const signups = (await list(referrer)).items.reduce((n, c) => n + c.signups, 0);
    // One referred account was moved back 11 months: today has the others.
    expect(days.at(-1)?.signups).toBe(signups - 1);
    const one = (
      await call("GET", `/campaigns/stats?days=1&campaignId=${campaign.id}`, undefined, referrer.cookie)
    ).json<CampaignStats>();
    expect(one.days).toEqual([
      { date: days.at(-1)?.date, clicks: 0, botClicks: 0, filteredClicks: 0, signups: 1 },
    ]);
  });

  it("refuses to claim, and moves nothing, when the orders and the ledger disagree", async () => {
    const id = await sale(seller, 2000);
    await release([id]);
    // Money in the claimable balance that no order explains.
    await ctx.database.db.transaction((tx) =>
      post(tx, {
        // A kind the product never posts: this money has no cause.
        kind: "test_adjustment" as Posting["kind"],
        reference: id,
        entries: [
          { account: "platform_fees", ownerId: null, currency: "EUR", amountMinor: -5 },
          { account: "affiliate_claimable", ownerId: referrer.id, currency: "EUR", amountMinor: 5 },
        ],
      }),
    );
    const available = await balance(referrer.id, "available");
    const res = await claim(referrer);
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe(
      "Your commissions cannot be claimed right now. Please try again later.",
    );
    expect(await balance(referrer.id, "available")).toBe(available);
    expect((await order(id)).commissionClaimId).toBeNull();
  });

  it("leaves a clean ledger", async () => {
    expect(await auditLedger(ctx.database.db)).toEqual({
      unbalancedTransactions: [],
      balancesNotMatchingEntries: [],
      negativeBalances: [],
    });
    const [claimed] = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(eq(orders.referrerId, referrer.id));
    expect(claimed?.n).toBeGreaterThan(0);
  });
});
