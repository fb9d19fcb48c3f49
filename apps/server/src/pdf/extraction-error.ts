/**
 * Why a PDF could not be read. The message is a sentence an instructor or student can act on;
 * callers show it as is (a service maps it to a 4xx AppError, a job records it on the row).
 */
export type ExtractionErrorCode =
  | 'empty'
  | 'not-a-pdf'
  | 'corrupt'
  | 'encrypted'
  | 'too-large'
  | 'too-many-pages'
  | 'timeout'
  /** The reading thread ran out of the memory it is allowed (EXTRACTION_MEMORY_MB) and was replaced. */
  | 'out-of-memory'
  /** More work than any honest file needs: nesting, operators, or CPU time on one page or the whole file (see extraction-pool.ts). */
  | 'too-complex'
  | 'ocr-failed';

export class ExtractionError extends Error {
  constructor(
    readonly code: ExtractionErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ExtractionError';
  }
}

export const isExtractionError = (error: unknown): error is ExtractionError => error instanceof ExtractionError;

/** How long reading one document may take unless the caller says otherwise (extractPdfText, the extraction pool). */
export const DEFAULT_EXTRACTION_TIMEOUT_MS = 120_000;

/** A document that was not read within the time limit (extractPdfText's deadline, the extraction pool's timer). */
export function extractionTimeoutError(timeoutMs: number): ExtractionError {
  return new ExtractionError(
    'timeout',
    `Reading this PDF took longer than ${describeLimit(timeoutMs)}. Please upload a smaller or simpler file.`,
  );
}

/** 120 seconds, 1 second, 500 ms (a test's limit). */
function describeLimit(milliseconds: number): string {
  if (milliseconds < 1000) return `${milliseconds} ms`;
  const seconds = Math.round(milliseconds / 1000);
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/** A document whose reading thread hit its memory limit (the thread is replaced). */
export function extractionMemoryError(heapLimitMb: number | undefined, cause?: unknown): ExtractionError {
  const limit = heapLimitMb ? ` (${heapLimitMb} MB)` : '';
  return new ExtractionError(
    'out-of-memory',
    `Reading this PDF needed more memory than allowed${limit}, so it was stopped. Please export it again as a simpler PDF or upload a smaller file.`,
    cause === undefined ? undefined : { cause },
  );
}

/** The advice every 'too-complex' refusal ends with: a fresh export of the same pages reads in well under a second. */
const EXPORT_AGAIN = 'Please export it again (for example, print it to a new PDF) and re-upload it.';

/** Drawing states nested deeper than a reader may follow (stream-guard.ts): pdf.js's work grows with the square of the depth. */
export function nestingTooDeepError(maxDepth: number): ExtractionError {
  return new ExtractionError(
    'too-complex',
    `This PDF nests its drawing instructions more than ${maxDepth.toLocaleString('en-US')} levels deep (a damaged file, or one built to stall readers), so it was not read. ${EXPORT_AGAIN}`,
  );
}

/** A document with more drawing operations than a reader works through (extractPdfText's maxOperators). */
export function tooManyOperatorsError(maxOperators: number): ExtractionError {
  return new ExtractionError(
    'too-complex',
    `This PDF holds more than ${maxOperators.toLocaleString('en-US')} drawing operations, more than a reader works through for one file, so it was not read. ${EXPORT_AGAIN}`,
  );
}

/** A page whose reading used more than its share of CPU time (the extraction pool's per-page budget); its thread was replaced. */
export function workBudgetError(cpuPerPageMs: number, page: number): ExtractionError {
  return new ExtractionError(
    'too-complex',
    `Reading page ${page} of this PDF took more than ${describeLimit(cpuPerPageMs)} of work (a damaged file, or one built to stall readers), so it was stopped. ${EXPORT_AGAIN}`,
  );
}

/**
 * A file whose reading used more CPU time in all than the extraction pool allows one file (its
 * per-file budget: many pages each under their own budget); its thread was replaced.
 */
export function fileWorkBudgetError(cpuPerFileMs: number): ExtractionError {
  return new ExtractionError(
    'too-complex',
    `Reading this PDF took more than ${describeLimit(cpuPerFileMs)} of work in all (a damaged file, or one built to stall readers), so it was stopped. ${EXPORT_AGAIN}`,
  );
}

/** A file pdf.js opens only with a password it is not given (its PasswordException; the counts find it first: encryption.ts). */
export function passwordProtectedError(options?: { cause?: unknown }): ExtractionError {
  return new ExtractionError(
    'encrypted',
    'This PDF is password-protected. Please remove the password and upload it again.',
    options,
  );
}

/**
 * A page's contents, a form, a pattern, a glyph or an appearance written with an image filter
 * (DCT, JPX, CCITT, JBIG2): pdf.js decodes the pixels and reads them as drawing instructions, which
 * no honest writer asks of it, and which hides them from the counts made before (decision 0108).
 */
export function imageFilteredDrawingError(): ExtractionError {
  return new ExtractionError(
    'too-complex',
    `This PDF writes its drawing instructions as an image (a damaged file, or one built to stall readers), so it was not read. ${EXPORT_AGAIN}`,
  );
}

/**
 * An image whose JPEG data declares more pixels than pdf.js decodes (its maxImageSize) while its
 * dictionary declares no more: pdf.js checks the dictionary's /Width and /Height, then decodes the
 * JPEG at the size its own header says (decision 0113: a 10 x 10 image whose JPEG says 60,000 x
 * 60,000 had pdf.js allocate 10.8 GB outside the thread's heap).
 */
export function imageLargerThanDeclaredError(): ExtractionError {
  return new ExtractionError(
    'too-complex',
    `This PDF holds an image whose data is far larger than the image says it is (a damaged file, or one built to stall readers), so it was not read. ${EXPORT_AGAIN}`,
  );
}

/**
 * Objects defined in more ways than the counts read through (decision 0108: each definition of an
 * object defined more than once is read, as pdf.js may take any of them).
 */
export function conflictingDefinitionsError(): ExtractionError {
  return new ExtractionError(
    'too-complex',
    `This PDF defines the same objects in too many different ways (a damaged file, or one built to stall readers), so it was not read. ${EXPORT_AGAIN}`,
  );
}
