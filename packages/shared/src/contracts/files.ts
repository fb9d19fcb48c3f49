import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

/**
 * Stored files (PDFs, course images). The server decides a file's type from its content (magic
 * bytes), never from its name or the browser's claimed type, and never stores the client's name.
 */
export const PDF_MIME_TYPE = 'application/pdf';
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];

/** `accept` attributes for the web's file pickers (spec section 5). The server checks content anyway. */
export const PDF_ACCEPT = 'application/pdf,.pdf';
export const IMAGE_ACCEPT = IMAGE_MIME_TYPES.join(',');
export const SPREADSHEET_ACCEPT =
  '.xlsx,.xls,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel';

/**
 * A link to a stored file as handed to clients: `/api/files/{fileId}?exp={unix seconds}&sig={signature}`.
 * It works without the Authorization header (PDF viewers and <img> cannot send one) and expires:
 * when it has, refetch the resource that carried it (course, question, submission) for a fresh one.
 * A link is only ever issued for a file the caller may see.
 */
export const FileUrl = lazySchema(() => z.string());
export type FileUrl = z.infer<typeof FileUrl>;

/** GET /api/files/:fileId query. Loose on purpose: a bad or missing signature is a 403, not a 400. */
export const FileDownloadQuery = lazySchema(() =>
  z.object({
    exp: z.string().optional(),
    sig: z.string().optional(),
  }),
);
export type FileDownloadQuery = z.infer<typeof FileDownloadQuery>;
