import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest, payloadTooLarge } from '../lib/errors.ts';
import type { UploadedFile } from '../storage/file-content.ts';
import { spoolUpload, type SpooledUpload } from '../storage/upload-bytes.ts';

/**
 * Reads a multipart/form-data request: text fields as strings, each expected file streamed to a
 * temporary file in `spoolDir` as it arrives (storage/upload-bytes.ts), never gathered in memory
 * (decision 0082). Sizes are capped while streaming (@fastify/multipart limits set in app.ts,
 * tightened per route with `maxFileBytes`): busboy stops a file at the cap, its temporary file is
 * removed and the request is refused with a 413 that names the cap.
 *
 * A file input left empty arrives as a part with an empty filename and no bytes: that is "no file",
 * so routes answer their own "Please select ..." message.
 */
export interface MultipartForm {
  fields: Record<string, string>;
  files: Partial<Record<string, UploadedFile>>;
}

export interface ReadMultipartOptions {
  /** File fields this route reads; files under any other name are drained and ignored. */
  fileFields: readonly string[];
  /**
   * The per-file cap this route holds uploads to: the configured MAX_UPLOAD_MB, or a tighter one
   * (spreadsheets). A file over it is refused with a 413 that names it.
   */
  maxFileBytes: number;
  /** Where uploads wait while the request runs (the configuration's `incomingDir`, DATA_DIR/incoming). */
  spoolDir: string;
}

/** The spec gives no words for a file over the limit: ours, with the limit beside them. */
export function uploadTooLargeMessage(maxFileBytes: number): string {
  return `The upload is too large. Each file may be at most ${formatBytes(maxFileBytes)}.`;
}

function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : Number(mb.toFixed(1))} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * Reads the form, gives it to `use`, and removes the form's temporary files when `use` is done,
 * whether it succeeded or threw: a request leaves no temporary file behind.
 */
export async function withMultipartForm<T>(
  request: FastifyRequest,
  options: ReadMultipartOptions,
  use: (form: MultipartForm) => Promise<T>,
): Promise<T> {
  const spooled: SpooledUpload[] = [];
  try {
    return await use(await readMultipartForm(request, options, spooled));
  } finally {
    await Promise.all(spooled.map((file) => file.discard()));
  }
}

async function readMultipartForm(
  request: FastifyRequest,
  options: ReadMultipartOptions,
  spooled: SpooledUpload[],
): Promise<MultipartForm> {
  if (!request.isMultipart()) throw badRequest('Please send this form as multipart/form-data.');
  const form: MultipartForm = { fields: {}, files: {} };
  try {
    const parts = request.parts({ limits: { fileSize: options.maxFileBytes } });
    for await (const part of parts) {
      if (part.type === 'file') {
        // Always consume the stream, or the iterator never reaches the next part.
        if (!options.fileFields.includes(part.fieldname)) {
          await pipeline(part.file, discardAll());
          if (part.file.truncated) throw payloadTooLarge(uploadTooLargeMessage(options.maxFileBytes));
          continue;
        }
        const bytes = await spoolUpload(part.file, options.spoolDir);
        spooled.push(bytes);
        // busboy ends a file at the cap and marks it truncated: what was written is not the file.
        if (part.file.truncated) throw payloadTooLarge(uploadTooLargeMessage(options.maxFileBytes));
        if (bytes.size === 0 && !part.filename) continue;
        if (form.files[part.fieldname]) throw badRequest(`Please send only one file in "${part.fieldname}".`);
        form.files[part.fieldname] = { bytes, filename: part.filename };
      } else {
        if (part.valueTruncated) throw payloadTooLarge(`The field "${part.fieldname}" is too long.`);
        if (part.fieldname in form.fields) continue;
        form.fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (error) {
    throw asMultipartError(error, options.maxFileBytes);
  }
  return form;
}

function discardAll(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

/**
 * Our own errors and the plugin's limit errors (FST_*, 4xx) keep their meaning; anything else the
 * parser throws (a missing boundary, a body cut off mid-part, a malformed part header) is the
 * client's broken request, not our failure: a 400, never a 500.
 */
function asMultipartError(error: unknown, maxFileBytes: number): unknown {
  if (error instanceof AppError) return error;
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (code === 'FST_REQ_FILE_TOO_LARGE') return payloadTooLarge(uploadTooLargeMessage(maxFileBytes));
  if (typeof code === 'string' && code.startsWith('FST_') && typeof statusCode === 'number' && statusCode < 500)
    return error;
  return badRequest('The upload is incomplete or is not valid multipart/form-data. Please try again.');
}
