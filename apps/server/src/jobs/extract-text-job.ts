import { z } from 'zod';
import { recordFileExtractionFailure, selectUnfinishedFileExtractionIds } from '../models/file-extractions.ts';
import { ensureFileExtraction } from '../services/ensure-file-extraction.ts';
import type { JobDefinition } from './job-definition.ts';
import { JOB_NAMES } from './job-names.ts';

/**
 * Reads the text of a submitted PDF as soon as it is stored, so Converted Text and the extraction
 * state are there before anyone grades: the payload names a file_extractions row (by file id).
 * The grading job then finds the text stored and reuses it.
 */
export const extractTextJob: JobDefinition<{ id: string }> = {
  name: JOB_NAMES.extractText,
  payload: z.object({ id: z.uuid() }),
  // A file's own faults (timeouts included) are stored, not retried; these retries cover crashes
  // and database or storage hiccups.
  retry: { limit: 2, delaySeconds: 5, backoff: true },
  // Reading one PDF is bounded by EXTRACTION_TIMEOUT_MS (120 s by default), OCR included.
  expireInSeconds: 15 * 60,
  // The extraction threads are the real limit: more slots would only wait for a thread.
  concurrency: (config) => config.extractionThreads,
  handle: async (ctx, payload) => {
    await ensureFileExtraction(ctx, payload.id);
  },
  recordFailure: (ctx, payload, failure, isFinal) => recordFileExtractionFailure(ctx.db, payload.id, failure, isFinal),
  listUnfinished: (ctx) => selectUnfinishedFileExtractionIds(ctx.db),
};
