import type { AdminReportListQuery } from "@salelink/contracts";
import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../../db/client.ts";
import { files, links, orders, reports, users } from "../../../db/schema/index.ts";

/*
 * The reports queue's reads and writes. The content columns are the public link page's: the
 * sold file's blurred preview and the cover image, both public renditions (never the file itself).
 */

const contentFiles = alias(files, "content_files");
const coverFiles = alias(files, "cover_files");
const creators = alias(users, "creators");
const handlers = alias(users, "handlers");

const reportColumns = {
  id: reports.id,
  status: reports.status,
  reason: reports.reason,
  message: reports.message,
  createdAt: reports.createdAt,
  handledAt: reports.handledAt,
  resolutionNote: reports.resolutionNote,
  handlerId: handlers.id,
  handlerEmail: handlers.email,
  linkId: links.id,
  linkTitle: links.title,
  linkDescription: links.description,
  linkToken: links.token,
  linkStatus: links.status,
  linkDeletedAt: links.deletedAt,
  creatorId: creators.id,
  creatorEmail: creators.email,
  previewKey: contentFiles.previewKey,
  coverKey: coverFiles.coverKey,
  orderId: orders.id,
  orderStatus: orders.status,
  orderTotal: orders.totalMinor,
  orderCurrency: orders.currency,
  orderPaidAt: orders.paidAt,
};

function selectReports(db: DbOrTx) {
  return db
    .select(reportColumns)
    .from(reports)
    .innerJoin(links, eq(links.id, reports.linkId))
    .innerJoin(creators, eq(creators.id, links.ownerId))
    .leftJoin(handlers, eq(handlers.id, reports.handledBy))
    .leftJoin(orders, eq(orders.id, reports.orderId))
    .leftJoin(contentFiles, and(eq(contentFiles.id, links.fileId), eq(contentFiles.ownerId, links.ownerId)))
    .leftJoin(coverFiles, and(eq(coverFiles.id, links.coverFileId), eq(coverFiles.ownerId, links.ownerId)));
}
export type ReportRow = Awaited<ReturnType<ReturnType<typeof selectReports>["execute"]>>[number];

/**
 * One page of reports: the open queue oldest first (first come, first handled), handled ones and
 * "all" newest first. The cursor is the last report's id; ties on the date are broken by id.
 */
export async function listReports(
  db: DbOrTx,
  query: AdminReportListQuery,
  limit: number,
): Promise<ReportRow[]> {
  const oldestFirst = query.status === "open";
  const conditions: (SQL | undefined)[] = [
    query.status === "all" ? undefined : eq(reports.status, query.status),
  ];
  if (query.cursor) {
    // Compared in SQL: a round trip through a JS Date would drop the microseconds PostgreSQL keeps.
    const after = sql`(select ${reports.createdAt}, ${reports.id} from ${reports} where ${reports.id} = ${query.cursor})`;
    conditions.push(
      oldestFirst
        ? sql`(${reports.createdAt}, ${reports.id}) > ${after}`
        : sql`(${reports.createdAt}, ${reports.id}) < ${after}`,
    );
  }
  const order = oldestFirst
    ? [asc(reports.createdAt), asc(reports.id)]
    : [desc(reports.createdAt), desc(reports.id)];
  return selectReports(db)
    .where(and(...conditions))
    .orderBy(...order)
    .limit(limit);
}

export async function reportById(db: DbOrTx, id: string): Promise<ReportRow | null> {
  const [row] = await selectReports(db).where(eq(reports.id, id)).limit(1);
  return row ?? null;
}

/** The report's status and link, its row locked until the transaction ends. */
export async function lockReport(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ id: reports.id, status: reports.status, linkId: reports.linkId })
    .from(reports)
    .where(eq(reports.id, id))
    .for("update");
  return row ?? null;
}

/** The link a report is about, with what the takedown e-mail needs: its owner's address and language. */
export async function reportedLink(db: DbOrTx, linkId: string) {
  const [row] = await db
    .select({
      id: links.id,
      ownerId: links.ownerId,
      title: links.title,
      deletedAt: links.deletedAt,
      ownerEmail: users.email,
      ownerLocale: users.locale,
    })
    .from(links)
    .innerJoin(users, eq(users.id, links.ownerId))
    .where(eq(links.id, linkId));
  return row ?? null;
}

/** Marks open reports handled: one (dismiss), or every open one on a link (takedown). Answers their ids. */
export async function closeReports(
  db: DbOrTx,
  params: {
    where: { id: string } | { linkId: string };
    status: "dismissed" | "actioned";
    handledBy: string;
    note: string;
  },
): Promise<string[]> {
  const target =
    "id" in params.where ? eq(reports.id, params.where.id) : eq(reports.linkId, params.where.linkId);
  const rows = await db
    .update(reports)
    .set({
      status: params.status,
      handledBy: params.handledBy,
      handledAt: new Date(),
      resolutionNote: params.note,
    })
    .where(and(target, eq(reports.status, "open")))
    .returning({ id: reports.id });
  return rows.map((r) => r.id);
}
