import type { VisitorKeys } from "../visitor.ts";
import {
  type ClickCounter,
  type ClickOutcome,
  type ClickStore,
  dayOf,
  hourOf,
  type WriteCounters,
} from "./types.ts";

/**
 * The default click store, for one instance: who clicked in the current UTC hour in a set, how many
 * visitors each address brought to each campaign in a map, the counts per campaign and day in
 * another. A crash loses what was counted since the last flush (at most CLICK_FLUSH_MS of clicks);
 * a clean shutdown flushes first and loses nothing.
 */
export class MemoryClickStore implements ClickStore {
  readonly kind = "memory";
  private hour = -1;
  /** The UTC day of `hour`, worked out once per hour rather than per click. */
  private day = "";
  /** `${campaignId} ${visitor}` of the current hour; the previous hours' are dropped, never needed again. */
  private seen = new Set<string>();
  /** `${campaignId} ${address}` → visitors counted from that address this hour. */
  private perAddress = new Map<string, number>();
  private counters = new Map<string, ClickCounter>();
  private overflowHour = -1;

  constructor(
    private readonly options: {
      /** Visitors remembered per hour: bounds the memory under a flood of distinct visitors. */
      maxVisitorsPerHour: number;
      /** Distinct visitors one address may add to a campaign's clicks per hour. */
      allowance: number;
      onOverflow?: (max: number) => void;
    },
  ) {}

  record(campaignId: string, keys: VisitorKeys, bot: boolean, at: number): ClickOutcome {
    const hour = hourOf(at);
    if (hour !== this.hour) {
      this.hour = hour;
      this.day = dayOf(at);
      this.seen = new Set();
      this.perAddress = new Map();
    }
    const key = `${campaignId} ${keys.visitor}`;
    if (this.seen.has(key)) return "repeat";
    const full = this.seen.size >= this.options.maxVisitorsPerHour;
    if (!full) this.seen.add(key);
    else if (this.overflowHour !== hour) {
      // Past the bound, new visitors still count but are not remembered: a repeat visit in this hour
      // may count again. Counting a little too much beats dropping real visitors; Redis has no bound.
      this.overflowHour = hour;
      this.options.onOverflow?.(this.options.maxVisitorsPerHour);
    }
    if (bot) {
      this.add(campaignId, this.day, { botClicks: 1 });
      return "bot";
    }
    const addressKey = `${campaignId} ${keys.address}`;
    const fromAddress = this.perAddress.get(addressKey) ?? 0;
    if (fromAddress >= this.options.allowance) {
      this.add(campaignId, this.day, { filteredClicks: 1 });
      return "filtered";
    }
    // perAddress never holds more entries than `seen`: each entry needs a remembered visitor.
    if (!full) this.perAddress.set(addressKey, fromAddress + 1);
    this.add(campaignId, this.day, { clicks: 1 });
    return "counted";
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
      for (const r of rows) this.add(r.campaignId, r.day, r);
      throw err;
    }
    return rows.reduce((sum, r) => sum + r.clicks + r.botClicks + r.filteredClicks, 0);
  }

  /** Visits counted (clicks, bots, filtered) and not yet written (tests, logs). */
  get pending(): number {
    let sum = 0;
    for (const r of this.counters.values()) sum += r.clicks + r.botClicks + r.filteredClicks;
    return sum;
  }

  private add(
    campaignId: string,
    day: string,
    n: Partial<Pick<ClickCounter, "clicks" | "botClicks" | "filteredClicks">>,
  ): void {
    const key = `${campaignId} ${day}`;
    const counter = this.counters.get(key);
    if (counter) {
      counter.clicks += n.clicks ?? 0;
      counter.botClicks += n.botClicks ?? 0;
      counter.filteredClicks += n.filteredClicks ?? 0;
    } else
      this.counters.set(key, {
        campaignId,
        day,
        clicks: n.clicks ?? 0,
        botClicks: n.botClicks ?? 0,
        filteredClicks: n.filteredClicks ?? 0,
      });
  }
}
