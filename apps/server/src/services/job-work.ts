import type { ErrorCode } from '@gradewise/shared/errors';
import type { AppContext } from '../context.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { AppError } from '../lib/errors.ts';

/**
 * What the synchronous grading calls share: the queue must be running, and a failed work row
 * turns back into the same error the job recorded.
 */

/** The spec's calls wait this long for their job; the job itself goes on after a timeout. */
export const GRADING_WAIT_MS = 10 * 60_000;
export const RUBRIC_WAIT_MS = 10 * 60_000;

export function requireJobs(ctx: AppContext): JobQueue {
  if (!ctx.jobs)
    throw new AppError('UNAVAILABLE', 503, 'AI grading is not running in this server process. Please try again later.');
  return ctx.jobs;
}

const STATUS_BY_CODE: Partial<Record<ErrorCode, number>> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  EXTRACTION_FAILED: 422,
  AI_FAILED: 502,
  UNAVAILABLE: 503,
};

/** The error a failed work row stands for, as the job recorded it. */
export function errorOfFailedRow(row: { error: string | null; errorCode: string | null }, fallback: string): AppError {
  const code = (row.errorCode ?? 'INTERNAL') as ErrorCode;
  return new AppError(code, STATUS_BY_CODE[code] ?? 500, row.error ?? fallback);
}

export function stillRunning(what: string): AppError {
  return new AppError(
    'UNAVAILABLE',
    503,
    `${what} is taking longer than expected. It continues in the background; please check again in a few minutes.`,
  );
}
