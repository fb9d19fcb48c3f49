import type { Db } from '../db/client.ts';
import { selectReferencedStorageKeys } from '../models/files.ts';
import type { FileStorage } from '../storage/file-storage.ts';
import { localDiskOf } from '../storage/open-file-storage.ts';
import { sweepLeftoverUploads } from '../storage/upload-bytes.ts';

/** An object younger than this is never swept: its row may be about to commit. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

export interface SweepSummary {
  /** Stored blobs no row named, deleted. */
  deleted: string[];
  /** Partial writes of local disk and uploads left in the incoming folder by a killed process, removed. */
  leftovers: number;
}

/**
 * Deletes the stored blobs that no file row names and that were written before `olderThan`
 * (decisions 0071, 0082), in the bucket and on local disk alike. An upload puts its blob before its
 * row commits (services/store-files.ts), so a process killed in between, or a failed upload whose
 * clean-up could not reach the storage, leaves a blob nobody names; so does a deleted course whose
 * blobs could not be removed after its rows went (services/delete-courses.ts). Blobs are checked
 * against the rows in pages, and a key is deleted only when no row names it at the moment it is
 * checked, after the grace period. On local disk the same sweep removes what a killed process left
 * half written: a blob's partial write, and uploads waiting in `incomingDir` (http/multipart.ts).
 */
export async function sweepOrphanFiles(
  db: Db,
  storage: FileStorage,
  olderThan: Date = new Date(Date.now() - ORPHAN_GRACE_MS),
  incomingDir?: string,
): Promise<SweepSummary> {
  const deleted: string[] = [];
  let page: string[] = [];
  const flush = async () => {
    const referenced = await selectReferencedStorageKeys(db, page);
    for (const key of page) {
      if (referenced.has(key)) continue;
      await storage.delete(key);
      deleted.push(key);
    }
    page = [];
  };
  for await (const blob of storage.list()) {
    if (blob.lastModified >= olderThan) continue;
    page.push(blob.storageKey);
    if (page.length >= 500) await flush();
  }
  if (page.length > 0) await flush();
  let leftovers = (await localDiskOf(storage)?.sweepPartialWrites(olderThan)) ?? 0;
  if (incomingDir) leftovers += await sweepLeftoverUploads(incomingDir, olderThan);
  return { deleted, leftovers };
}
