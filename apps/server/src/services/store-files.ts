import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { PDF_MIME_TYPE } from '@gradewise/shared/contracts/files';
import { unsupportedFile } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { insertFiles } from '../models/files.ts';
import { findActiveContent } from '../pdf/active-content.ts';
import type { CheckedFile } from '../storage/file-content.ts';

export interface StoredFile extends CheckedFile {
  id: string;
  storageKey: string;
}

/**
 * Stores checked uploads and the rows that point at them, all or nothing:
 * 1. blobs go to storage first (outside the transaction: storage is not transactional);
 * 2. the `files` rows and the caller's rows are written in one transaction;
 * 3. if anything fails, the blobs written in step 1 are deleted before the error goes on.
 * So a failed request leaves neither a row nor an orphan blob, and no row ever points at a blob
 * that was not written. (A crash between 1 and 2 can still leave an unreferenced blob: the orphan
 * sweep, services/sweep-orphan-files.ts, removes it after a grace period.)
 */
export async function storeFilesThen<T>(
  ctx: AppContext,
  uploads: CheckedFile[],
  uploadedById: string,
  write: (tx: Db, stored: StoredFile[]) => Promise<T>,
): Promise<T> {
  for (const upload of uploads) await refuseActiveContent(upload);
  const stored: StoredFile[] = [];
  try {
    for (const upload of uploads) {
      // A stream of the waiting upload (decision 0082): the storage reads it as it writes.
      const storageKey = await ctx.storage.put(upload.bytes.stream(), upload.bytes.size);
      stored.push({ ...upload, id: newId(), storageKey });
    }
    return await ctx.db.transaction(async (tx) => {
      await insertFiles(
        tx,
        stored.map((file) => ({
          id: file.id,
          kind: file.kind,
          storageKey: file.storageKey,
          mimeType: file.mimeType,
          sizeBytes: file.bytes.size,
          sha256: file.sha256,
          originalName: file.originalName,
          uploadedById,
          location: ctx.storage.location,
        })),
      );
      return write(tx, stored);
    });
  } catch (error) {
    await Promise.all(
      stored.map((file) =>
        ctx.storage.delete(file.storageKey).catch((deleteError: unknown) => {
          ctx.log.error(
            { err: deleteError, storageKey: file.storageKey },
            'could not delete the blob of a failed upload',
          );
        }),
      ),
    );
    throw error;
  }
}

/**
 * Every uploaded PDF (question, solution, syllabus, submission) passes here before it is stored:
 * one that a viewer could run or open something from is refused with a 400 that says what it holds
 * (pdf/active-content.ts, docs/decisions/0015-ai-spend-and-active-pdfs.md).
 */
async function refuseActiveContent(upload: CheckedFile): Promise<void> {
  if (upload.mimeType !== PDF_MIME_TYPE) return;
  // pdf-lib parses a whole document in memory: the one place an upload is read whole (decision
  // 0082). One file at a time, and let go before the next is read or anything is stored.
  const found = await findActiveContent(await upload.bytes.readWhole());
  if (found.length === 0) return;
  throw unsupportedFile(
    `${upload.originalName ? `"${upload.originalName}"` : 'This PDF'} contains ${joinList(found)}, which a PDF viewer could run or open. ` +
      'Such files are not accepted. Export or print it to a new PDF (for example "Save as PDF" or "Microsoft Print to PDF") and upload that.',
  );
}

function joinList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
