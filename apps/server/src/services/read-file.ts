import type { AppContext } from '../context.ts';
import { forbidden, notFound } from '../lib/errors.ts';
import { isId } from '../lib/ids.ts';
import { selectFileById, type FileRow } from '../models/files.ts';

/**
 * GET /api/files/:fileId: the signature is the permission (see storage/file-url-signer.ts). It is
 * checked before the database is asked anything, so an unsigned request learns nothing, not even
 * whether the file exists.
 */
export async function readSignedFile(
  ctx: AppContext,
  fileId: string,
  query: { exp?: string; sig?: string },
): Promise<{ file: FileRow; content: Buffer; expiresAt: number }> {
  if (!isId(fileId)) throw notFound('File not found.');
  const check = ctx.fileUrls.check(fileId, query.exp, query.sig);
  if (check === 'invalid') throw forbidden('This file link is not valid.');
  if (check === 'expired') throw forbidden('This file link has expired. Reload the page to get a new one.');
  const file = await selectFileById(ctx.db, fileId);
  if (!file) throw notFound('File not found.');
  try {
    return { file, content: await ctx.storage.get(file.storageKey), expiresAt: Number(query.exp) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      ctx.log.error({ fileId }, 'a file row points at a missing blob');
      throw notFound('File not found.');
    }
    throw error;
  }
}
