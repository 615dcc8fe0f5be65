import type { AuditAction } from "@salelink/contracts";
import type { DbOrTx } from "../../db/client.ts";
import { adminAuditLog } from "../../db/schema/index.ts";

export interface AuditEntry {
  actorId: string;
  action: AuditAction;
  targetType: "account" | "order" | "payout" | "report" | "link" | "maintenance";
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
