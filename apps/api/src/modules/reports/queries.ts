import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { links, orders, reports } from "../../db/schema/index.ts";

/*
 * Filing a report (the admin side, reviewing them, is admin/reports). A report names a link, and the
 * order too when it came from an order page.
 */

export interface ReportTarget {
  linkId: string;
  orderId: string | null;
}

/** The order behind an order page's token (by its hash). */
export async function reportTargetOfOrder(db: DbOrTx, accessTokenHash: string): Promise<ReportTarget | null> {
  const [target] = await db
    .select({ linkId: orders.linkId, orderId: orders.id })
    .from(orders)
    .where(eq(orders.accessTokenHash, accessTokenHash));
  return target ?? null;
}

/** The live link behind a link page's token. */
export async function reportTargetOfLink(db: DbOrTx, token: string): Promise<ReportTarget | null> {
  const [target] = await db
    .select({ linkId: links.id, orderId: sql<string | null>`null` })
    .from(links)
    .where(and(eq(links.token, token), isNull(links.deletedAt)));
  return target ?? null;
}

/** Serialises one reporter's reports until the transaction ends. */
export async function lockReporter(tx: Tx, reporterKey: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${reporterKey}))`);
}

/** A reporter's open reports on this link, and their reports of the last day (any link). */
export async function reporterCounts(
  db: DbOrTx,
  reporterKey: string,
  linkId: string,
): Promise<{ onLink: number; today: number } | null> {
  const [counts] = await db
    .select({
      onLink: sql<number>`count(*) filter (where ${reports.linkId} = ${linkId} and ${reports.status} = 'open')::int`,
      today: sql<number>`count(*) filter (where ${reports.createdAt} > now() - interval '1 day')::int`,
    })
    .from(reports)
    .where(and(eq(reports.reporterKey, reporterKey), gt(reports.createdAt, sql`now() - interval '30 days'`)));
  return counts ?? null;
}

export async function insertReport(
  db: DbOrTx,
  values: Pick<typeof reports.$inferInsert, "linkId" | "orderId" | "reason" | "message" | "reporterKey">,
): Promise<void> {
  await db.insert(reports).values(values);
}
