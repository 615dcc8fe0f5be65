import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const jobStatuses = ["queued", "done", "failed"] as const;

/**
 * Background work (hold release, webhook retries, mail, payouts). A worker claims due rows with
 * FOR UPDATE SKIP LOCKED and a lease (locked_by, locked_until); it commits the job's database
 * effects in the same transaction that marks the row done, after checking it still holds the
 * lease. A crash leaves the row queued and its lease expires: nothing lost, nothing doubled.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<unknown>().notNull().default(sql`'{}'::jsonb`),
    status: text("status", { enum: jobStatuses }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(8),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    /** Optional key making an enqueue idempotent (one job per key). */
    dedupeKey: text("dedupe_key"),
    lastError: text("last_error"),
    lockedBy: text("locked_by"),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("jobs_due_idx").on(t.status, t.runAt), uniqueIndex("jobs_dedupe_key_idx").on(t.dedupeKey)],
);
