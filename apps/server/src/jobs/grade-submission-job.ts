import { z } from 'zod';
import { recordGradingRunFailure, selectUnfinishedGradingRunIds } from '../models/grading-runs.ts';
import { runGrading } from '../services/run-grading.ts';
import type { JobDefinition } from './job-definition.ts';
import { JOB_NAMES } from './job-names.ts';

/** Grades one submission: the payload names a grading_runs row. */
export const gradeSubmissionJob: JobDefinition<{ id: string }> = {
  name: JOB_NAMES.gradeSubmission,
  payload: z.object({ id: z.uuid() }),
  // The grader already retries provider failures with backoff; these retries cover crashes,
  // database hiccups and other surprises.
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  // Extraction with OCR plus an LLM call with its own retries (at most AI_TOTAL_TIMEOUT_MS) fits well within.
  expireInSeconds: 15 * 60,
  concurrency: (config) => config.gradingConcurrency,
  handle: (ctx, payload, attempt) => runGrading(ctx, payload.id, attempt),
  recordFailure: (ctx, payload, failure, isFinal) => recordGradingRunFailure(ctx.db, payload.id, failure, isFinal),
  listUnfinished: (ctx) => selectUnfinishedGradingRunIds(ctx.db),
};
