import { type AuditAction, type AuditEntryView, auditActionSchema } from "@salelink/contracts";
import { and, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { afterCursor } from "../../db/cursor.ts";
import { adminAuditLog, users } from "../../db/schema/index.ts";

export interface AuditEntry {
  actorId: string;
  action: AuditAction;
  targetType: "account" | "order" | "payout" | "report" | "link" | "maintenance" | "vat";
  targetId: string;
  reason: string;
  /** Ids and figures only: never an e-mail address or another piece of personal data. */
  details?: Record<string, unknown>;
}

/**
 * Records an admin's action. Call it inside the transaction that makes the change, so the log and
 * the change are written together or not at all.
 */
export async function audit(tx: DbOrTx, entry: AuditEntry): Promise<void> {
  await tx.insert(adminAuditLog).values({ ...entry, details: entry.details ?? {} });
}

/** The audit log, newest first, filtered and paged (the admin console's audit screen and an account's file). */
export async function auditList(
  db: DbOrTx,
  query: {
    cursor?: string | undefined;
    limit: number;
    action?: string | undefined;
    actorId?: string | undefined;
    targetType?: string | undefined;
    targetId?: string | undefined;
  },
): Promise<{ items: AuditEntryView[]; nextCursor: string | null }> {
  const rows = await db
    .select({
      id: adminAuditLog.id,
      actorId: adminAuditLog.actorId,
      actorEmail: users.email,
      action: adminAuditLog.action,
      targetType: adminAuditLog.targetType,
      targetId: adminAuditLog.targetId,
      reason: adminAuditLog.reason,
      details: adminAuditLog.details,
      createdAt: adminAuditLog.createdAt,
    })
    .from(adminAuditLog)
    .innerJoin(users, eq(users.id, adminAuditLog.actorId))
    .where(
      and(
        query.action ? eq(adminAuditLog.action, query.action) : undefined,
        query.actorId ? eq(adminAuditLog.actorId, query.actorId) : undefined,
        query.targetType ? eq(adminAuditLog.targetType, query.targetType) : undefined,
        query.targetId ? eq(adminAuditLog.targetId, query.targetId) : undefined,
        afterCursor(adminAuditLog, query.cursor),
      ),
    )
    .orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    items: page.map((r) => ({
      id: r.id,
      actor: { id: r.actorId, email: r.actorEmail },
      action: auditActionSchema.parse(r.action),
      targetType: r.targetType,
      targetId: r.targetId,
      reason: r.reason,
      details: r.details,
      createdAt: r.createdAt.toISOString(),
    })),
    nextCursor: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null,
  };
}
