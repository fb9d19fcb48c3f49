import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Db } from '../db/client.ts';
import { markFileInBucket, selectLocalFiles } from '../models/files.ts';
import { isMissingBlob, type LocalDiskStorage } from '../storage/file-storage.ts';
import type { S3Storage } from '../storage/s3-storage.ts';

export interface MoveSummary {
  /** Rows copied to the bucket, verified and switched to it in this run. */
  moved: number;
  /** Rows whose blob is not on this disk (or not what the row says): left as they are, named in the log. */
  problems: { fileId: string; reason: string }[];
}

const PAGE = 200;

/**
 * `npm run files:to-s3` (decision 0071): copies every file still on local disk to the bucket, under
 * the same key, while the app runs. For each row: read the blob, check it against the row (size and
 * sha256), put it, read the object back and check it again, then switch the row to 's3' (only if it
 * still says 'local'). Until the switch, the app reads the file from the bucket or, not there yet,
 * from the disk (storage/open-file-storage.ts), so no file is ever missing; a second run finds no
 * 'local' row and copies nothing. The local blobs are left in place (remove DATA_DIR/files once
 * the run reports no problem).
 */
export async function moveFilesToS3(
  db: Db,
  local: LocalDiskStorage,
  bucket: S3Storage,
  log: (message: string) => void = () => {},
): Promise<MoveSummary> {
  const summary: MoveSummary = { moved: 0, problems: [] };
  let afterId: string | undefined;
  for (;;) {
    const page = await selectLocalFiles(db, afterId, PAGE);
    if (page.length === 0) break;
    afterId = page.at(-1)!.id;
    for (const row of page) {
      let content: Buffer;
      try {
        content = await local.get(row.storageKey);
      } catch (error) {
        if (!isMissingBlob(error)) throw error;
        summary.problems.push({ fileId: row.id, reason: `its blob ${row.storageKey} is not on this disk` });
        continue;
      }
      const expected = { size: row.sizeBytes, sha256: row.sha256 };
      const found = fingerprint(content);
      if (found.size !== expected.size || found.sha256 !== expected.sha256) {
        summary.problems.push({
          fileId: row.id,
          reason: `its blob on disk (${found.size} bytes, sha256 ${found.sha256}) is not the file the row names (${expected.size} bytes, sha256 ${expected.sha256})`,
        });
        continue;
      }
      // Already in memory: it was checked against its row before anything is written.
      await bucket.putAt(row.storageKey, Readable.from([content]), content.length);
      const copied = fingerprint(await bucket.get(row.storageKey));
      if (copied.size !== expected.size || copied.sha256 !== expected.sha256) {
        summary.problems.push({ fileId: row.id, reason: 'its copy in the bucket reads back different' });
        continue;
      }
      if (await markFileInBucket(db, row.id)) summary.moved += 1;
    }
    log(`${summary.moved} files moved so far`);
  }
  for (const problem of summary.problems) log(`file ${problem.fileId} was not moved: ${problem.reason}`);
  return summary;
}

function fingerprint(content: Buffer): { size: number; sha256: string } {
  return { size: content.length, sha256: createHash('sha256').update(content).digest('hex') };
}
