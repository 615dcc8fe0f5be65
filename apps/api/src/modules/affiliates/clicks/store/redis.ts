import { createHash, randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { VisitorKeys } from "../visitor.ts";
import {
  type ClickCounter,
  type ClickOutcome,
  type ClickStore,
  dayOf,
  hourMs,
  hourOf,
  type WriteCounters,
} from "./types.ts";

/*
 * The click store shared by every instance (REDIS_URL set). All keys share one hash tag, so the
 * scripts below also run on a Redis cluster.
 *
 * - `seen:{hour}:{campaign}:{visitor}`: SET NX with an expiry at the end of the hour; the click counts
 *   only if the key was new. Done with the HINCRBY in one script: one round trip, never a counted
 *   visitor whose count was lost between two commands.
 * - `from:{hour}:{campaign}:{address}`: INCR per new (non-bot) visitor from that address, expiring
 *   with the hour; past the allowance the visit is counted as filtered instead of as a click.
 * - `counts`: one hash, field `{campaign} {day} c|b|f`, HINCRBY per counted visit.
 * - A flush RENAMEs `counts` to a key of its own (`flushing:{instance}:{n}`, listed with its time in
 *   the `flushing` sorted set) and reads it in the same script. RENAME is atomic: two instances
 *   flushing at once each take a disjoint part, and clicks arriving meanwhile start a new `counts`.
 *   Once the database write succeeded, the taken key is deleted; when it failed, its counts are added
 *   back to `counts` for the next flush. So nothing is counted twice or forgotten, except in two
 *   windows: an instance that dies between its database write and the delete (well under a
 *   millisecond) leaves a batch that is counted again when recovered; an instance that dies between
 *   the rename and the write leaves its batch under its own key, which any instance takes over (and
 *   writes) once it is older than the recovery delay, so those clicks arrive late but arrive.
 */

interface Script {
  lua: string;
  sha: string;
}

const script = (lua: string): Script => ({ lua, sha: createHash("sha1").update(lua).digest("hex") });

/**
 * KEYS: seen, counts, from. ARGV: seconds to keep, field prefix, bot (1/0), allowance.
 * Answers 0 (repeat), 1 (counted), 2 (bot), 3 (filtered).
 */
const recordScript = script(`
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
if ARGV[3] == '1' then
  redis.call('HINCRBY', KEYS[2], ARGV[2] .. 'b', 1)
  return 2
end
local n = redis.call('INCR', KEYS[3])
if n == 1 then redis.call('EXPIRE', KEYS[3], ARGV[1]) end
if n > tonumber(ARGV[4]) then
  redis.call('HINCRBY', KEYS[2], ARGV[2] .. 'f', 1)
  return 3
end
redis.call('HINCRBY', KEYS[2], ARGV[2] .. 'c', 1)
return 1`);

const outcomes: readonly ClickOutcome[] = ["repeat", "counted", "bot", "filtered"];

/** KEYS: counts, taken, index. ARGV: now. Answers the taken fields and values (empty: nothing to flush). */
const takeScript = script(`
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
redis.call('RENAME', KEYS[1], KEYS[2])
redis.call('ZADD', KEYS[3], ARGV[1], KEYS[2])
return redis.call('HGETALL', KEYS[2])`);

/** KEYS: orphan, taken, index. ARGV: now, latest claim time to take over. Answers as takeScript. */
const takeOverScript = script(`
local at = redis.call('ZSCORE', KEYS[3], KEYS[1])
if not at or tonumber(at) > tonumber(ARGV[2]) then return {} end
redis.call('ZREM', KEYS[3], KEYS[1])
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
redis.call('RENAME', KEYS[1], KEYS[2])
redis.call('ZADD', KEYS[3], ARGV[1], KEYS[2])
return redis.call('HGETALL', KEYS[2])`);

/** KEYS: counts, taken, index. Puts a batch whose write failed back into `counts`. */
const restoreScript = script(`
local all = redis.call('HGETALL', KEYS[2])
for i = 1, #all, 2 do redis.call('HINCRBY', KEYS[1], all[i], all[i + 1]) end
redis.call('DEL', KEYS[2])
redis.call('ZREM', KEYS[3], KEYS[2])
return #all / 2`);

interface PendingRecord {
  keys: string[];
  args: Array<string | number>;
  resolve: (outcome: unknown) => void;
  reject: (err: unknown) => void;
}

export class RedisClickStore implements ClickStore {
  readonly kind = "redis";
  private readonly prefix: string;
  private readonly countsKey: string;
  private readonly indexKey: string;
  private readonly instance = randomUUID();
  private taken = 0;
  private hour = -1;
  private day = "";
  /** Clicks waiting for the next pipeline (sendPending). */
  private pending: PendingRecord[] = [];
  /** Batches written to the database whose delete in Redis failed: deleted at the next flush. */
  private unacknowledged: string[] = [];

  constructor(
    private readonly redis: Redis,
    private readonly options: {
      namespace: string;
      /** A batch taken longer ago than this by an instance that did not finish is taken over. */
      recoverAfterMs: number;
      /** Distinct visitors one address may add to a campaign's clicks per hour. */
      allowance: number;
    },
  ) {
    this.prefix = `{${options.namespace}:clicks}`;
    this.countsKey = `${this.prefix}:counts`;
    this.indexKey = `${this.prefix}:flushing`;
  }

  record(campaignId: string, keys: VisitorKeys, bot: boolean, at: number): Promise<ClickOutcome> {
    const hour = hourOf(at);
    if (hour !== this.hour) {
      // The UTC day, worked out once per hour rather than per click.
      this.hour = hour;
      this.day = dayOf(at);
    }
    const keepSeconds = Math.max(1, Math.ceil(((hour + 1) * hourMs - at) / 1000));
    const field = `${campaignId} ${this.day} `;
    return new Promise<unknown>((resolve, reject) => {
      this.pending.push({
        keys: [
          `${this.prefix}:seen:${hour}:${campaignId}:${keys.visitor}`,
          this.countsKey,
          `${this.prefix}:from:${hour}:${campaignId}:${keys.address}`,
        ],
        args: [keepSeconds, field, bot ? 1 : 0, this.options.allowance],
        resolve,
        reject,
      });
      if (this.pending.length === 1) setImmediate(() => void this.sendPending());
    }).then((outcome) => outcomes[Number(outcome)] ?? "repeat");
  }

  /**
   * Sends the clicks recorded since the last turn of the event loop in one pipeline: one write and
   * one read for all the requests parsed together, where a round trip per click made Redis's socket
   * writes the largest cost of a click (decision 033). Each click still waits for its own answer, so
   * a click answered 204 is in Redis; a script missing from Redis's cache (after a restart) is sent
   * again whole, per click.
   */
  private async sendPending(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    const pipeline = this.redis.pipeline();
    for (const r of batch) pipeline.evalsha(recordScript.sha, r.keys.length, ...r.keys, ...r.args);
    let results: Array<[Error | null, unknown]> | null;
    try {
      results = await pipeline.exec();
    } catch (err) {
      for (const r of batch) r.reject(err);
      return;
    }
    batch.forEach((r, i) => {
      const [err, value] = results?.[i] ?? [new Error("click not recorded: no answer from Redis"), null];
      if (!err) r.resolve(value);
      else if (err.message.startsWith("NOSCRIPT"))
        this.run(recordScript, r.keys, r.args).then(r.resolve, r.reject);
      else r.reject(err);
    });
  }

  async flush(write: WriteCounters): Promise<number> {
    await this.acknowledge();
    const now = Date.now();
    const batches: Array<{ key: string; values: string[] }> = [];
    const orphans = await this.redis.zrangebyscore(
      this.indexKey,
      "-inf",
      now - this.options.recoverAfterMs,
      "LIMIT",
      0,
      100,
    );
    for (const orphan of orphans) {
      const key = this.nextKey();
      const values = await this.run(
        takeOverScript,
        [orphan, key, this.indexKey],
        [now, now - this.options.recoverAfterMs],
      );
      if (Array.isArray(values) && values.length > 0) batches.push({ key, values: values.map(String) });
    }
    const key = this.nextKey();
    const values = await this.run(takeScript, [this.countsKey, key, this.indexKey], [now]);
    if (Array.isArray(values) && values.length > 0) batches.push({ key, values: values.map(String) });
    if (batches.length === 0) return 0;

    const rows = sumFields(batches.flatMap((b) => b.values));
    try {
      await write(rows);
    } catch (err) {
      for (const b of batches) {
        // Should this fail too (Redis gone), the batch stays listed and is taken over later.
        await this.run(restoreScript, [this.countsKey, b.key, this.indexKey], []).catch(() => undefined);
      }
      throw err;
    }
    this.unacknowledged.push(...batches.map((b) => b.key));
    await this.acknowledge().catch(() => undefined);
    return rows.reduce((sum, r) => sum + r.clicks + r.botClicks + r.filteredClicks, 0);
  }

  private async acknowledge(): Promise<void> {
    if (this.unacknowledged.length === 0) return;
    const keys = this.unacknowledged;
    await this.redis
      .multi()
      .del(...keys)
      .zrem(this.indexKey, ...keys)
      .exec();
    this.unacknowledged = this.unacknowledged.filter((k) => !keys.includes(k));
  }

  private nextKey(): string {
    this.taken += 1;
    return `${this.prefix}:flushing:${this.instance}:${this.taken}`;
  }

  /** EVALSHA, loading the script on first use (or after a Redis restart emptied its script cache). */
  private async run(s: Script, keys: string[], args: Array<string | number>): Promise<unknown> {
    try {
      return await this.redis.evalsha(s.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith("NOSCRIPT")) throw err;
      return this.redis.eval(s.lua, keys.length, ...keys, ...args);
    }
  }
}

/** Hash fields and values ([field, value, field, value, …]) summed per campaign and day. */
function sumFields(values: string[]): ClickCounter[] {
  const rows = new Map<string, ClickCounter>();
  for (let i = 0; i + 1 < values.length; i += 2) {
    const [campaignId, day, kind] = (values[i] ?? "").split(" ");
    const n = Number(values[i + 1]);
    if (!campaignId || !day || !Number.isSafeInteger(n)) continue;
    const key = `${campaignId} ${day}`;
    const row = rows.get(key) ?? { campaignId, day, clicks: 0, botClicks: 0, filteredClicks: 0 };
    if (kind === "b") row.botClicks += n;
    else if (kind === "f") row.filteredClicks += n;
    else row.clicks += n;
    rows.set(key, row);
  }
  return [...rows.values()];
}
