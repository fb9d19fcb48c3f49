import { z } from 'zod';
import type { AnswerPage } from '../ai/grader-types.ts';
import type { AppContext } from '../context.ts';
import { defineJob } from '../jobs/job-definition.ts';
import { AppError, notFound } from '../lib/errors.ts';
import {
  claimFileExtraction,
  finishFileExtraction,
  recordFileExtractionFailure,
  selectFileExtraction,
  selectUnfinishedFileExtractionIds,
  type FileExtractionRow,
} from '../models/file-extractions.ts';
import { selectFileById, type FileRow } from '../models/files.ts';
import { isExtractionError, type ExtractionErrorCode } from '../pdf/extraction-error.ts';
import {
  extractPdfTextInPool,
  promoteInPool,
  renderPdfPagesInPool,
  type ReadLane,
  type ReadPlace,
} from '../pdf/extraction-pool.ts';
import { checkStructureOffThread, skipStructureCheck } from '../pdf/structure-check.ts';

/**
 * Failures that depend on the file alone: the same bytes will fail the same way, so the verdict is
 * stored and never paid for again. A file that ran over the time limit, its work budget
 * ('too-complex') or its thread's memory limit is one too: reading it again would hold a thread
 * again on every retry and every read, for the same answer. Anything else (an OCR engine failure,
 * a crash) is stored as a failure with its code and read again when next asked.
 */
export const FILE_FAULTS: ReadonlySet<ExtractionErrorCode> = new Set([
  'empty',
  'not-a-pdf',
  'corrupt',
  'encrypted',
  'too-large',
  'too-many-pages',
  'timeout',
  'out-of-memory',
  'too-complex',
]);

/** Page images sent to a model that reads them (handwriting); more pages are sent as text only. */
const MAX_ANSWER_PAGE_IMAGES = 4;

/** Finished for good: text, or a file fault (rows stored before codes were kept only held faults). */
export function isSettledExtraction(row: FileExtractionRow): boolean {
  if (row.status === 'succeeded') return true;
  if (row.status !== 'failed') return false;
  return row.errorCode === null || FILE_FAULTS.has(row.errorCode as ExtractionErrorCode);
}

/**
 * Reads the text of a submitted PDF as soon as it is stored, so Converted Text and the extraction
 * state are there before anyone grades: the payload names a file_extractions row (by file id).
 * The grading job then finds the text stored and reuses it. These reads are the pool's background
 * lane: a grade or a rubric draft someone waits for goes first (extraction-pool.ts).
 */
export const extractTextJob = defineJob({
  name: 'extract-text',
  payload: z.object({ id: z.uuid() }),
  // A file's own faults (timeouts included) are stored, not retried; these retries cover crashes
  // and database or storage hiccups.
  retry: { limit: 2, delaySeconds: 5, backoff: true },
  // Reading one PDF is bounded by EXTRACTION_TIMEOUT_MS (120 s by default), OCR included.
  expireInSeconds: 15 * 60,
  // The extraction threads are the real limit, but the pool can only take turns between the
  // owners of the files it holds: a few more than the threads, so that one person's uploads
  // waiting in the pool do not keep another's in the job queue behind them (decision 0068).
  concurrency: (config) => config.extractionThreads + EXTRA_FILES_IN_POOL,
  handle: async (ctx, payload) => {
    await ensureFileExtraction(ctx, payload.id, 'background');
  },
  recordFailure: (ctx, payload, failure, isFinal) => recordFileExtractionFailure(ctx.db, payload.id, failure, isFinal),
  listUnfinished: (ctx) => selectUnfinishedFileExtractionIds(ctx.db),
});

/** Files the extract-text job hands the pool beyond its threads (see its `concurrency`). */
const EXTRA_FILES_IN_POOL = 3;

/**
 * Reads in progress in this process, by file: the extract-text job and a grading job share one,
 * and its place in the pool's queues moves up when someone starts waiting for it.
 */
const readsInProgress = new Map<string, { read: Promise<FileExtractionRow>; place: ReadPlace }>();

