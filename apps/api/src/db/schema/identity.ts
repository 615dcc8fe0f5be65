import { identityProviderKinds, identitySessionStatuses } from "@salelink/contracts";
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/**
 * Identity verification sessions at the provider (Veriff or the sandbox). The names are those sent
 * to the provider; they are erased with the account. The provider's decision is the session's status.
 */
export const identitySessions = pgTable(
  "identity_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: identityProviderKinds }).notNull(),
    providerSessionId: text("provider_session_id").notNull(),
    url: text("url").notNull(),
    status: text("status", { enum: identitySessionStatuses }).notNull().default("created"),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    vendorData: text("vendor_data"),
    reason: text("reason"),
    reasonCode: text("reason_code"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("identity_sessions_provider_session_idx").on(t.provider, t.providerSessionId),
    index("identity_sessions_user_idx").on(t.userId, t.createdAt),
  ],
);

/** Identity providers' webhook deliveries, each applied once (keyed per provider). */
export const identityEvents = pgTable(
  "identity_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    provider: text("provider").notNull(),
    eventKey: text("event_key").notNull(),
    sessionId: uuid("session_id").references(() => identitySessions.id, { onDelete: "cascade" }),
    payload: jsonb("payload").$type<unknown>().notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("identity_events_provider_key_idx").on(t.provider, t.eventKey)],
);
