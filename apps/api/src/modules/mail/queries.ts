import { desc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { jobs } from "../../db/schema/jobs.ts";
import { mailOutbox } from "../../db/schema/mail.ts";

export type OutboxMessage = typeof mailOutbox.$inferSelect;
export type OutboxSummary = Pick<
  OutboxMessage,
  "id" | "to" | "subject" | "template" | "locale" | "text" | "createdAt"
>;

/**
 * The outbox, newest first, optionally one recipient's (addresses compared case-insensitively).
 * No owner in the where: the outbox is the sandbox provider's, read only on the dev mail page.
 */
export async function listOutbox(
  db: DbOrTx,
  params: { limit: number; to?: string },
): Promise<OutboxSummary[]> {
  return db
    .select({
      id: mailOutbox.id,
      to: mailOutbox.to,
      subject: mailOutbox.subject,
      template: mailOutbox.template,
      locale: mailOutbox.locale,
      text: mailOutbox.text,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .where(params.to ? eq(sql`lower(${mailOutbox.to})`, params.to.toLowerCase()) : undefined)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(params.limit);
}

export async function getOutboxMessage(db: DbOrTx, id: string): Promise<OutboxMessage | null> {
  const [row] = await db
    .select({
      id: mailOutbox.id,
      to: mailOutbox.to,
      subject: mailOutbox.subject,
      text: mailOutbox.text,
      html: mailOutbox.html,
      template: mailOutbox.template,
      locale: mailOutbox.locale,
      headers: mailOutbox.headers,
      attachments: mailOutbox.attachments,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.id, id));
  return row ?? null;
}

/** Keeps a sent mail job's who, what and language, without the params (they hold live links). */
export async function dropJobParams(db: DbOrTx, jobId: string): Promise<void> {
  await db
    .update(jobs)
    .set({ payload: sql`${jobs.payload} - 'params'` })
    .where(eq(jobs.id, jobId));
}
