import { z } from "zod";
import type { Config } from "../../config.ts";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { type JobRegistry, jobKind } from "../../jobs/index.ts";
import type { ObjectStorage } from "../../providers/storage/index.ts";
import { deleteFile, findFileForUpdate, isFileAttached } from "./queries.ts";

/*
 * Uploads never attached are removed (issue 16). Each upload queues, in the transaction that records
 * it, a job due UPLOAD_UNATTACHED_TTL_HOURS later. The job locks the file's row (an attach in flight,
 * which references the row, waits for it or makes it wait), keeps a file anything points at, and
 * otherwise deletes the row and queues the removal of its objects, in one commit. The objects go in a
 * job of their own, retried with backoff when the storage fails: a row is never left pointing at a
 * missing object, and an object of a deleted row is never forgotten.
 */

export const removeUnattachedJob = jobKind("uploads.remove-unattached", z.object({ fileId: z.uuid() }));
export const removeObjectsJob = jobKind(
  "uploads.remove-objects",
  z.object({ keys: z.array(z.string().min(1)).min(1).max(3) }),
);

/** Queued with the file's row: its removal, unless attached by then. */
export async function queueUnattachedCleanup(tx: DbOrTx, config: Config, fileId: string): Promise<void> {
  await removeUnattachedJob.enqueue(
    tx,
    { fileId },
    {
      runAt: new Date(Date.now() + config.UPLOAD_UNATTACHED_TTL_HOURS * 3_600_000),
      dedupeKey: `unattached:${fileId}`,
    },
  );
}

/** Deletes the row of an upload attached to nothing; answers whether it did. */
export async function removeIfUnattached(tx: Tx, fileId: string): Promise<boolean> {
  const file = await findFileForUpdate(tx, fileId);
  if (!file || (await isFileAttached(tx, fileId))) return false;
  await deleteFile(tx, fileId);
  const keys = [file.storageKey, file.previewKey, file.coverKey].filter((k): k is string => Boolean(k));
  await removeObjectsJob.enqueue(tx, { keys }, { dedupeKey: `remove-objects:${fileId}` });
  return true;
}

export function registerUploadJobs(registry: JobRegistry, { storage }: { storage: ObjectStorage }): void {
  registry.register(removeUnattachedJob, async (tx, { fileId }) => {
    await removeIfUnattached(tx, fileId);
  });
  // Deleting an object already gone is not an error: a retry after a partial success finishes.
  registry.register(removeObjectsJob, async (_tx, { keys }) => {
    for (const key of keys) await storage.delete(key);
  });
}
