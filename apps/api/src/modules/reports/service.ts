import { createHash } from "node:crypto";
import type { ReportBody } from "@salelink/contracts";
import type { Db } from "../../db/client.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { hashToken } from "../../lib/tokens.ts";
import {
  insertReport,
  lockReporter,
  reporterCounts,
  reportTargetOfLink,
  reportTargetOfOrder,
} from "./queries.ts";

/** A reporter's open reports on one link (the day's cap is REPORTS_PER_DAY_MAX in config.ts). */
export const MAX_OPEN_REPORTS_PER_LINK = 3;

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
  const target =
    input.token.length === 43
      ? await reportTargetOfOrder(db, hashToken(input.token))
      : await reportTargetOfLink(db, input.token);
  if (!target) throw notFound("Order");

  await db.transaction(async (tx) => {
    // One reporter at a time: the counts below cannot both pass for two concurrent reports.
    await lockReporter(tx, input.reporterKey);
    const counts = await reporterCounts(tx, input.reporterKey, target.linkId);
    // Two refusals a reporter must tell apart: this link again (wait for the team), or the day's cap
    // (any link, until tomorrow).
    if ((counts?.onLink ?? 0) >= MAX_OPEN_REPORTS_PER_LINK) {
      throw new AppError("RateLimitException", "You have already reported this. Our team will look at it.");
    }
    if ((counts?.today ?? 0) >= limits.perDay) {
      throw new AppError(
        "ReportLimitException",
        "You have sent {limit} reports today, the most we accept in a day. Please try again tomorrow.",
        { params: { limit: limits.perDay } },
      );
    }
    await insertReport(tx, {
      linkId: target.linkId,
      orderId: target.orderId,
      reason: input.reason,
      message: input.message,
      reporterKey: input.reporterKey,
    });
  });
}
