import { z } from 'zod';
import type { Grader } from '../ai/grader-types.ts';
import { createBuiltinGrader } from '../ai/builtin/builtin-grader.ts';
import { acceptsImages } from '../ai/provider/settings.ts';
import { interpretingLlmGrader } from '../ai/create-grader.ts';
import type { AppContext } from '../context.ts';
import { defineJob, type JobAttempt } from '../jobs/job-definition.ts';
import { holdAfterStoringOutputForTests } from '../jobs/test-hooks.ts';
import { AppError, conflict, notFound } from '../lib/errors.ts';
import { selectGradingTarget } from '../models/grading-targets.ts';
import {
  markGradingRunRunning,
  markGradingRunSucceeded,
  recordGradingRunFailure,
  selectUnfinishedGradingRunIds,
  storeGradingRunOutput,
  storedSuggestion,
  type GradingRunRow,
} from '../models/grading-runs.ts';
import { chargeProviderCalls } from './ai-spend.ts';
import { isBatchStopped } from '../models/ai-costs.ts';
import { graderOf, providerOfWork, recordAiCost } from './course-ai.ts';
import { renderAnswerPages } from './ensure-file-extraction.ts';
import { buildGradingInput, classAnswersFor, courseGradesFor, readSavedGradeExamples } from './grading-input.ts';
import { refuseWorkStartedTooOften } from './job-work.ts';
import { refreshAfterBuiltinRun } from './refresh-suggestions.ts';

type StoredOutputReader = Pick<Grader, 'kind' | 'interpretGrading'>;

/** Grades one submission: the payload names a grading_runs row. */
export const gradeSubmissionJob = defineJob({
  name: 'grade-submission',
  payload: z.object({ id: z.uuid() }),
  // The grader already retries provider failures with backoff; these retries cover crashes,
  // database hiccups and other surprises.
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  // Extraction with OCR plus an LLM call with its own retries (at most AI_TOTAL_TIMEOUT_MS) fits well within.
  expireInSeconds: 15 * 60,
  // GRADING_CONCURRENCY bounds the grader calls (ctx.gradingCalls), not the jobs: twice as many run,
  // so while C calls are in flight up to C more runs claim their row and read their PDF on the
  // extraction threads, and a call slot that frees finds an answer ready (decision 0041).
  concurrency: (config) => 2 * config.gradingConcurrency,
  handle: (ctx, payload, attempt) => runGrading(ctx, payload.id, attempt),
  recordFailure: (ctx, payload, failure, isFinal) => recordGradingRunFailure(ctx.db, payload.id, failure, isFinal),
  listUnfinished: (ctx) => selectUnfinishedGradingRunIds(ctx.db),
});

/**
 * The grading job's work, idempotent step by step:
 *  1. claim the run (a finished run is left alone: a duplicate delivery does nothing);
 *  2. extract the answer's text (stored per file and reused);
 *  3. ask the grader — unless the run already holds the provider's answer from an earlier try,
 *     which is stored BEFORE it is interpreted, so a retry never pays for the same call twice.
 *     Only the call itself holds one of the process's GRADING_CONCURRENCY call slots: reading the
 *     PDF (text, page images) happens before, while other runs' calls are in flight;
 *  4. interpret the stored answer (pure) and finish the run.
 */
export async function runGrading(ctx: AppContext, runId: string, attempt: JobAttempt): Promise<void> {
  const run = await markGradingRunRunning(ctx.db, runId);
  if (!run) return;
  refuseWorkStartedTooOften(ctx, run, 'grading');
  const target = await selectGradingTarget(ctx.db, run.submissionId);
  if (!target) throw notFound('This submission no longer exists.');
  const { submission, question, rubric, course } = target;
  if (!rubric)
    throw conflict('This question has no rubric yet. Generate one from the question page, then grade again.');
  const savedGrades = await readSavedGradeExamples(ctx, question.id);
  const { input, extraction } = await buildGradingInput(ctx, { submission, question, rubric, savedGrades });

  let rawOutput = run.rawOutput;
  let grader: StoredOutputReader | undefined = rawOutput === null ? undefined : graderForStoredOutput(run);
  if (rawOutput === null || !grader) {
    // The provider the run was queued on, if the course still allows it (services/course-ai.ts).
    const provider = providerOfWork(ctx.config, course, run.providerId);
    const asked = graderOf(provider);
    grader = asked;
    input.classAnswers = await classAnswersFor(ctx, asked, question.id);
    input.courseGrades = await courseGradesFor(ctx, asked, question.id);
    await refuseIfStopped(ctx, run.batchId);
    // Counted once per run, against the quotas of the question's course (read with the target).
    if (asked.kind === 'llm') await chargeProviderCalls(ctx, { ...course, provider }, 1, runId);
    if (asked.kind === 'llm' && acceptsImages(provider)) {
      input.answerPages = await renderAnswerPages(ctx, submission.fileId, extraction);
    }
    const call = await ctx.gradingCalls.run(async () => {
      // Stop lets calls in flight finish; a run that waited for its slot meanwhile sends nothing.
      await refuseIfStopped(ctx, run.batchId);
      return asked.requestGrading(input, attempt.signal);
    }, attempt.signal);
    // The answer and what it cost, together: a stored answer is never paid for again, nor left unpriced.
    await ctx.db.transaction(async (tx) => {
      await storeGradingRunOutput(tx, runId, {
        rawOutput: call.rawOutput,
        ...call.meta,
        examplesUsed: input.examples?.length ?? 0,
      });
      await recordAiCost(
        tx,
        {
          workId: runId,
          kind: 'grading',
          course,
          assignmentId: course.assignmentId,
          questionId: question.id,
          batchId: run.batchId,
          rubricItems: input.rubricItems.length,
        },
        provider,
        call.meta,
      );
    });
    rawOutput = call.rawOutput;
    await holdAfterStoringOutputForTests(ctx, { job: gradeSubmissionJob.name, id: runId }, attempt.signal);
  }

  const suggestion = grader.interpretGrading(rawOutput, input);
  const finished = await markGradingRunSucceeded(ctx.db, runId, storedSuggestion(suggestion));
  if (finished)
    ctx.log.info({ runId, submissionId: submission.id, totalScore: suggestion.totalScore }, 'grading run succeeded');
  // Its question's suggestions made with a smaller class or an older convention, and, when this answer
  // holds a grade the course's convention is fitted on, the course's other questions (decision 0118).
  if (finished && grader.kind === 'builtin') {
    await refreshAfterBuiltinRun(ctx, { questionId: question.id, submissionId: submission.id });
  }
}

/** A run of a batch stopped by the instructor (Stop on Grade All) is cancelled before it calls. */
async function refuseIfStopped(ctx: AppContext, batchId: string | null): Promise<void> {
  if (batchId !== null && (await isBatchStopped(ctx.db, batchId))) {
    throw new AppError('CANCELLED', 'Stopped before it started: nothing was sent for this answer.');
  }
}

/**
 * What reads a stored answer: the built-in grader its own, the LLM interpretation an LLM's, whatever
 * provider the course uses now (a run finishes on the provider it started with).
 */
function graderForStoredOutput(run: Pick<GradingRunRow, 'graderKind'>): StoredOutputReader {
  // Interpreting a stored answer is pure and calls nothing: any LLM grader reads an LLM answer.
  if (run.graderKind === 'builtin') return createBuiltinGrader();
  return interpretingLlmGrader();
}
