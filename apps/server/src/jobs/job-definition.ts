import type { z } from 'zod';
import type { ErrorCode } from '@gradewise/shared/errors';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';

/** One try of a job. `isLast` is true when pg-boss will not retry after this one. */
export interface JobAttempt {
  number: number;
  isLast: boolean;
  /** Aborted when the process shuts down mid-job; the job is then retried later. */
  signal: AbortSignal;
}

export interface JobFailure {
  code: ErrorCode;
  message: string;
  /** A failure we understand (an AppError): retrying would fail the same way. */
  isPermanent: boolean;
}

/**
 * A job: its payload is always `{ id }`, the id of the work row in our own table that holds the
 * state users see (the row id is also the pg-boss job id). Handlers must be idempotent: after a
 * crash or a retry they run again on a row that may be half done.
 *
 * Each job is defined beside the service function that does its work (`defineJob` in
 * `services/run-grading.ts`, ...), and sent by that definition: `ctx.jobs.send(gradeSubmissionJob,
 * { id })`, so the payload is checked against the definition's type. `job-registry.ts` lists them all.
 */
export interface JobDefinition<Payload extends { id: string }> {
  /** The pg-boss queue name, stored with every job: renaming one strands the jobs already queued. */
  name: string;
  payload: z.ZodType<Payload>;
  retry: { limit: number; delaySeconds: number; backoff: boolean };
  /** pg-boss fails (and retries) a job running longer than this: keep it above the slowest honest run. */
  expireInSeconds: number;
  /** Jobs of this kind one process runs at once. */
  concurrency(config: Config): number;
  handle(ctx: AppContext, payload: Payload, attempt: JobAttempt): Promise<void>;
  /** Writes the failure to the row: `isFinal` marks it failed, otherwise notes the error and it waits for its retry. */
  recordFailure(ctx: AppContext, payload: Payload, failure: JobFailure, isFinal: boolean): Promise<void>;
  /** Ids of rows still queued or running: re-sent at boot. */
  listUnfinished(ctx: AppContext): Promise<string[]>;
}

/** A job definition whose payload type is the one its schema reads, so sends and handlers agree with it. */
export function defineJob<Payload extends { id: string }>(definition: JobDefinition<Payload>): JobDefinition<Payload> {
  return definition;
}
