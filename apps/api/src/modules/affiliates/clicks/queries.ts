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

/** Where a counter's rows go: its table, the column of the counted thing's id, and that thing's table. */
interface CounterTable {
  table: "campaign_click_days" | "partner_click_days";
  idColumn: "campaign_id" | "membership_id";
  parent: "campaigns" | "partner_memberships";
}

/**
 * Adds the counters to their table in one statement (at most 10,000 rows: 5 parameters each, under
 * PostgreSQL's 65,535). Rows of a campaign (or membership) deleted since its clicks were counted are
 * skipped (the join): its counters went with it, and a foreign-key error would block the batch forever.
 */
async function addCounters(db: DbOrTx, rows: ClickCounter[], to: CounterTable): Promise<void> {
  const table = sql.raw(to.table);
  const id = sql.raw(to.idColumn);
  await db.execute(sql`
    insert into ${table} (${id}, day, clicks, bot_clicks, filtered_clicks)
    select v.id, v.day, v.clicks, v.bot_clicks, v.filtered_clicks
    from (values ${sql.join(
      rows.map(
        (r) =>
          sql`(${r.campaignId}::uuid, ${r.day}::date, ${r.clicks}::bigint, ${r.botClicks}::bigint, ${r.filteredClicks}::bigint)`,
      ),
      sql`, `,
    )}) as v(id, day, clicks, bot_clicks, filtered_clicks)
    join ${sql.raw(to.parent)} c on c.id = v.id
    on conflict (${id}, day) do update set
      clicks = ${table}.clicks + excluded.clicks,
      bot_clicks = ${table}.bot_clicks + excluded.bot_clicks,
      filtered_clicks = ${table}.filtered_clicks + excluded.filtered_clicks`);
}

/** Campaigns' `?ref=` clicks. */
export const addClickCounters = (db: DbOrTx, rows: ClickCounter[]) =>
  addCounters(db, rows, { table: "campaign_click_days", idColumn: "campaign_id", parent: "campaigns" });

/** Partners' `?via=` clicks: a row's `campaignId` is the membership's id. */
export const addPartnerClickCounters = (db: DbOrTx, rows: ClickCounter[]) =>
  addCounters(db, rows, {
    table: "partner_click_days",
    idColumn: "membership_id",
    parent: "partner_memberships",
  });

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
