import { isIPv6 } from "node:net";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../src/app.ts";
import type { Database } from "../../src/db/client.ts";
import { clickCounts } from "../../src/modules/affiliates/clicks/queries.ts";
import { RedisClickStore } from "../../src/modules/affiliates/clicks/store/redis.ts";
import { CampaignTokens } from "../../src/modules/affiliates/clicks/tokens.ts";
import { addressOf, visitorKeys } from "../../src/modules/affiliates/clicks/visitor.ts";
import { directSessionCookie, insertAccount, insertCampaign } from "../support/accounts.ts";
import { dbKind, testConfig, testDatabase } from "../support/app.ts";
import { redisUrl } from "../support/redis.ts";

/*
 * The click route's fast path (decision 033): what it skips of the global plugins, the cheaper
 * address and keyed hash, the token cache read without a promise, and no click lost on a clean
 * shutdown with flushes running, on the memory store and (when one answers) on Redis.
 */

const browser = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36";

/** The /64 as worked out before decision 033, with node:net's full validation: the reference. */
function reference(ip: string): string {
  if (!isIPv6(ip) || ip.startsWith("::ffff:")) return ip;
  const [head = "", tail = ""] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::")
    ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** A deterministic pseudo-random sequence, so a failure can be replayed. */
function* numbers(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    yield x;
  }
}

describe("addressOf", () => {
  it("gives every valid address the key node:net's validation gave, and keeps anything else whole", () => {
    const cases = [
      "198.51.100.7",
      "::1",
      "::",
      "2001:db8::1",
      "2001:DB8:0:0:1::",
      "2001:0db8:0000:0042:0000:8a2e:0370:7334",
      "fe80::1:2:3:4:5",
      "::ffff:198.51.100.7",
      "1:2:3:4::",
      "::2:3:4:5:6:7:8",
      "64:ff9b::192.0.2.33",
      "2001:db8:1:2:3:4:192.0.2.33",
      "not-an-address",
      "foo:bar",
    ];
    for (const ip of cases) expect(addressOf(ip), ip).toBe(reference(ip));
    const random = numbers(42);
    const next = () => random.next().value as number;
    let checked = 0;
    while (checked < 5_000) {
      const groups = Array.from({ length: 8 }, () => (next() % 65_536).toString(16));
      const [from, to] = [next() % 9, next() % 9];
      const ip =
        from < to ? `${groups.slice(0, from).join(":")}::${groups.slice(to).join(":")}` : groups.join(":");
      if (!isIPv6(ip)) continue;
      expect(addressOf(ip), ip).toBe(reference(ip));
      checked += 1;
    }
    // A malformed value from a proxy never throws: it is a key of its own.
    expect(addressOf("1:2:3:4:5:6:7:8:9::1:2")).toBe("1:2:3:4::/64");
    // IPv4-mapped addresses stay whole whatever their case (they used to fall into one /64).
    expect(addressOf("::FFFF:198.51.100.7")).toBe("::ffff:198.51.100.7");
  });
});

describe("visitorKeys", () => {
  it("keys a visitor by address and user agent, an address by its /64, and depends on the secret", () => {
    const keys = visitorKeys("secret-one-0123456789abcdef0123456789abcdef");
    const a = keys("2001:db8:1:2::10", browser);
    expect(keys("2001:db8:1:2::10", browser)).toEqual(a);
    // Same /64, other user agent: another visitor from the same address.
    const b = keys("2001:db8:1:2:ffff::1", `${browser} other`);
    expect(b.address).toBe(a.address);
    expect(b.visitor).not.toBe(a.visitor);
    expect(keys("2001:db8:1:3::10", browser).address).not.toBe(a.address);
    expect(a.visitor).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a.address).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // The visitor key is not the address key of some other input: two separate domains.
    expect(a.visitor).not.toBe(a.address);
    const other = visitorKeys("secret-two-0123456789abcdef0123456789abcdef")("2001:db8:1:2::10", browser);
    expect(other.visitor).not.toBe(a.visitor);
    expect(other.address).not.toBe(a.address);
  });
});

