import { randomUUID } from "node:crypto";
import { createConnection } from "node:net";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import type { Database } from "../src/db/client.ts";
import { clickCounts } from "../src/modules/affiliates/clicks-queries.ts";
import type { ClickCounter, ClickStore } from "../src/modules/affiliates/clicks-store.ts";
import { MemoryClickStore } from "../src/modules/affiliates/clicks-store-memory.ts";
import { RedisClickStore } from "../src/modules/affiliates/clicks-store-redis.ts";
import { insertCampaign } from "./accounts-helpers.ts";
import { createUser, dbKind, testConfig, testDatabase } from "./helpers.ts";

/** REDIS_URL, or a Redis on the default local port when one answers. */
const redisUrl =
  process.env.REDIS_URL ??
  (await new Promise<string | undefined>((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port: 6379 });
    socket.setTimeout(300);
    socket.once("connect", () => {
      socket.destroy();
      resolve("redis://127.0.0.1:6379");
    });
    socket.once("error", () => resolve(undefined));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(undefined);
    });
  }));

const at = Date.parse("2026-03-10T10:15:00Z");

/** A database stand-in that sums what it is given, can fail on demand and takes its time. */
class FakeTable {
  totals = new Map<string, number>();
  writes = 0;
  failNext = false;
  write = async (rows: ClickCounter[]) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (this.failNext) {
      this.failNext = false;
      throw new Error("database down");
    }
    this.writes += 1;
    const seen = new Set<string>();
    for (const r of rows) {
      const key = `${r.campaignId} ${r.day}`;
      // One upsert may not touch a row twice: a store must sum before writing.
      expect(seen.has(key)).toBe(false);
      seen.add(key);
      this.totals.set(`${key} c`, (this.totals.get(`${key} c`) ?? 0) + r.clicks);
      this.totals.set(`${key} b`, (this.totals.get(`${key} b`) ?? 0) + r.botClicks);
    }
  };
  get(campaignId: string, kind: "c" | "b" = "c") {
    return this.totals.get(`${campaignId} 2026-03-10 ${kind}`) ?? 0;
  }
}

/** The same checks for both stores. */
function storeContract(name: string, make: () => ClickStore | Promise<ClickStore>) {
  describe(name, () => {
    it("forgets nothing and counts nothing twice across failed and concurrent flushes", async () => {
      const store = await make();
      const table = new FakeTable();
      const campaign = randomUUID();
      let visitor = 0;
      const clicks = async (n: number, bot = false) => {
        for (let i = 0; i < n; i += 1) {
          visitor += 1;
          expect(await store.record(campaign, `v${visitor}`, bot, at)).toBe(true);
        }
      };
      await clicks(10);
      await clicks(3, true);
      table.failNext = true;
      const failing = store.flush(table.write);
      // Counted while the failing write is in flight: kept, and not mixed up with the failed batch.
      await clicks(5);
      await expect(failing).rejects.toThrow("database down");
      expect(table.get(campaign)).toBe(0);

      // Two flushes at once (two timers, or two instances on Redis), with clicks in between.
      const both = Promise.all([store.flush(table.write), clicks(7), store.flush(table.write)]);
      await both;
      await store.flush(table.write);
      expect(table.get(campaign)).toBe(22);
      expect(table.get(campaign, "b")).toBe(3);
      // Nothing left: a further flush writes nothing.
      const writes = table.writes;
      expect(await store.flush(table.write)).toBe(0);
      expect(table.writes).toBe(writes);
    });

    it("remembers a visitor for the rest of the UTC hour only", async () => {
      const store = await make();
      const campaign = randomUUID();
      expect(await store.record(campaign, "same", false, at)).toBe(true);
      expect(await store.record(campaign, "same", false, Date.parse("2026-03-10T10:59:59Z"))).toBe(false);
      expect(await store.record(randomUUID(), "same", false, at)).toBe(true);
      expect(await store.record(campaign, "same", false, Date.parse("2026-03-10T11:00:00Z"))).toBe(true);
    });
  });
}

storeContract("memory click store", () => new MemoryClickStore({ maxVisitorsPerHour: 1000 }));

describe("memory click store bound", () => {
  it("keeps counting past its bound without remembering", () => {
    let warned = 0;
    const store = new MemoryClickStore({ maxVisitorsPerHour: 2, onOverflow: () => (warned += 1) });
    const campaign = randomUUID();
    expect(store.record(campaign, "a", false, at)).toBe(true);
    expect(store.record(campaign, "b", false, at)).toBe(true);
    expect(store.record(campaign, "c", false, at)).toBe(true);
    expect(store.record(campaign, "c", false, at)).toBe(true);
    expect(store.record(campaign, "a", false, at)).toBe(false);
    expect(warned).toBe(1);
    expect(store.pending).toBe(4);
  });
});

