import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Every e-mail the outbox provider "sent": nothing leaves the machine, and a developer reads the
 * messages (and follows their links) on the dev mail page instead of an inbox.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    /** The template's name, so a test or a developer finds "the reset e-mail" without parsing it. */
    template: text("template").notNull(),
    locale: text("locale", { enum: ["en", "fr", "es"] }).notNull(),
    /** Headers of its own (an update's List-Unsubscribe), as the SMTP adapter would send them. */
    headers: jsonb("headers").$type<Record<string, string>>(),
    /** The files it carried (the receipt's invoice, issue 22): their names and sizes, not their bytes. */
    attachments: jsonb("attachments").$type<{ filename: string; contentType: string; sizeBytes: number }[]>(),
    // The insert's own time, not its transaction's: messages stored in one transaction still sort in order.
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  // The dev page lists newest first, everyone's or one recipient's (matched case-insensitively).
  (t) => [
    index("mail_outbox_created_idx").on(t.createdAt),
    index("mail_outbox_to_idx").on(sql`lower(${t.to})`, t.createdAt),
  ],
);
