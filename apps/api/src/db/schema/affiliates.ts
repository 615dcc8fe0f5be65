import { bigint, date, index, pgTable, primaryKey, timestamp, uuid } from "drizzle-orm/pg-core";
import { campaigns } from "./accounts.ts";
import { users } from "./users.ts";

/**
 * Counted clicks per campaign and day (UTC), written in batches from the click buffer: never a
 * database write per click. Bots and link-preview fetchers are counted apart.
 */
export const campaignClickDays = pgTable(
  "campaign_click_days",
  {
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    day: date("day").notNull(),
    clicks: bigint("clicks", { mode: "number" }).notNull().default(0),
    botClicks: bigint("bot_clicks", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.day] })],
);

/**
 * A claim of commissions: everything claimable at that moment, moved into the wallet once. The
 * orders it covers point to it (orders.commission_claim_id), so each commission is claimed once.
 */
export const commissionClaims = pgTable(
  "commission_claims",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("commission_claims_user_idx").on(t.userId, t.createdAt)],
);
