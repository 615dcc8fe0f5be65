import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/**
 * What admins did, to whom, when and why. Append-only: triggers refuse UPDATE and DELETE (migration
 * 0010), so no route, and no bug in one, can rewrite it. Details hold ids and figures, never
 * personal data such as e-mail addresses (an erased account must stay erased).
 */
export const adminAuditLog = pgTable(
  "admin_audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    actorId: uuid("actor_id")
      .notNull()
      .references(() => users.id),
    /** e.g. "account.suspend", "order.refund", "payout.paid", "report.takedown", "maintenance.on" */
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    reason: text("reason").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("admin_audit_created_idx").on(t.createdAt),
    index("admin_audit_target_idx").on(t.targetType, t.targetId),
    index("admin_audit_actor_idx").on(t.actorId, t.createdAt),
  ],
);