describe(`the click route's fast path (${dbKind})`, () => {
  let database: Database;
  let redis: Redis | undefined;
  const apps: FastifyInstance[] = [];
  beforeAll(async () => {
    database = await testDatabase();
    if (redisUrl) redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  afterAll(async () => {
    await redis?.quit();
    await database.close();
  });

  async function app(
    overrides: Record<string, string> = {},
    options: { redis?: Redis; log?: string[] } = {},
  ): Promise<FastifyInstance> {
    const built = await buildApp({
      config: testConfig({ CLICK_FLUSH_MS: "60000", ...overrides }),
      db: database.db,
      ...(options.redis ? { redis: options.redis, clicksNamespace: `test-${Math.random()}` } : {}),
      ...(options.log ? { logStream: { write: (line: string) => void options.log?.push(line) } } : {}),
    });
    await built.ready();
    apps.push(built);
    return built;
  }

  const click = (target: FastifyInstance, token: string, i = 0, headers: Record<string, string> = {}) =>
    target.inject({
      method: "PATCH",
      url: `/campaigns/clicks/${token}`,
      payload: { token },
      remoteAddress: `2001:db8:${(i >>> 16).toString(16)}:${(i & 0xffff).toString(16)}::1`,
      headers: { "user-agent": `${browser} visitor/${i}`, ...headers },
    });

  it("answers without helmet's document headers but with HSTS; every other answer keeps them all", async () => {
    const target = await app();
    const owner = await insertAccount(database, { onboarded: true });
    const campaign = await insertCampaign(database, owner.id);
    const res = await click(target, campaign.token);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    expect(res.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(res.headers["x-frame-options"]).toBeUndefined();
    const refused = await target.inject({
      method: "PATCH",
      url: `/campaigns/clicks/${campaign.token}`,
      payload: { token: "camp_other" },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers["strict-transport-security"]).toBeDefined();
    // The opt-out is the click route's alone: other routes, 404s and even other methods on the
    // click's path keep every header.
    const others = [
      { method: "GET", url: "/maintenance" },
      { method: "GET", url: "/no-such-route" },
      { method: "POST", url: `/campaigns/clicks/${campaign.token}` },
      { method: "GET", url: "/campaigns" },
    ] as const;
    for (const request of others) {
      const other = await target.inject(request);
      expect(other.headers["x-frame-options"], request.url).toBe("SAMEORIGIN");
      expect(other.headers["x-content-type-options"]).toBe("nosniff");
      expect(other.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    }
  });

  it("writes no log line per click at info level, while other routes still log theirs", async () => {
    const log: string[] = [];
    const target = await app({ LOG_LEVEL: "info" }, { log });
    const owner = await insertAccount(database, { onboarded: true });
    const campaign = await insertCampaign(database, owner.id);
    for (let i = 0; i < 5; i += 1) expect((await click(target, campaign.token, i)).statusCode).toBe(204);
    expect(log.filter((line) => line.includes("/campaigns/clicks"))).toEqual([]);
    await target.inject({ method: "GET", url: "/maintenance" });
    expect(log.some((line) => line.includes("request completed"))).toBe(true);
  });

  it("touches no database for a known token, even with a session cookie (no session lookup)", async () => {
    const target = await app();
    const owner = await insertAccount(database, { onboarded: true });
    const campaign = await insertCampaign(database, owner.id);
    expect((await click(target, campaign.token)).statusCode).toBe(204);
    const select = vi.spyOn(database.db, "select");
    const execute = vi.spyOn(database.db, "execute");
    const cookie = await directSessionCookie(database, owner.id);
    for (let i = 1; i <= 10; i += 1) {
      expect((await click(target, campaign.token, i, { cookie })).statusCode).toBe(204);
    }
    expect(select).not.toHaveBeenCalled();
    expect(execute).not.toHaveBeenCalled();
  });

  it("reads a known token without a query until its TTL ends, one query for concurrent misses", async () => {
    const owner = await insertAccount(database, { onboarded: true });
    const campaign = await insertCampaign(database, owner.id);
    let now = 1_000_000;
    const tokens = new CampaignTokens(database.db, { ttlMs: 30_000, maxEntries: 2, now: () => now });
    const select = vi.spyOn(database.db, "select");
    expect(tokens.peek(campaign.token)).toBeUndefined();
    const answers = await Promise.all([tokens.resolve(campaign.token), tokens.resolve(campaign.token)]);
    expect(answers).toEqual([campaign.id, campaign.id]);
    expect(select).toHaveBeenCalledTimes(1);
    expect(tokens.peek(campaign.token)).toBe(campaign.id);
    // Unknown tokens are remembered as such.
    expect(await tokens.resolve("camp_unknown")).toBeNull();
    expect(tokens.peek("camp_unknown")).toBeNull();
    // Archived since: still counted within the TTL, not after it.
    await database.db.execute(sql`update campaigns set status = 'archived' where id = ${campaign.id}`);
    now += 29_999;
    expect(tokens.peek(campaign.token)).toBe(campaign.id);
    now += 1;
    expect(tokens.peek(campaign.token)).toBeUndefined();
    expect(await tokens.resolve(campaign.token)).toBeNull();
    // Bounded: a third token pushes the oldest out.
    await tokens.resolve("camp_third");
    expect(tokens.peek("camp_unknown")).toBeUndefined();
  });

  it.skipIf(!redisUrl)(
    "sends the clicks of one turn in one Redis pipeline, each answered with its own outcome",
    async () => {
      if (!redis) throw new Error("no Redis");
      const store = new RedisClickStore(redis, {
        namespace: `test-${Math.random()}`,
        recoverAfterMs: 300_000,
        allowance: 2,
      });
      const pipelines = vi.spyOn(redis, "pipeline");
      const at = Date.parse("2026-03-10T10:15:00Z");
      const keys = (visitor: string, address = `address-of-${visitor}`) => ({ visitor, address });
      const outcomes = await Promise.all([
        store.record("c1", keys("a"), false, at),
        store.record("c1", keys("a"), false, at),
        store.record("c1", keys("b"), true, at),
        store.record("c1", keys("c", "shared"), false, at),
        store.record("c1", keys("d", "shared"), false, at),
        store.record("c1", keys("e", "shared"), false, at),
        store.record("c2", keys("a"), false, at),
      ]);
      expect(outcomes).toEqual(["counted", "repeat", "bot", "counted", "counted", "filtered", "counted"]);
      expect(pipelines).toHaveBeenCalledTimes(1);
      // The next turn starts a pipeline of its own.
      expect(await store.record("c1", keys("a"), false, at)).toBe("repeat");
      expect(pipelines).toHaveBeenCalledTimes(2);
      // Redis restarted (its script cache empty): every click of the pipeline is sent again whole.
      const noScript = new Error("NOSCRIPT No matching script. Please use EVAL.");
      let queued = 0;
      pipelines.mockImplementationOnce(() => {
        const fake = {
          evalsha: () => {
            queued += 1;
            return fake;
          },
          exec: async () => Array.from({ length: queued }, () => [noScript, null]),
        };
        return fake as unknown as ReturnType<Redis["pipeline"]>;
      });
      expect(
        await Promise.all([
          store.record("c3", keys("a"), false, at),
          store.record("c3", keys("b"), true, at),
        ]),
      ).toEqual(["counted", "bot"]);
      expect(queued).toBe(2);
      const rows: unknown[] = [];
      await store.flush(async (taken) => {
        rows.push(...taken);
      });
      expect(rows).toEqual(
        expect.arrayContaining([
          { campaignId: "c1", day: "2026-03-10", clicks: 3, botClicks: 1, filteredClicks: 1 },
          { campaignId: "c2", day: "2026-03-10", clicks: 1, botClicks: 0, filteredClicks: 0 },
        ]),
      );
    },
  );

  const stores = redisUrl ? (["memory", "redis"] as const) : (["memory"] as const);
  for (const store of stores) {
    it(`loses no click on a clean shutdown, with flushes running as clicks arrive (${store} store)`, async () => {
      const target = await app({ CLICK_FLUSH_MS: "15" }, store === "redis" && redis ? { redis } : {});
      const owner = await insertAccount(database, { onboarded: true });
      const campaign = await insertCampaign(database, owner.id);
      let answered = 0;
      for (let round = 0; round < 8; round += 1) {
        // A flush or two between rounds; none after the last one, closed at once.
        if (round > 0) await new Promise((resolve) => setTimeout(resolve, 20));
        const batch = await Promise.all(
          Array.from({ length: 40 }, (_, i) => click(target, campaign.token, round * 40 + i)),
        );
        answered += batch.filter((r) => r.statusCode === 204).length;
      }
      // The last clicks are still in the buffer: only the close's flush can write them.
      const closing = target.close();
      apps.splice(apps.indexOf(target), 1);
      await closing;
      expect(answered).toBe(320);
      expect((await clickCounts(database.db, [campaign.id])).get(campaign.id)).toEqual({
        clicks: 320,
        botClicks: 0,
        filteredClicks: 0,
      });
    });
  }
});
