/**
 * Why a PDF could not be read. The message is a sentence an instructor or student can act on;
 * callers show it as is (a service maps it to a 4xx AppError, a job records it on the row).
 */
export type ExtractionErrorCode =
  'empty' | 'not-a-pdf' | 'corrupt' | 'encrypted' | 'too-large' | 'too-many-pages' | 'timeout' | 'ocr-failed';

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
