import { createHash } from "node:crypto";
import { fileKindSchema, type OrderView, orderTokenSchema, type ReportBody } from "@salelink/contracts";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { creatorProfiles, files, links, orders, reports } from "../../db/schema/index.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { hashToken } from "../../lib/tokens.ts";
import type { ObjectStorage } from "../../providers/storage/index.ts";

/** How long the signed URLs of an order's files work: enough to start a download, not to share. */
export const FILE_URL_SECONDS = 15 * 60;
/** A reporter's open reports on one link (the day's cap is REPORTS_PER_DAY_MAX in config.ts). */
export const MAX_OPEN_REPORTS_PER_LINK = 3;

/** The buyer's order, found by the secret token of the receipt, with the unlocked files. */
export async function orderByToken(
  deps: { db: Db; storage: ObjectStorage },
  token: string,
): Promise<OrderView> {
  if (!orderTokenSchema.safeParse(token).success) throw notFound("Order");
  const [row] = await deps.db
    .select({
      status: orders.status,
      totalMinor: orders.totalMinor,
      currency: orders.currency,
      paidAt: orders.paidAt,
      title: links.title,
      description: links.description,
      creatorId: creatorProfiles.id,
      creatorName: creatorProfiles.displayName,
      creatorHandle: creatorProfiles.handle,
      storageKey: files.storageKey,
      kind: files.kind,
      contentType: files.contentType,
      sizeBytes: files.sizeBytes,
      originalName: files.originalName,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .leftJoin(creatorProfiles, eq(creatorProfiles.id, links.profileId))
    .leftJoin(files, and(eq(files.id, links.fileId), eq(files.ownerId, links.ownerId)))
    .where(eq(orders.accessTokenHash, hashToken(token)));
  // Only paid orders have a token; a refunded one keeps its page but not its content.
  if (!row) throw notFound("Order");
  const expiresAt = new Date(Date.now() + FILE_URL_SECONDS * 1000);
  const filesOut: OrderView["files"] = [];
  if (
    row.status === "paid" &&
    row.storageKey &&
    row.originalName &&
    row.contentType &&
    row.sizeBytes !== null
  ) {
    const options = { expiresInSeconds: FILE_URL_SECONDS };
    filesOut.push({
      name: row.originalName,
      kind: fileKindSchema.catch("other").parse(row.kind),
      contentType: row.contentType,
      sizeBytes: row.sizeBytes,
      viewUrl: await deps.storage.signedUrl(row.storageKey, { ...options, purpose: "original-view" }),
      downloadUrl: await deps.storage.signedUrl(row.storageKey, {
        ...options,
        purpose: "original-download",
        downloadName: row.originalName,
      }),
      expiresAt: expiresAt.toISOString(),
    });
  }
  return {
    status: row.status,
    title: row.title,
    description: row.description,
    creator:
      row.creatorId && row.creatorName && row.creatorHandle
        ? { id: row.creatorId, displayName: row.creatorName, handle: row.creatorHandle }
        : null,
    total: row.totalMinor,
    currency: row.currency,
    paidAt: row.paidAt ? row.paidAt.toISOString() : null,
    files: filesOut,
  };
}

/** Whose report it is, without keeping the address: a hash of address and browser, salted. */
export function reporterKey(salt: string, ip: string, userAgent: string | undefined): string {
  return createHash("sha256")
    .update(`${salt}|${ip}|${userAgent ?? ""}`)
    .digest("hex");
}

/**
 * A report from anyone holding an order token (the order page) or a link token (the link page),
 * queued for admins. A reporter cannot flood it: a few open reports per link, a few a day.
 */
export async function fileReport(
  db: Db,
  input: ReportBody & { reporterKey: string },
  limits: { perDay: number },
): Promise<void> {
  const [target] =
    input.token.length === 43
      ? await db
          .select({ linkId: orders.linkId, orderId: orders.id })
          .from(orders)
          .where(eq(orders.accessTokenHash, hashToken(input.token)))
      : await db
          .select({ linkId: links.id, orderId: sql<string | null>`null` })
          .from(links)
          .where(and(eq(links.token, input.token), isNull(links.deletedAt)));
  if (!target) throw notFound("Order");

  await db.transaction(async (tx) => {
    // One reporter at a time: the counts below cannot both pass for two concurrent reports.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${input.reporterKey}))`);
    const [counts] = await tx
      .select({
        onLink: sql<number>`count(*) filter (where ${reports.linkId} = ${target.linkId} and ${reports.status} = 'open')::int`,
        today: sql<number>`count(*) filter (where ${reports.createdAt} > now() - interval '1 day')::int`,
      })
      .from(reports)
      .where(
        and(
          eq(reports.reporterKey, input.reporterKey),
          gt(reports.createdAt, sql`now() - interval '30 days'`),
        ),
      );
    // Two refusals a reporter must tell apart: this link again (wait for the team), or the day's cap
    // (any link, until tomorrow).
    if ((counts?.onLink ?? 0) >= MAX_OPEN_REPORTS_PER_LINK) {
      throw new AppError("RateLimitException", "You have already reported this. Our team will look at it.");
    }
    if ((counts?.today ?? 0) >= limits.perDay) {
      throw new AppError(
        "ReportLimitException",
        "You have sent {limit} reports today, the most we accept in a day. Please try again tomorrow.",
        undefined,
        undefined,
        undefined,
        { limit: limits.perDay },
      );
    }
    await tx.insert(reports).values({
      linkId: target.linkId,
      orderId: target.orderId,
      reason: input.reason,
      message: input.message,
      reporterKey: input.reporterKey,
    });
  });
}
