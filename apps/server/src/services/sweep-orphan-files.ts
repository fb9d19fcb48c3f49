import type { Db } from '../db/client.ts';
import { selectReferencedStorageKeys } from '../models/files.ts';
import type { S3Storage } from '../storage/s3-storage.ts';

/** An object younger than this is never swept: its row may be about to commit. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

/**
 * Deletes the bucket's objects that no file row names and that were written before `olderThan`
 * (decision 0071). An upload puts its object before its row commits (services/store-files.ts), so a
 * process killed in between, or a failed upload whose clean-up could not reach the storage, leaves
 * an object nobody names; so does a deleted course whose objects could not be removed after its
 * rows went (services/delete-courses.ts). Objects are checked against the rows in pages, and a key is deleted only when no row names it at the
 * moment it is checked, after the grace period.
 */
export async function sweepOrphanFiles(
  db: Db,
  bucket: S3Storage,
  olderThan: Date = new Date(Date.now() - ORPHAN_GRACE_MS),
): Promise<{ deleted: string[] }> {
  const deleted: string[] = [];
  let page: string[] = [];
  const flush = async () => {
    const referenced = await selectReferencedStorageKeys(db, page);
    for (const key of page) {
      if (referenced.has(key)) continue;
      await bucket.delete(key);
      deleted.push(key);
    }
    page = [];
  };
  for await (const object of bucket.list()) {
    if (object.lastModified >= olderThan) continue;
    page.push(object.storageKey);
    if (page.length >= 500) await flush();
  }
  if (page.length > 0) await flush();
  return { deleted };
}
