import { and, asc, eq, gte, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.ts";
import { campaignClickDays, campaigns } from "../../../db/schema/index.ts";
import type { ClickCounter } from "./store/types.ts";

/*
 * The clicks' SQL: the token lookup behind the (cached) click route, the batched counter upsert of
 * the click buffer (buffer.ts), and the reads for the campaign list and its chart. What is still in
 * the buffer (at most one flush interval) is not visible to the reads yet. The caller checks the
 * campaigns are the user's own.
 */

/** The id of the active campaign with this token; null when unknown or archived. */
export async function activeCampaignIdByToken(db: DbOrTx, params: { token: string }): Promise<string | null> {
  const [row] = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.token, params.token), eq(campaigns.status, "active")))
    .limit(1);
  return row?.id ?? null;
}

/**
 * Adds the counters to campaign_click_days in one statement (at most 10,000 rows: 5 parameters each,
 * under PostgreSQL's 65,535). Rows of a campaign deleted since its clicks were counted are skipped
 * (the join): its counters went with it, and a foreign-key error would block the batch forever.
 */
export async function addClickCounters(db: DbOrTx, rows: ClickCounter[]): Promise<void> {
  await db.execute(sql`
    insert into campaign_click_days (campaign_id, day, clicks, bot_clicks, filtered_clicks)
    select v.campaign_id, v.day, v.clicks, v.bot_clicks, v.filtered_clicks
    from (values ${sql.join(
      rows.map(
        (r) =>
          sql`(${r.campaignId}::uuid, ${r.day}::date, ${r.clicks}::bigint, ${r.botClicks}::bigint, ${r.filteredClicks}::bigint)`,
      ),
      sql`, `,
    )}) as v(campaign_id, day, clicks, bot_clicks, filtered_clicks)
    join campaigns c on c.id = v.campaign_id
    on conflict (campaign_id, day) do update set
      clicks = campaign_click_days.clicks + excluded.clicks,
      bot_clicks = campaign_click_days.bot_clicks + excluded.bot_clicks,
      filtered_clicks = campaign_click_days.filtered_clicks + excluded.filtered_clicks`);
}

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
