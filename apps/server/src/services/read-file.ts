import type { AppContext } from '../context.ts';
import { forbidden, notFound } from '../lib/errors.ts';
import { isId } from '../lib/ids.ts';
import { selectFileById, type FileRow } from '../models/files.ts';
import { isMissingBlob, type StoredStream } from '../storage/file-storage.ts';

/**
 * GET /api/files/:fileId: the signature is the permission (see storage/file-url-signer.ts). It is
 * checked before the database is asked anything, so an unsigned request learns nothing, not even
 * whether the file exists.
 */
export async function readSignedFile(
  ctx: AppContext,
  fileId: string,
  query: { exp?: string; sig?: string },
): Promise<{ file: FileRow; content: StoredStream; expiresAt: number }> {
  if (!isId(fileId)) throw notFound('File not found.');
  const check = ctx.fileUrls.check(fileId, query.exp, query.sig);
  if (check === 'invalid') throw forbidden('This file link is not valid.');
  if (check === 'expired') throw forbidden('This file link has expired. Reload the page to get a new one.');
  const file = await selectFileById(ctx.db, fileId);
  if (!file) throw notFound('File not found.');
  try {
    // A stream from the storage: a large file is never held whole in memory on its way out.
    return { file, content: await ctx.storage.open(file.storageKey), expiresAt: Number(query.exp) };
  } catch (error) {
    if (isMissingBlob(error)) {
      ctx.log.error(
        { fileId, storageKey: file.storageKey, storage: ctx.storage.description },
        `the file row ${fileId} points at a stored file that does not exist`,
      );
      throw notFound('File not found.');
    }
    throw error;
  }
}
