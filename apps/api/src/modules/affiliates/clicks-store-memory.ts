import { type ClickCounter, type ClickStore, dayOf, hourOf, type WriteCounters } from "./clicks-store.ts";

/**
 * The default click store, for one instance: who clicked in the current UTC hour in a set, the
 * counts per campaign and day in a map. A crash loses what was counted since the last flush (at
 * most CLICK_FLUSH_MS of clicks); a clean shutdown flushes first and loses nothing.
 */
export class MemoryClickStore implements ClickStore {
  readonly kind = "memory";
  private hour = -1;
  /** The UTC day of `hour`, worked out once per hour rather than per click. */
  private day = "";
  /** `${campaignId} ${visitor}` of the current hour; the previous hours' are dropped, never needed again. */
  private seen = new Set<string>();
  private counters = new Map<string, ClickCounter>();
  private overflowHour = -1;

  constructor(
    private readonly options: {
      /** Visitors remembered per hour: bounds the memory under a flood of distinct visitors. */
      maxVisitorsPerHour: number;
      onOverflow?: (max: number) => void;
    },
  ) {}

  record(campaignId: string, visitor: string, bot: boolean, at: number): boolean {
    const hour = hourOf(at);
    if (hour !== this.hour) {
      this.hour = hour;
      this.day = dayOf(at);
      this.seen = new Set();
    }
    const key = `${campaignId} ${visitor}`;
    if (this.seen.has(key)) return false;
    if (this.seen.size < this.options.maxVisitorsPerHour) this.seen.add(key);
    else if (this.overflowHour !== hour) {
      // Past the bound, new visitors still count but are not remembered: a repeat visit in this hour
      // may count again. Counting a little too much beats dropping real visitors; Redis has no bound.
      this.overflowHour = hour;
      this.options.onOverflow?.(this.options.maxVisitorsPerHour);
    }
    this.add(campaignId, this.day, bot ? 0 : 1, bot ? 1 : 0);
    return true;
  }

  async flush(write: WriteCounters): Promise<number> {
    if (this.counters.size === 0) return 0;
    // Swapped, not copied: clicks counted while the write is in flight go to the new map, so nothing
    // counted after the snapshot can be forgotten with it.
    const taken = this.counters;
    this.counters = new Map();
    const rows = [...taken.values()];
    try {
      await write(rows);
    } catch (err) {
      // Not written: back into the buffer (summed with what came meanwhile) for the next flush.
      for (const r of rows) this.add(r.campaignId, r.day, r.clicks, r.botClicks);
      throw err;
    }
    return rows.reduce((sum, r) => sum + r.clicks + r.botClicks, 0);
  }

  /** Clicks counted and not yet written (tests, logs). */
  get pending(): number {
    let sum = 0;
    for (const r of this.counters.values()) sum += r.clicks + r.botClicks;
    return sum;
  }

  private add(campaignId: string, day: string, clicks: number, botClicks: number): void {
    const key = `${campaignId} ${day}`;
    const counter = this.counters.get(key);
    if (counter) {
      counter.clicks += clicks;
      counter.botClicks += botClicks;
    } else this.counters.set(key, { campaignId, day, clicks, botClicks });
  }
}