describe.skipIf(!redisUrl)("Redis click store", () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(redisUrl ?? "");
  });
  afterAll(() => redis.disconnect());
  const namespace = () => `test-${randomUUID()}`;

  storeContract(
    "one instance",
    () => new RedisClickStore(redis, { namespace: namespace(), recoverAfterMs: 60_000 }),
  );

  it("counts a visitor once across instances, and two instances flushing never count twice", async () => {
    const ns = namespace();
    const a = new RedisClickStore(redis, { namespace: ns, recoverAfterMs: 60_000 });
    const b = new RedisClickStore(redis, { namespace: ns, recoverAfterMs: 60_000 });
    const table = new FakeTable();
    const campaign = randomUUID();
    expect(await a.record(campaign, "visitor", false, at)).toBe(true);
    expect(await b.record(campaign, "visitor", false, at)).toBe(false);
    const records: Array<Promise<boolean>> = [];
    for (let i = 0; i < 200; i += 1) records.push((i % 2 ? a : b).record(campaign, `v${i}`, false, at));
    // Both flush while clicks are still arriving on both.
    await Promise.all([...records, a.flush(table.write), b.flush(table.write), a.flush(table.write)]);
    await Promise.all([a.flush(table.write), b.flush(table.write)]);
    expect(table.get(campaign)).toBe(201);
    expect(await redis.exists(`{${ns}:clicks}:counts`)).toBe(0);
    expect(await redis.zcard(`{${ns}:clicks}:flushing`)).toBe(0);
  });

  it("takes over the batch of an instance that died mid-flush, once", async () => {
    const ns = namespace();
    const dead = new RedisClickStore(redis, { namespace: ns, recoverAfterMs: 100 });
    const campaign = randomUUID();
    await dead.record(campaign, "v1", false, at);
    await dead.record(campaign, "v2", true, at);
    // It took its batch (the flush's RENAME) and died before writing it.
    const orphan = `{${ns}:clicks}:flushing:dead`;
    await redis.rename(`{${ns}:clicks}:counts`, orphan);
    await redis.zadd(`{${ns}:clicks}:flushing`, Date.now(), orphan);

    const table = new FakeTable();
    const a = new RedisClickStore(redis, { namespace: ns, recoverAfterMs: 100 });
    const b = new RedisClickStore(redis, { namespace: ns, recoverAfterMs: 100 });
    // Too recent: left alone.
    expect(await a.flush(table.write)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await Promise.all([a.flush(table.write), b.flush(table.write)]);
    expect(table.get(campaign)).toBe(1);
    expect(table.get(campaign, "b")).toBe(1);
    expect(await redis.zcard(`{${ns}:clicks}:flushing`)).toBe(0);
  });

  describe(`two API instances sharing Redis (${dbKind})`, () => {
    let database: Database;
    beforeAll(async () => {
      database = await testDatabase();
    });
    afterAll(() => database.close());

    it("count each visitor once and write every click once when both close", async () => {
      const config = testConfig({ CLICK_FLUSH_MS: "30" });
      const ns = namespace();
      const instance = async () => {
        const app = await buildApp({ config, db: database.db, redis, clicksNamespace: ns });
        await app.ready();
        return app;
      };
      const [a, b] = [await instance(), await instance()];
      const owner = await createUser(database);
      const campaign = await insertCampaign(database, owner.id);
      const click = (app: FastifyInstance, ua: string) =>
        app.inject({
          method: "PATCH",
          url: `/campaigns/clicks/${campaign.token}`,
          payload: { token: campaign.token },
          headers: { "user-agent": ua },
        });
      const answers = [];
      for (let i = 0; i < 60; i += 1) {
        // Each visitor clicks on both instances; the flushers run meanwhile (every 30 ms).
        answers.push(await click(i % 2 ? a : b, `Mozilla/5.0 visitor-${i}`));
        answers.push(await click(i % 2 ? b : a, `Mozilla/5.0 visitor-${i}`));
        if (i % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 40));
      }
      answers.push(await click(a, "Slackbot-LinkExpanding 1.0"));
      expect(answers.every((r) => r.statusCode === 204)).toBe(true);
      await Promise.all([a.close(), b.close()]);
      expect((await clickCounts(database.db, [campaign.id])).get(campaign.id)).toEqual({
        clicks: 60,
        botClicks: 1,
      });
      expect(await redis.exists(`{${ns}:clicks}:counts`)).toBe(0);
    });
  });
});
