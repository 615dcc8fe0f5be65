import { and, asc, gte, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.ts";
import { campaignClickDays } from "../../../db/schema/index.ts";

/*
 * Reads of the counted clicks, for the campaign list and its chart. The counters are written in
 * batches by the click buffer (clicks-buffer.ts): what is still in the buffer (at most one flush
 * interval) is not visible here yet. The caller checks the campaigns are the user's own.
 */

export interface ClickCount {
  clicks: number;
  botClicks: number;
  filteredClicks: number;
}

export interface ClickDay extends ClickCount {
  /** The UTC day, "YYYY-MM-DD". */
  date: string;
}

const sumClicks = sql<number>`coalesce(sum(${campaignClickDays.clicks}), 0)::bigint`.mapWith(Number);
const sumBots = sql<number>`coalesce(sum(${campaignClickDays.botClicks}), 0)::bigint`.mapWith(Number);
const sumFiltered = sql<number>`coalesce(sum(${campaignClickDays.filteredClicks}), 0)::bigint`.mapWith(
  Number,
);

/** Total clicks per campaign; every id asked for is in the map (zero when never clicked). */
export async function clickCounts(
  db: DbOrTx,
  campaignIds: readonly string[],
): Promise<Map<string, ClickCount>> {
  const counts = new Map<string, ClickCount>(
    campaignIds.map((id) => [id, { clicks: 0, botClicks: 0, filteredClicks: 0 }]),
  );
  if (campaignIds.length === 0) return counts;
  const rows = await db
    .select({
      campaignId: campaignClickDays.campaignId,
      clicks: sumClicks,
      botClicks: sumBots,
      filteredClicks: sumFiltered,
    })
    .from(campaignClickDays)
    .where(inArray(campaignClickDays.campaignId, [...campaignIds]))
    .groupBy(campaignClickDays.campaignId);
  for (const { campaignId, ...count } of rows) counts.set(campaignId, count);
  return counts;
}

/**
 * Clicks per UTC day from `fromDay` ("YYYY-MM-DD", inclusive), summed over the given campaigns,
 * oldest first. Only days with at least one click are returned: the caller fills the gaps.
 */
export async function clickDays(
  db: DbOrTx,
  campaignIds: readonly string[],
  fromDay: string,
): Promise<ClickDay[]> {
  if (campaignIds.length === 0) return [];
  return db
    .select({
      date: campaignClickDays.day,
      clicks: sumClicks,
      botClicks: sumBots,
      filteredClicks: sumFiltered,
    })
    .from(campaignClickDays)
    .where(and(inArray(campaignClickDays.campaignId, [...campaignIds]), gte(campaignClickDays.day, fromDay)))
    .groupBy(campaignClickDays.day)
    .orderBy(asc(campaignClickDays.day));
}
