import type { MaintenanceStatus } from "@salelink/contracts";
import { boolean, integer, jsonb, pgTable, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/** A single row (id = 1) holding the platform's maintenance switch. */
export const maintenance = pgTable("maintenance", {
  id: integer("id").primaryKey().default(1),
  enabled: boolean("enabled").notNull().default(false),
  message: jsonb("message").$type<NonNullable<MaintenanceStatus["message"]>>(),
  updatedAt: timestamp("updated_at", { withTimezone: true }),
  updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
});
