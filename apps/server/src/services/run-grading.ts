import { z } from 'zod';
import type { GradedExample, Grader, GradingInput, GradingSuggestion, RubricItem } from '../ai/grader-types.ts';
import { createBuiltinGrader } from '../ai/builtin/builtin-grader.ts';
import { CLASS_ANSWERS_MAX } from '../ai/builtin/grade-answer.ts';
import { acceptsImages } from '../ai/provider/settings.ts';
import { interpretingLlmGrader } from '../ai/create-grader.ts';
import type { AppContext } from '../context.ts';
import { defineJob, type JobAttempt } from '../jobs/job-definition.ts';
import { holdAfterStoringOutputForTests } from '../jobs/test-hooks.ts';
import { AppError, conflict, notFound } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { selectClassAnswerTexts } from '../models/class-answers.ts';
import { selectSavedGradeExamples, type SavedGradeExample } from '../models/graded-examples.ts';
import { selectGradingTarget } from '../models/grading-targets.ts';
import type { FileExtractionRow } from '../models/file-extractions.ts';
import {
  markGradingRunRunning,
  markGradingRunSucceeded,
  recordGradingRunFailure,
  selectUnfinishedGradingRunIds,
  storeGradingRunOutput,
  type GradingRunRow,
  type StoredComment,
} from '../models/grading-runs.ts';
import type { QuestionRow } from '../models/questions.ts';
import type { RubricRow } from '../models/rubrics.ts';
import type { SubmissionRow } from '../models/submissions.ts';
import { chargeProviderCalls } from './ai-spend.ts';
import { isBatchStopped } from '../models/ai-costs.ts';
import { graderOf, providerOfWork, recordAiCost } from './course-ai.ts';
import { ensureFileExtraction, renderAnswerPages } from './ensure-file-extraction.ts';
import { refuseWorkStartedTooOften } from './job-work.ts';

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
}

/** A run of a batch stopped by the instructor (Stop on Grade All) is cancelled before it calls. */
async function refuseIfStopped(ctx: AppContext, batchId: string | null): Promise<void> {
  if (batchId !== null && (await isBatchStopped(ctx.db, batchId))) {
    throw new AppError('CANCELLED', 'Stopped before it started: nothing was sent for this answer.');
  }
}

/**
 * What a grader reads for one answer: the rubric, the answer's extracted text (extracted once per
 * file and stored), and the question's saved grades on other students' answers as examples.
 */
export async function buildGradingInput(
  ctx: AppContext,
  target: {
    submission: SubmissionRow;
    question: QuestionRow;
    rubric: Pick<RubricRow, 'questionText' | 'solutionText' | 'items'>;
    savedGrades: readonly SavedGradeExample[];
  },
): Promise<{ input: GradingInput; extraction: FileExtractionRow }> {
  const { submission, question, rubric } = target;
  const extraction = await ensureFileExtraction(ctx, submission.fileId);
  if (extraction.status === 'failed') {
    throw new AppError('EXTRACTION_FAILED', extraction.error ?? 'The text of this PDF could not be read.');
  }
  const input: GradingInput = {
    questionText: rubric.questionText,
    solutionText: rubric.solutionText,
    rubricItems: rubric.items.length > 0 ? rubric.items : [wholeQuestionItem(question.points)],
    points: question.points,
    answerText: extraction.text,
    examples: examplesFor(target.savedGrades, submission.studentId),
    showExpectedAnswer: question.showExpectedAnswer,
  };
  return { input, extraction };
}

/**
 * The class's current answers, for the grader that reads them: the built-in grader weighs how
 * typical an answer is of its class (class-closeness.ts, decision 0093). LLM graders are not sent
 * other students' answers.
 */
export async function classAnswersFor(
  ctx: AppContext,
  grader: Pick<Grader, 'kind'>,
  questionId: string,
): Promise<string[] | undefined> {
  return grader.kind === 'builtin' ? selectClassAnswerTexts(ctx.db, questionId, CLASS_ANSWERS_MAX) : undefined;
}

/** A suggestion as a run stores it. AI suggestions start accepted: the total shown is the grader's. */
export function storedSuggestion(suggestion: GradingSuggestion): {
  comments: StoredComment[];
  totalScore: number;
  confidence: number;
} {
  return {
    comments: suggestion.comments.map((comment) => ({ id: newId(), ...comment, accepted: true })),
    totalScore: suggestion.totalScore,
    confidence: Math.round(suggestion.confidence),
  };
}

/**
 * The question's saved grades with their answers' text. A grade saved without an AI run may
 * point at an answer never extracted: it is extracted now (once, stored and reused); one that
 * cannot be read is left out.
 */
export async function readSavedGradeExamples(ctx: AppContext, questionId: string): Promise<SavedGradeExample[]> {
  const saved = await selectSavedGradeExamples(ctx.db, questionId);
  const examples: SavedGradeExample[] = [];
  for (const example of saved) {
    if (example.answerText !== null) {
      examples.push(example);
      continue;
    }
    const extraction = await ensureFileExtraction(ctx, example.fileId).catch((error: unknown) => {
      ctx.log.warn({ err: error, fileId: example.fileId }, 'could not read a graded answer to learn from');
      return undefined;
    });
    if (extraction?.status === 'succeeded') examples.push({ ...example, answerText: extraction.text });
  }
  return examples;
}

/**
 * The saved grades a grader learns from: every other student's current graded answer. The
 * student's own answers are left out — a regrade of a graded answer never sees its own grade,
 * and an older version is never graded from the student's newer one.
 */
export function examplesFor(savedGrades: readonly SavedGradeExample[], studentId: string): GradedExample[] {
  return savedGrades.flatMap((saved) =>
    saved.studentId === studentId || saved.answerText === null
      ? []
      : [
          {
            answerText: saved.answerText,
            score: saved.score,
            comments: saved.comments
              .filter((comment) => comment.accepted)
              .map(({ text, pointsDeducted, rubricItemId }) => ({ text, pointsDeducted, rubricItemId })),
            suggestedScore: saved.suggestedScore,
          },
        ],
  );
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

/**
 * A rubric saved with texts only has no items; graders need at least one criterion, or any answer
 * would keep every point. The whole question becomes one item (the LLM grader does the same).
 */
function wholeQuestionItem(points: number): RubricItem {
  return {
    id: 'overall',
    criterion: 'Answers the whole question correctly, as in the solution.',
    points,
    guidance: 'Deduct in proportion to what is missing or wrong compared with the solution.',
  };
}
