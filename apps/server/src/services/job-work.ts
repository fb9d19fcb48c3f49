import { asErrorCode } from '@gradewise/shared/errors';
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
    throw new AppError('UNAVAILABLE', 'AI grading is not running in this server process. Please try again later.');
  return ctx.jobs;
}

/** The error a failed work row stands for, as the job recorded it. */
export function errorOfFailedRow(row: { error: string | null; errorCode: string | null }, fallback: string): AppError {
  return new AppError(asErrorCode(row.errorCode), row.error ?? fallback);
}

export function stillRunning(what: string): AppError {
  return new AppError(
    'UNAVAILABLE',
    `${what} is taking longer than expected. It continues in the background; please check again in a few minutes.`,
  );
}

/**
 * How many times a job may START one work row. A normal failure is retried by pg-boss (1 + 3
 * tries) and recorded; starts beyond that mean tries that never got to record anything: the
 * process died or stopped during the work each time. A file or a reply that kills its worker would
 * otherwise be sent again at every boot and crash-loop the server, so the row is failed for good.
 */
export const MAX_JOB_STARTS = 5;

/**
 * Call right after claiming a row (the claim counted this start and committed): fails the row for
 * good, with a sentence for the instructor, once it has started too often without finishing.
 */
export function refuseWorkStartedTooOften(
  ctx: AppContext,
  row: { id: string; attempts: number },
  what: 'grading' | 'rubric',
): void {
  if (row.attempts <= MAX_JOB_STARTS) return;
  // For the operator: the row's input (a file, a reply) may be worth a look and a bug report.
  ctx.log.warn({ id: row.id, job: what, starts: row.attempts - 1 }, 'work given up after too many starts');
  const tried = `It was started ${MAX_JOB_STARTS} times and the server stopped each time before it finished`;
  throw new AppError(
    'UNPROCESSABLE',
    what === 'grading'
      ? `Grading this submission was given up: ${tried}. The PDF may be damaged or unusual: open it, then grade it by hand or ask the student to submit it again.`
      : `Drafting this rubric was given up: ${tried}. The question or solution PDF may be damaged or unusual: check them, or write the rubric yourself.`,
  );
}
