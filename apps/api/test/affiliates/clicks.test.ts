import type { CampaignList, CampaignStats } from "@salelink/contracts";
import { type SQL, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../src/app.ts";
import { clickCounts, clickDays } from "../../src/modules/affiliates/clicks/queries.ts";
import { directSessionCookie, errorOf, insertAccount, insertCampaign } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";

const browser =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
const otherBrowser =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15";

function click(
  ctx: TestContext,
  token: string,
  visitor: { ip?: string; ua?: string } = {},
  body: unknown = { token },
) {
  return ctx.app.inject({
    method: "PATCH",
    url: `/campaigns/clicks/${token}`,
    payload: body as Record<string, unknown>,
    remoteAddress: visitor.ip ?? "198.51.100.7",
    // light-my-request sends its own user agent unless given one; "" stands for none.
    headers: { "user-agent": visitor.ua ?? browser },
  });
}

/** Rows of a raw query, on PGlite and PostgreSQL alike (both answer `{ rows }`). */
async function rowsOf<T>(ctx: TestContext, query: SQL): Promise<T[]> {
  const res: unknown = await ctx.database.db.execute(query);
  return (res as { rows: T[] }).rows;
}

/** Closing the app is the one way out of the buffer in these tests: its last flush. */
async function countsAfterClose(ctx: TestContext, campaignId: string) {
  await ctx.app.close();
  return (await clickCounts(ctx.database.db, [campaignId])).get(campaignId);
}

describe(`PATCH /campaigns/clicks/{token} (${dbKind})`, () => {
  // A long flush interval: the tests decide when the buffer is written (by closing the app).
  const slow = { CLICK_FLUSH_MS: "60000" };
  let ctx: TestContext;
  afterEach(async () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    await ctx?.close();
  });

  it("counts one click per visitor and campaign per UTC hour", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-10T10:05:00Z"));
    ctx = await testApp(slow);
    const owner = await insertAccount(ctx.database, { onboarded: true });
    const campaign = await insertCampaign(ctx.database, owner.id);
    const other = await insertCampaign(ctx.database, owner.id);

    for (const visitor of [{}, {}, { ip: "198.51.100.8" }, { ua: otherBrowser }]) {
      expect((await click(ctx, campaign.token, visitor)).statusCode).toBe(204);
    }
    // The same visitor on another campaign counts there.
    expect((await click(ctx, other.token)).statusCode).toBe(204);
    vi.setSystemTime(new Date("2026-03-10T10:59:59Z"));
    await click(ctx, campaign.token);
    // The next hour is a new window; the next day a new row.
    vi.setSystemTime(new Date("2026-03-10T11:00:00Z"));
    await click(ctx, campaign.token);
    await click(ctx, campaign.token);
    vi.setSystemTime(new Date("2026-03-11T00:30:00Z"));
    await click(ctx, campaign.token);

    await ctx.app.close();
    const counts = await clickCounts(ctx.database.db, [campaign.id, other.id]);
    expect(counts.get(campaign.id)).toEqual({ clicks: 5, botClicks: 0, filteredClicks: 0 });
    expect(counts.get(other.id)).toEqual({ clicks: 1, botClicks: 0, filteredClicks: 0 });
    expect(await clickDays(ctx.database.db, [campaign.id, other.id], "2026-03-01")).toEqual([
      { date: "2026-03-10", clicks: 5, botClicks: 0, filteredClicks: 0 },
      { date: "2026-03-11", clicks: 1, botClicks: 0, filteredClicks: 0 },
    ]);
    expect(await clickDays(ctx.database.db, [campaign.id], "2026-03-11")).toEqual([
      { date: "2026-03-11", clicks: 1, botClicks: 0, filteredClicks: 0 },
    ]);
  });

  it("does not let one address multiply its clicks by rotating user agents; the rest shows as filtered", async () => {
    ctx = await testApp(slow);
    const owner = await insertAccount(ctx.database, { onboarded: true });
    const campaign = await insertCampaign(ctx.database, owner.id);
    const allowance = ctx.config.CLICK_ADDRESS_ALLOWANCE;
    expect(allowance).toBe(3);
    // The attack: 40 calls, 40 user agents (and 40 different cookies), one address.
    for (let i = 0; i < 40; i += 1) {
      const res = await ctx.app.inject({
        method: "PATCH",
        url: `/campaigns/clicks/${campaign.token}`,
        payload: { token: campaign.token },
        remoteAddress: "198.51.100.50",
        headers: { "user-agent": `${browser} build/${i}`, cookie: `sl_ref=${i}; visitor=${i}` },
      });
      // The answer does not tell a filtered visit from a counted one.
      expect(res.statusCode).toBe(204);
    }
    // An IPv6 client picking addresses in its /64 is one address too.
    for (let i = 1; i <= 10; i += 1) {
      await click(ctx, campaign.token, { ip: `2001:db8:aa:bb::${i.toString(16)}`, ua: `${browser} v6/${i}` });
    }
    // Another visitor on another address still counts.
    await click(ctx, campaign.token, { ip: "198.51.100.51" });
    await ctx.app.close();
    expect((await clickCounts(ctx.database.db, [campaign.id])).get(campaign.id)).toEqual({
      clicks: 2 * allowance + 1,
      botClicks: 0,
      filteredClicks: 40 - allowance + 10 - allowance,
    });

    // The affiliate sees the filtered visits next to the clicks, on the campaign and per day.
    const reader = await buildApp({ config: ctx.config, db: ctx.database.db });
    try {
      const cookie = await directSessionCookie(ctx.database, owner.id);
      const list = (await reader.inject({ url: "/campaigns", headers: { cookie } })).json<CampaignList>();
      expect(list.items.find((c) => c.id === campaign.id)).toMatchObject({
        clicks: 7,
        filteredClicks: 44,
      });
      const stats = (
        await reader.inject({ url: `/campaigns/stats?campaignId=${campaign.id}&days=1`, headers: { cookie } })
      ).json<CampaignStats>();
      expect(stats.days.at(-1)).toMatchObject({ clicks: 7, filteredClicks: 44 });
    } finally {
      await reader.close();
    }
  });

  it("counts bots and link-preview fetchers apart, once per hour each", async () => {
    ctx = await testApp(slow);
    const owner = await insertAccount(ctx.database, { onboarded: true });
    const campaign = await insertCampaign(ctx.database, owner.id);
    const bots = [
      "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
      "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
      "curl/8.5.0",
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "",
    ];
    for (const ua of bots) expect((await click(ctx, campaign.token, { ua })).statusCode).toBe(204);
    await click(ctx, campaign.token, { ua: "curl/8.5.0" });
    await click(ctx, campaign.token, { ua: browser });
    expect(await countsAfterClose(ctx, campaign.id)).toEqual({ clicks: 1, botClicks: 5, filteredClicks: 0 });
  });

  it("answers the same 204 for unknown and archived tokens, and counts nothing", async () => {
    ctx = await testApp(slow);
    const owner = await insertAccount(ctx.database, { onboarded: true });
    const archived = await insertCampaign(ctx.database, owner.id, "archived");
    const unknown = await click(ctx, "camp_does_not_exist");
    const archivedRes = await click(ctx, archived.token);
    for (const res of [unknown, archivedRes]) {
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe("");
    }
    await ctx.app.close();
    const [row] = await rowsOf<{ n: number }>(ctx, sql`select count(*)::int as n from campaign_click_days`);
    expect(row?.n).toBe(0);
  });

  it("refuses a body token that is not the path's, and malformed tokens", async () => {
    ctx = await testApp(slow);
    const owner = await insertAccount(ctx.database, { onboarded: true });
    const campaign = await insertCampaign(ctx.database, owner.id);
    const mismatch = await click(ctx, campaign.token, {}, { token: "camp_something_else" });
    expect(mismatch.statusCode).toBe(400);
    expect(errorOf(mismatch).error).toBe("ValidationException");
    expect(errorOf(mismatch).errors?.token).toEqual(["The token must be the one in the address."]);
    expect((await click(ctx, campaign.token, {}, {})).statusCode).toBe(400);
    expect((await click(ctx, "a b", {}, { token: "a b" })).statusCode).toBe(400);
    expect(await countsAfterClose(ctx, campaign.id)).toEqual({ clicks: 0, botClicks: 0, filteredClicks: 0 });
  });

  it("lets the web origin through, anonymously", async () => {
    ctx = await testApp(slow);
    const owner = await insertAccount(ctx.database, { onboarded: true });
    const campaign = await insertCampaign(ctx.database, owner.id);
    const headers = { origin: ctx.config.WEB_ORIGIN, "user-agent": browser };
    const res = await ctx.app.inject({
      method: "PATCH",
      url: `/campaigns/clicks/${campaign.token}`,
      payload: { token: campaign.token },
      headers,
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers["access-control-allow-origin"]).toBe(ctx.config.WEB_ORIGIN);
    const preflight = await ctx.app.inject({
      method: "OPTIONS",
      url: `/campaigns/clicks/${campaign.token}`,
      headers: { ...headers, "access-control-request-method": "PATCH" },
    });
    expect(preflight.statusCode).toBe(204);
    expect(String(preflight.headers["access-control-allow-methods"])).toContain("PATCH");
    expect(await countsAfterClose(ctx, campaign.id)).toEqual({ clicks: 1, botClicks: 0, filteredClicks: 0 });
  });

  it("stores no client address anywhere in the database", async () => {
    ctx = await testApp({ CLICK_FLUSH_MS: "60000", LOG_LEVEL: "info" });
    const owner = await insertAccount(ctx.database, { onboarded: true });
    const campaign = await insertCampaign(ctx.database, owner.id);
    const ip = "203.0.113.199";
    await click(ctx, campaign.token, { ip });
    await click(ctx, campaign.token, { ip, ua: "Slackbot 1.0" });
    expect(await countsAfterClose(ctx, campaign.id)).toEqual({ clicks: 1, botClicks: 1, filteredClicks: 0 });
    const tables = await rowsOf<{ name: string }>(
      ctx,
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    expect(tables.length).toBeGreaterThan(5);
    for (const { name } of tables) {
      const [found] = await rowsOf<{ n: number }>(
        ctx,
        sql`select count(*)::int as n from ${sql.identifier(name)} t where t::text like ${`%${ip}%`}`,
      );
      expect(found?.n, name).toBe(0);
    }
  });

  it("writes the database once per flush, not per click, and flushes on close", async () => {
    ctx = await testApp(slow);
    const owner = await insertAccount(ctx.database, { onboarded: true });
    const campaigns = [
      await insertCampaign(ctx.database, owner.id),
      await insertCampaign(ctx.database, owner.id),
    ];
    const writes = vi.spyOn(ctx.database.db, "execute");
    const n = 120;
    for (let i = 0; i < n; i += 1) {
      const campaign = campaigns[i % 2];
      if (!campaign) throw new Error("no campaign");
      const visitor = { ua: `${browser} visitor/${i}`, ip: `198.51.${Math.floor(i / 100)}.${i % 100}` };
      expect((await click(ctx, campaign.token, visitor)).statusCode).toBe(204);
    }
    expect(writes).not.toHaveBeenCalled();
    await ctx.app.close();
    // One statement for both campaigns' rows.
    expect(writes).toHaveBeenCalledTimes(1);
    const counts = await clickCounts(
      ctx.database.db,
      campaigns.map((c) => c.id),
    );
    expect([...counts.values()]).toEqual([
      { clicks: n / 2, botClicks: 0, filteredClicks: 0 },
      { clicks: n / 2, botClicks: 0, filteredClicks: 0 },
    ]);
  });

  it("flushes on its own every CLICK_FLUSH_MS", async () => {
    ctx = await testApp({ CLICK_FLUSH_MS: "50" });
    const owner = await insertAccount(ctx.database, { onboarded: true });
    const campaign = await insertCampaign(ctx.database, owner.id);
    await click(ctx, campaign.token);
    await vi.waitFor(
      async () => {
        const counts = await clickCounts(ctx.database.db, [campaign.id]);
        expect(counts.get(campaign.id)).toEqual({ clicks: 1, botClicks: 0, filteredClicks: 0 });
      },
      { timeout: 3000, interval: 50 },
    );
  });
});

describe(`click counts reads (${dbKind})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await testApp({ CLICK_FLUSH_MS: "60000" });
  });
  afterAll(() => ctx.close());

  it("answers zero for campaigns never clicked and nothing for no campaign", async () => {
    const owner = await insertAccount(ctx.database, { onboarded: true });
    const campaign = await insertCampaign(ctx.database, owner.id);
    expect((await clickCounts(ctx.database.db, [campaign.id])).get(campaign.id)).toEqual({
      clicks: 0,
      botClicks: 0,
      filteredClicks: 0,
    });
    expect((await clickCounts(ctx.database.db, [])).size).toBe(0);
    expect(await clickDays(ctx.database.db, [], "2026-01-01")).toEqual([]);
  });
});
