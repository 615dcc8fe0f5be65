import type { VisitorKeys } from "../visitor.ts";

/*
 * The click buffer: clicks are deduplicated and counted in memory (one instance) or in Redis (all
 * instances), and moved to campaign_click_days in one batched upsert per flush, never one write per
 * click. Dedup window: the UTC clock hour (10:00-10:59 is one window), the same in both stores, so
 * a visitor counts at most once per campaign per hour of the day, and one address brings at most
 * `allowance` distinct visitors a campaign's hour: more (one machine rotating user agents or cookies)
 * are counted apart as filtered, so they stay visible without inflating the clicks.
 */

/** What one flush moves to the database for one campaign and UTC day. */
export interface ClickCounter {
  campaignId: string;
  /** "YYYY-MM-DD", the UTC day of the clicks (not of the flush). */
  day: string;
  clicks: number;
  botClicks: number;
  filteredClicks: number;
}

/** What became of a visit: a click, a bot's visit, a visit past its address's allowance, or a repeat. */
export type ClickOutcome = "counted" | "bot" | "filtered" | "repeat";

export type WriteCounters = (rows: ClickCounter[]) => Promise<void>;

export interface ClickStore {
  readonly kind: "memory" | "redis";
  /**
   * Counts a click unless `keys.visitor` already visited `campaignId` in the UTC hour of `at`. A new
   * visitor from an address that already brought `allowance` visitors this hour is filtered (counted
   * apart). Bots are deduplicated the same way and counted apart, outside the allowance.
   */
  record(
    campaignId: string,
    keys: VisitorKeys,
    bot: boolean,
    at: number,
  ): ClickOutcome | Promise<ClickOutcome>;
  /**
   * Takes what was counted since the last flush and hands it to `write` (once, all rows together);
   * forgets it only once `write` succeeded, and keeps it for the next flush when it failed. Answers
   * the number of visits (clicks, bots and filtered ones) written.
   */
  flush(write: WriteCounters): Promise<number>;
}

export const hourMs = 3_600_000;

/** The dedup window a time falls in: hours since the epoch (UTC). */
export const hourOf = (at: number) => Math.floor(at / hourMs);

/** "YYYY-MM-DD" in UTC. */
export const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);
