import { z } from 'zod';
import { recordRubricGenerationFailure, selectUnfinishedRubricGenerationIds } from '../models/rubric-generations.ts';
import { runRubricGeneration } from '../services/run-rubric-generation.ts';
import type { JobDefinition } from './job-definition.ts';
import { JOB_NAMES } from './job-names.ts';

/** Drafts a question's rubric from its question and solution PDFs: the payload names a rubric_generations row. */
export const generateRubricJob: JobDefinition<{ id: string }> = {
  name: JOB_NAMES.generateRubric,
  payload: z.object({ id: z.uuid() }),
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  expireInSeconds: 15 * 60,
  // Drafting a rubric is rare and interactive: one at a time per process, beside the grading slots.
  concurrency: () => 1,
  handle: (ctx, payload, attempt) => runRubricGeneration(ctx, payload.id, attempt),
  recordFailure: (ctx, payload, failure, isFinal) =>
    recordRubricGenerationFailure(ctx.db, payload.id, failure, isFinal),
  listUnfinished: (ctx) => selectUnfinishedRubricGenerationIds(ctx.db),
};