/**
 * The text of a stored PDF, extracted once per file and reused (file_extractions): a retry, a
 * regrade or a rubric draft never pays for OCR twice. Submissions are read by the extract-text job
 * as soon as they are stored; a grading job that comes first (or after a failure that was not the
 * file's fault) reads the file itself, sharing the read when this process is already at it.
 * Answers a settled row: 'succeeded', or 'failed' with a file fault's message. Any other failure
 * is stored (the row shows it) and thrown.
 *
 * `lane`: 'interactive' (the default) when someone waits for the text — a grade, a rubric draft;
 * the extract-text job reads ahead in the 'background' lane. Text already stored never waits for
 * the pool; an interactive caller that joins a background read still queued moves it up.
 */
export async function ensureFileExtraction(
  ctx: AppContext,
  fileId: string,
  lane: ReadLane = 'interactive',
): Promise<FileExtractionRow> {
  const existing = await selectFileExtraction(ctx.db, fileId);
  if (existing && isSettledExtraction(existing)) return existing;
  const inProgress = readsInProgress.get(fileId);
  if (inProgress) {
    if (lane === 'interactive') {
      promoteInPool(inProgress.place);
      // Still waiting for its structure check: it goes on to a reading thread now, which counts it itself.
      skipStructureCheck(inProgress.place);
    }
    return inProgress.read;
  }
  // The owner is known once the file's row is read (readAndStore), before the pool sees the place.
  const place: ReadPlace = { owner: fileId, lane };
  const read = readAndStore(ctx, fileId, place).finally(() => readsInProgress.delete(fileId));
  readsInProgress.set(fileId, { read, place });
  return read;
}

/** Whose file it is, for the pool's turns: its uploader (files from before uploaders were kept: their own). */
const ownerOf = (file: FileRow) => file.uploadedById ?? file.id;

async function readAndStore(ctx: AppContext, fileId: string, place: ReadPlace): Promise<FileExtractionRow> {
  const file = await selectFileById(ctx.db, fileId);
  if (!file) throw notFound('The PDF of this item no longer exists.');
  place.owner = ownerOf(file);
  await claimFileExtraction(ctx.db, fileId, [...FILE_FAULTS]);
  const bytes = await readStoredFile(ctx, file);
  try {
    // An upload read ahead is counted first, on a thread without pdf.js, so a hostile file is
    // refused in milliseconds of work instead of waiting for a nice-10 reading thread (decision
    // 0100). Someone waiting already (the interactive lane) goes straight to a thread that counts it.
    if (place.lane === 'background') {
      const fault = await checkStructureOffThread(bytes, place);
      if (fault) throw fault;
    }
    const extraction = await extractPdfTextInPool(bytes, { timeoutMs: ctx.config.extractionTimeoutMs }, place);
    return await finishFileExtraction(ctx.db, {
      fileId,
      status: 'succeeded',
      text: extraction.text,
      pages: extraction.pages,
      hiddenText: extraction.hiddenText,
    });
  } catch (error) {
    if (!isExtractionError(error)) throw error;
    const row = await finishFileExtraction(ctx.db, {
      fileId,
      status: 'failed',
      text: '',
      pages: [],
      hiddenText: [],
      error: error.message,
      errorCode: error.code,
    });
    if (isSettledExtraction(row)) return row;
    throw new AppError('EXTRACTION_FAILED', error.message);
  }
}

/** The answer's first pages as PNG images beside their extracted text, for models that read images. */
export async function renderAnswerPages(
  ctx: AppContext,
  fileId: string,
  extraction: FileExtractionRow,
): Promise<AnswerPage[]> {
  const file = await selectFileById(ctx.db, fileId);
  if (!file) throw notFound('The PDF of this item no longer exists.');
  const bytes = await readStoredFile(ctx, file);
  try {
    // Someone waits for the grade: the interactive lane.
    const images = await renderPdfPagesInPool(
      bytes,
      { maxPages: MAX_ANSWER_PAGE_IMAGES, timeoutMs: ctx.config.extractionTimeoutMs },
      { owner: ownerOf(file), lane: 'interactive' },
    );
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

async function readStoredFile(ctx: AppContext, file: FileRow): Promise<Uint8Array> {
  // pdf.js refuses Node Buffers (and detaches what it is given): hand it its own plain copy.
  return new Uint8Array(await ctx.storage.get(file.storageKey));
}
