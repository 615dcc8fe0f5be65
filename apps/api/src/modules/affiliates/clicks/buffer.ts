import type { FastifyBaseLogger } from "fastify";
import type { Db, DbOrTx } from "../../../db/client.ts";
import type { ClickCounter, ClickStore } from "./store/types.ts";

/** One statement adding counters to their table (campaigns' or partners'), at most 10,000 rows. */
export type AddCounters = (db: DbOrTx, rows: ClickCounter[]) => Promise<void>;

/**
 * Moves the store's counts to the database every `intervalMs`, one flush at a time, and a last time
 * when the app closes. A failed flush keeps its counts in the store: the next one retries them.
 */
export class ClickBuffer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Database writes made (tests check that clicks are batched). */
  writes = 0;

  constructor(
    readonly store: ClickStore,
    private readonly db: Db,
    private readonly options: { intervalMs: number; log: FastifyBaseLogger; add: AddCounters },
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      // A slow database must not pile flushes up: the next tick comes after this one ends.
      if (!this.running) void this.flush().catch(() => undefined);
    }, this.options.intervalMs);
    // The buffer never keeps a process alive on its own; close() flushes.
    this.timer.unref();
  }

  /** One flush now, after the one in progress if any; rejects when the write failed. */
  flush(): Promise<void> {
    const previous = this.running ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        try {
          await this.store.flush(async (rows) => {
            this.writes += 1;
            await writeCounters(this.db, rows, this.options.add);
          });
        } catch (err) {
          this.options.log.error({ err }, "click counts not written; kept for the next flush");
          throw err;
        }
      })
      .finally(() => {
        if (this.running === next) this.running = undefined;
      });
    this.running = next;
    return next;
  }

  /** Stops the timer and writes what is left; called from the app's onClose. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

/** PostgreSQL's limit is 65,535 parameters per statement; 5 per row. */
const rowsPerStatement = 10_000;

/**
 * Adds the counters in one transaction (one statement unless there are more than 10,000 days of
 * campaigns or partners).
 */
async function writeCounters(db: Db, rows: ClickCounter[], add: AddCounters): Promise<void> {
  if (rows.length === 0) return;
  if (rows.length <= rowsPerStatement) {
    await add(db, rows);
    return;
  }
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += rowsPerStatement) {
      await add(tx, rows.slice(i, i + rowsPerStatement));
    }
  });
}
