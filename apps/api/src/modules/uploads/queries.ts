import { eq, or, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { creatorProfiles, files, links, users } from "../../db/schema/index.ts";

export type FileRow = typeof files.$inferSelect;

export async function insertFile(db: DbOrTx, values: typeof files.$inferInsert): Promise<FileRow> {
  const [inserted] = await db.insert(files).values(values).returning();
  if (!inserted) throw new Error("file row not inserted");
  return inserted;
}

/** The bytes of every file the account stores. */
export async function sumFileBytes(db: DbOrTx, ownerId: string): Promise<number> {
  const [row] = await db
    .select({ used: sql<number>`coalesce(sum(${files.sizeBytes}), 0)::bigint`.mapWith(Number) })
    .from(files)
    .where(eq(files.ownerId, ownerId));
  return row?.used ?? 0;
}

/** Locks the account's row until the transaction ends, so its uploads are counted one at a time. */
export async function lockOwner(tx: DbOrTx, ownerId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, ownerId)).for("no key update");
}

/** The file's row, locked: an attach in flight (which references it) waits for it or makes it wait. */
export async function findFileForUpdate(tx: Tx, fileId: string): Promise<FileRow | null> {
  const [file] = await tx.select().from(files).where(eq(files.id, fileId)).for("update");
  return file ?? null;
}

/** Whether a link (as its content or cover) or a profile (as its avatar) uses the file. */
export async function isFileAttached(tx: DbOrTx, fileId: string): Promise<boolean> {
  const [link] = await tx
    .select({ id: links.id })
    .from(links)
    .where(or(eq(links.fileId, fileId), eq(links.coverFileId, fileId)))
    .limit(1);
  if (link) return true;
  const [profile] = await tx
    .select({ id: creatorProfiles.id })
    .from(creatorProfiles)
    .where(eq(creatorProfiles.avatarFileId, fileId))
    .limit(1);
  return Boolean(profile);
}

export async function deleteFile(tx: DbOrTx, fileId: string): Promise<void> {
  await tx.delete(files).where(eq(files.id, fileId));
}
