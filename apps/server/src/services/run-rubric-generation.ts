import { clampText } from '@gradewise/shared/clamp-text';
import { RUBRIC_TEXT_MAX } from '@gradewise/shared/contracts/grading';
import { z } from 'zod';
import type { Grader, RubricDraftInput } from '../ai/grader-types.ts';
import { createBuiltinGrader } from '../ai/builtin/builtin-grader.ts';
import { interpretingLlmGrader } from '../ai/create-grader.ts';
import type { AppContext } from '../context.ts';
import { defineJob, type JobAttempt } from '../jobs/job-definition.ts';
import { holdAfterStoringOutputForTests } from '../jobs/test-hooks.ts';
import { AppError, notFound } from '../lib/errors.ts';
import { selectQuestionById } from '../models/grading-targets.ts';
import {
  markRubricGenerationRunning,
  markRubricGenerationSucceeded,
  recordRubricGenerationFailure,
  selectUnfinishedRubricGenerationIds,
  storeRubricGenerationOutput,
  type RubricGenerationRow,
} from '../models/rubric-generations.ts';
import { rubricLockKey, takeTransactionLock } from '../models/locks.ts';
import { selectRubricItemIdsEverUsed } from '../models/rubric-versions.ts';
import { selectRubricForUpdate } from '../models/rubrics.ts';
import { chargeProviderCallOfWork } from './ai-spend.ts';
import { aiCourseOfQuestion, graderOf, providerOfWork, recordAiCost } from './course-ai.ts';
import { ensureFileExtraction } from './ensure-file-extraction.ts';
import { refuseWorkStartedTooOften } from './job-work.ts';
import { withUnusedIds } from './rubric-item-ids.ts';
import { writeRubricVersion } from './write-rubric-version.ts';

/** Drafts a question's rubric from its question and solution PDFs: the payload names a rubric_generations row. */
export const generateRubricJob = defineJob({
  name: 'generate-rubric',
  payload: z.object({ id: z.uuid() }),
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  expireInSeconds: 15 * 60,
  // Drafting a rubric is rare and interactive: one at a time per process, beside the grading slots.
  concurrency: () => 1,
  handle: (ctx, payload, attempt) => runRubricGeneration(ctx, payload.id, attempt),
  recordFailure: (ctx, payload, failure, isFinal) =>
    recordRubricGenerationFailure(ctx.db, payload.id, failure, isFinal),
  listUnfinished: (ctx) => selectUnfinishedRubricGenerationIds(ctx.db),
});

/**
 * The rubric job's work, with the same idempotent steps as grading: claim, extract the question
 * and solution PDFs (reused per file), ask the grader unless its answer is already stored, then
 * interpret it and make it the question's rubric in one transaction with the row's success.
 */
export async function runRubricGeneration(ctx: AppContext, generationId: string, attempt: JobAttempt): Promise<void> {
  const generation = await markRubricGenerationRunning(ctx.db, generationId);
  if (!generation) return;
  refuseWorkStartedTooOften(ctx, generation, 'rubric');
  const question = await selectQuestionById(ctx.db, generation.questionId);
  if (!question) throw notFound('This question no longer exists.');

  const questionText = await readPdfText(ctx, question.questionFileId, 'question');
  const solutionText = question.solutionFileId ? await readPdfText(ctx, question.solutionFileId, 'solution') : '';
  const input: RubricDraftInput = { questionText, solutionText, points: question.points };

  let rawOutput = generation.rawOutput;
  let grader: StoredOutputReader | undefined = rawOutput === null ? undefined : graderForStoredOutput(generation);
  if (rawOutput === null || !grader) {
    // The provider the draft was queued on, if the course still allows it (services/course-ai.ts).
    const course = await aiCourseOfQuestion(ctx.db, question.id);
    const provider = providerOfWork(ctx.config, course, generation.providerId);
    const asked = graderOf(provider);
    grader = asked;
    if (asked.kind === 'llm') await chargeProviderCallOfWork(ctx, question.id, generationId, provider);
    const call = await asked.requestRubric(input, attempt.signal);
    await ctx.db.transaction(async (tx) => {
      await storeRubricGenerationOutput(tx, generationId, { rawOutput: call.rawOutput, ...call.meta });
      await recordAiCost(
        tx,
        { workId: generationId, kind: 'rubric', course, assignmentId: course.assignmentId, questionId: question.id },
        provider,
        call.meta,
      );
    });
    rawOutput = call.rawOutput;
    await holdAfterStoringOutputForTests(ctx, { job: generateRubricJob.name, id: generationId }, attempt.signal);
  }

  const draft = grader.interpretRubric(rawOutput, input);
  await ctx.db.transaction(async (tx) => {
    const finished = await markRubricGenerationSucceeded(tx, generationId, draft);
    // Only the try that finished the row writes the rubric: a late duplicate changes nothing.
    if (!finished) return;
    await takeTransactionLock(tx, rubricLockKey(question.id));
    const previous = await selectRubricForUpdate(tx, question.id);
    // A new version like any rubric write; its items are new items, so no saved grade follows them.
    await writeRubricVersion(tx, {
      question,
      previous,
      rubric: {
        questionId: question.id,
        // A long PDF's text is cut to what save-rubric accepts, so the rubric can be saved again as shown.
        questionText: clampText(questionText, RUBRIC_TEXT_MAX),
        solutionText: clampText(solutionText, RUBRIC_TEXT_MAX),
        items: withUnusedIds(draft.items, await selectRubricItemIdsEverUsed(tx, question.id)),
        source: grader.kind,
        generationId,
        updatedById: generation.requestedById,
      },
      writtenById: generation.requestedById,
    });
  });
  ctx.log.info({ generationId, questionId: question.id, items: draft.items.length }, 'rubric generation succeeded');
}

async function readPdfText(ctx: AppContext, fileId: string, which: 'question' | 'solution'): Promise<string> {
  const extraction = await ensureFileExtraction(ctx, fileId);
  if (extraction.status === 'failed') {
    throw new AppError(
      'EXTRACTION_FAILED',
      `The ${which} PDF could not be read: ${extraction.error ?? 'no text found.'}`,
    );
  }
  return extraction.text;
}

type StoredOutputReader = Pick<Grader, 'kind' | 'interpretRubric'>;

/** What reads a stored draft: pure, so any provider's LLM answer is read without calling one. */
function graderForStoredOutput(generation: Pick<RubricGenerationRow, 'graderKind'>): StoredOutputReader {
  if (generation.graderKind === 'builtin') return createBuiltinGrader();
  return interpretingLlmGrader();
}
