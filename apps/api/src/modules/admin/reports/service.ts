import type { AdminReport, AdminReportList, AdminReportListQuery } from "@salelink/contracts";
import type { Db, Tx } from "../../../db/client.ts";
import { AppError, notFound } from "../../../lib/errors.ts";
import { audit } from "../../audit/queries.ts";
import { type CatalogueDeps, mediaPath, removeLink } from "../../catalogue/service.ts";
import { queueMail } from "../../mail/jobs.ts";
import * as q from "./queries.ts";

/* The reports queue's rules: list, dismiss, take the link down, each handling audited. */

export interface AdminReportDeps extends CatalogueDeps {
  pokeJobs: () => void;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

function toReport(row: q.ReportRow): AdminReport {
  return {
    id: row.id,
    status: row.status,
    reason: row.reason,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
    link: {
      id: row.linkId,
      title: row.linkTitle,
      token: row.linkToken,
      status: row.linkStatus,
      deleted: row.linkDeletedAt !== null,
      creator: { id: row.creatorId, email: row.creatorEmail },
    },
    content: {
      title: row.linkTitle,
      description: row.linkDescription,
      previewUrl: mediaPath(row.previewKey),
      coverUrl: mediaPath(row.coverKey),
    },
    order:
      row.orderId && row.orderStatus && row.orderTotal !== null && row.orderCurrency
        ? {
            id: row.orderId,
            status: row.orderStatus,
            total: row.orderTotal,
            currency: row.orderCurrency,
            paidAt: iso(row.orderPaidAt),
          }
        : null,
    handled: row.handledAt
      ? {
          by: row.handlerId && row.handlerEmail ? { id: row.handlerId, email: row.handlerEmail } : null,
          at: row.handledAt.toISOString(),
          note: row.resolutionNote,
        }
      : null,
  };
}

export async function listReports(db: Db, query: AdminReportListQuery): Promise<AdminReportList> {
  // One extra row tells whether another page follows.
  const rows = await q.listReports(db, query, query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return { items: page.map(toReport), nextCursor: rows.length > query.limit && last ? last.id : null };
}

export async function reportView(db: Db, id: string): Promise<AdminReport> {
  const row = await q.reportById(db, id);
  if (!row) throw notFound("Report");
  return toReport(row);
}

/** Locks the report and checks it is still open: of two admins handling it, the second gets 409. */
async function lockOpen(tx: Tx, id: string) {
  const report = await q.lockReport(tx, id);
  if (!report) throw notFound("Report");
  if (report.status !== "open") {
    throw new AppError("ConflictException", "This report was already handled.");
  }
  return report;
}

export async function dismissReport(db: Db, adminId: string, id: string, reason: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockOpen(tx, id);
    await q.closeReports(tx, { where: { id }, status: "dismissed", handledBy: adminId, note: reason });
    await audit(tx, {
      actorId: adminId,
      action: "report.dismiss",
      targetType: "report",
      targetId: id,
      reason,
    });
  });
}

/**
 * Takes the reported link down: "removed" (no more sales, its page 404s, buyers who paid keep their
 * orders), this report and the link's other open ones actioned with the note, the creator e-mailed
 * in their language, the public pages refreshed. One transaction: all of it, or none.
 */
export async function takeDown(
  deps: AdminReportDeps,
  adminId: string,
  id: string,
  reason: string,
): Promise<void> {
  // The link of a report never changes: read without a lock, then lock the link before the report,
  // the order every takedown follows (two takedowns on one link cannot deadlock).
  const report = await q.reportById(deps.db, id);
  if (!report) throw notFound("Report");
  const link = await q.reportedLink(deps.db, report.linkId);
  if (!link || link.deletedAt) {
    throw new AppError("ConflictException", "This link was deleted by its creator: dismiss the report.");
  }
  await removeLink(deps, link.ownerId, link.id, async (tx) => {
    await lockOpen(tx, id);
    const closed = await q.closeReports(tx, {
      where: { linkId: link.id },
      status: "actioned",
      handledBy: adminId,
      note: reason,
    });
    await audit(tx, {
      actorId: adminId,
      action: "report.takedown",
      targetType: "report",
      targetId: id,
      reason,
      details: { linkId: link.id, reportIds: closed },
    });
    await queueMail(
      tx,
      {
        to: link.ownerEmail,
        locale: link.ownerLocale,
        template: "link-removed",
        params: {
          url: new URL("/account/links", deps.config.WEB_ORIGIN).toString(),
          title: link.title,
          reason,
        },
      },
      { dedupeKey: `link-removed:${link.id}` },
    );
  });
  deps.pokeJobs();
}
