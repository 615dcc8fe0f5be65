import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";

/** One round trip: throws when the database cannot answer. */
export async function pingDatabase(db: DbOrTx): Promise<void> {
  await db.execute(sql`select 1`);
}

/** The newest applied migration's `when` (drizzle stores it as created_at), or 0 with none. */
export async function latestAppliedMigration(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ latest: sql<number | null>`max(created_at)::double precision` })
    .from(sql`drizzle.__drizzle_migrations`);
  return row?.latest ?? 0;
}
