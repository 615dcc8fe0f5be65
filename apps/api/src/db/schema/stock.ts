import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, timestamp, uuid } from "drizzle-orm/pg-core";
import { links } from "./catalogue.ts";
import { orders } from "./orders.ts";

/**
 * A limited link's stock, one row per unit (decision 032). A checkout claims one free unit with
 * `FOR UPDATE SKIP LOCKED`, so concurrent buyers of one link never wait on a shared row or count
 * reservations; a payment turns its order's own unit to sold. A unit is free when it is not sold and
 * `held_until` has passed: `-infinity` for a unit nobody holds, the reservation's end otherwise. A
 * trigger on `orders` (migration 0016) frees the unit of an order that fails or is refunded, whatever
 * code path changes its status. Unlimited links have no rows.
 */
export const linkStockUnits = pgTable(
  "link_stock_units",
  {
    linkId: uuid("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    unitNo: integer("unit_no").notNull(),
    /** The order holding or having bought the unit; kept after a reservation ends until reclaimed. */
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    heldUntil: timestamp("held_until", { withTimezone: true }).notNull().default(sql`'-infinity'`),
    sold: boolean("sold").notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.linkId, t.unitNo] }),
    // The free units first (oldest end of reservation first), the link's state from its first entry.
    index("link_stock_units_unsold_idx").on(t.linkId, t.heldUntil).where(sql`not ${t.sold}`),
    index("link_stock_units_order_idx").on(t.orderId),
  ],
);
