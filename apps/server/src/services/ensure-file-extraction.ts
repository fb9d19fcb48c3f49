import type { AnswerPage } from '../ai/grader-types.ts';
import type { AppContext } from '../context.ts';
import { AppError, notFound } from '../lib/errors.ts';
import { insertFileExtraction, selectFileExtraction, type FileExtractionRow } from '../models/file-extractions.ts';
import { selectFileById } from '../models/files.ts';
import { isExtractionError, type ExtractionErrorCode } from '../pdf/extraction-error.ts';
import { extractPdfTextInPool, renderPdfPagesInPool } from '../pdf/extraction-pool.ts';

/** Failures that depend on the file alone: the same bytes will fail the same way, so the verdict is stored. */
const FILE_FAULTS: ReadonlySet<ExtractionErrorCode> = new Set([
  'empty',
  'not-a-pdf',
  'corrupt',
  'encrypted',
  'too-large',
  'too-many-pages',
]);

/** Page images sent to a model that reads them (handwriting); more pages are sent as text only. */
const MAX_ANSWER_PAGE_IMAGES = 4;

/**
 * The text of a stored PDF, extracted once per file and reused (file_extractions): a retry, a
 * regrade or a rubric draft never pays for OCR twice. A file fault is stored as a failed row with
 * its message; a timeout or an OCR failure is not stored, so a later try extracts again.
 */
export async function ensureFileExtraction(ctx: AppContext, fileId: string): Promise<FileExtractionRow> {
  const existing = await selectFileExtraction(ctx.db, fileId);
  if (existing) return existing;
  const bytes = await readStoredFile(ctx, fileId);
  try {
    const extraction = await extractPdfTextInPool(bytes);
    return await insertFileExtraction(ctx.db, {
      fileId,
      status: 'succeeded',
      text: extraction.text,
      pages: extraction.pages,
      hiddenText: extraction.hiddenText,
    });
  } catch (error) {
    if (!isExtractionError(error)) throw error;
    if (FILE_FAULTS.has(error.code)) {
      return insertFileExtraction(ctx.db, {
        fileId,
        status: 'failed',
        text: '',
        pages: [],
        hiddenText: [],
        error: error.message,
      });
    }
    throw new AppError('EXTRACTION_FAILED', 422, error.message);
  }
}

/** The answer's first pages as PNG images beside their extracted text, for models that read images. */
export async function renderAnswerPages(
  ctx: AppContext,
  fileId: string,
  extraction: FileExtractionRow,
): Promise<AnswerPage[]> {
  const bytes = await readStoredFile(ctx, fileId);
  try {
    const images = await renderPdfPagesInPool(bytes, { maxPages: MAX_ANSWER_PAGE_IMAGES });
    return images.map((imagePng, index) => ({
      page: index + 1,
      text: extraction.pages.find((page) => page.page === index + 1)?.text ?? '',
      imagePng,
    }));
  } catch (error) {
    // The text was read already; grading from text alone beats failing the run.
    ctx.log.warn({ err: error, fileId }, 'rendering answer pages failed; grading from text only');
    return [];
  }
}

async function readStoredFile(ctx: AppContext, fileId: string): Promise<Uint8Array> {
  const file = await selectFileById(ctx.db, fileId);
  if (!file) throw notFound('The PDF of this item no longer exists.');
  // pdf.js refuses Node Buffers (and detaches what it is given): hand it its own plain copy.
  return new Uint8Array(await ctx.storage.get(file.storageKey));
}
