import { sql } from "drizzle-orm";
import type { adminAuditLog, identitySessions, users } from "./schema/index.ts";

/**
 * Rows strictly after the cursor's row in (created_at desc, id desc) order, for the admin console's
 * lists; an unknown cursor ends the list.
 */
export function afterCursor(
  table: typeof users | typeof identitySessions | typeof adminAuditLog,
  cursor?: string,
) {
  if (!cursor) return undefined;
  return sql`(${table.createdAt}, ${table.id}) < (select c.created_at, c.id from ${table} c where c.id = ${cursor})`;
}
