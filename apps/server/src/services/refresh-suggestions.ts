import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { defineJob, type JobAttempt } from '../jobs/job-definition.ts';
import { AppError } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { createBuiltinGrader } from '../ai/builtin/builtin-grader.ts';
import { selectQuestionById } from '../models/grading-targets.ts';
import {
  insertFinishedGradingRun,
  selectLatestSucceededRunsBySubmission,
  selectSmallestClassRead,
  storedSuggestion,
} from '../models/grading-runs.ts';
import { selectUngradedLatestSubmissionIds } from '../models/grading-targets.ts';
import { selectClassAnswerTexts } from '../models/class-answers.ts';
import { CLASS_ANSWERS_MAX, classSizeOf } from '../ai/builtin/grade-answer.ts';
import { conventionOf, fitCourseConvention, isConventionStale } from '../ai/builtin/course-convention.ts';
import { holdsCourseGrade, selectPendingConventions } from '../models/course-grades.ts';
import { countCurrentSavedGrades } from '../models/graded-examples.ts';
import { selectSuggestionsToRefresh } from '../models/suggestion-targets.ts';
import { selectRubricByQuestionId } from '../models/rubrics.ts';
import {
  insertSuggestionRefreshUnlessQueued,
  markSuggestionRefreshRunning,
  markSuggestionRefreshSucceeded,
  recordSuggestionRefreshFailure,
  selectUnfinishedSuggestionRefreshIds,
} from '../models/suggestion-refreshes.ts';
import { courseGradesWithBuiltin } from './course-ai.ts';
import { MAX_JOB_STARTS } from './job-work.ts';
import { buildGradingInput, classAnswersFor, courseGradesFor, readSavedGradeExamples } from './grading-input.ts';

/**
 * Learning from each saved grade: after a save, the question's pending suggestions (current
 * answers without a saved grade) are suggested again by the built-in grader, which is given the
 * saved grades as examples. It is free and local, so it runs by itself in a durable job; an LLM
 * is never called automatically (cost) — with one configured the instructor re-suggests
 * explicitly from the question page (services/resuggest-answers.ts).
 */

/**
 * Called by save-grade after the grade is stored. Saves in quick succession share one queued
 * refresh: while one is queued (it has not read the saved grades yet) a save joins it, so ten
 * quick saves cause one or two refreshes, not ten. Never fails the save: the grade is stored,
 * and a refresh that could not be queued is only a later refresh.
 */
export async function requestSuggestionRefresh(
  ctx: AppContext,
  questionId: string,
  /** Null: the server asked (the class grew), not a person. */
  requestedById: string | null,
): Promise<void> {
  if (!(await courseGradesWithBuiltin(ctx, questionId))) return;
  try {
    const refresh = await insertSuggestionRefreshUnlessQueued(ctx.db, { id: newId(), questionId, requestedById });
    // Without a queue in this process the row waits for the next boot sweep of a process with one.
    if (refresh && ctx.jobs) await ctx.jobs.send(refreshSuggestionsJob, { id: refresh.id });
  } catch (error) {
    ctx.log.error({ err: error, questionId }, 'could not queue a refresh of the suggestions');
  }
}

/**
 * What a built-in grading run checks once it has finished, the one path for both checks:
 *
 * - its own question's pending suggestions: a refresh is asked for when one was made with a
 *   smaller class than the question has now, or with a course convention that has moved since
 *   (`refreshIfSuggestionsStale`);
 * - the course's other questions, only when the run judged an answer whose grade the course's
 *   convention is fitted on (`holdsCourseGrade`): a judgement of an answer without one cannot move
 *   it, so a Grade All of ungraded answers reads nothing of the course's other questions.
 */
export async function refreshAfterBuiltinRun(
  ctx: AppContext,
  judged: { questionId: string; submissionId: string },
): Promise<void> {
  await refreshIfSuggestionsStale(ctx, judged.questionId);
  let isCourseGrade: boolean;
  try {
    isCourseGrade = await holdsCourseGrade(ctx.db, judged.submissionId);
  } catch (error) {
    ctx.log.error({ err: error, submissionId: judged.submissionId }, 'could not read whether the answer is graded');
    return;
  }
  if (isCourseGrade) await refreshCourseIfConventionMoved(ctx, judged.questionId);
}

/**
 * A new version of a graded answer was handed in (by the student, after a reopening, or by the
 * instructor on their behalf): the student's current answer is now ungraded, so the older version's
 * grade stops counting, both as an example of its question and in the course's convention (both
 * read current answers only). The question's pending suggestions were made with that example, and
 * the course's other questions may have been made with a convention that has now moved. So the
 * question is refreshed (the server asks: nobody saved a grade), and the course is checked now,
 * not at the next save or judgement of a graded answer; a refresh the server asks for on a question
 * left without saved grades checks nothing after itself (no loop, see runSuggestionRefresh).
 * Never fails the hand-in, which is stored.
 */
export async function refreshAfterGradedAnswerReplaced(ctx: AppContext, questionId: string): Promise<void> {
  try {
    await requestSuggestionRefresh(ctx, questionId, null);
  } catch (error) {
    ctx.log.error({ err: error, questionId }, 'could not queue a refresh of the suggestions');
  }
  await refreshCourseIfConventionMoved(ctx, questionId);
}

/**
 * A run's suggestion is made with what it read when it started, and both can move while it runs.
 * Built-in suggestions weigh how typical an answer is of its class (decision 0093), and a class
 * grows while its files are read: a Grade All started right after the uploads grades its first
 * answers against the few read so far, and two identical answers could be suggested different
 * scores. Before the first saved grade on the question they follow the course's convention
 * (decision 0115), which a save on another question can move while this run grades with the older
 * one; the save's check of the course leaves an answer with a run in flight to that run (decision
 * 0118). So each built-in grading run, once finished, asks for a refresh of its question when a
 * pending built-in suggestion of it (its own included) was made with a smaller class than the
 * question has now, or with a convention `isConventionStale` calls stale. The last run of a batch
 * finishes after its own file was read, so it sees the whole class. Only grading runs ask: a
 * refresh that asked after itself could ask forever for a suggestion it cannot redo.
 */
async function refreshIfSuggestionsStale(ctx: AppContext, questionId: string): Promise<void> {
  try {
    if ((await hasClassGrown(ctx, questionId)) || (await conventionMovedFor(ctx, questionId, 'own')).size > 0) {
      await requestSuggestionRefresh(ctx, questionId, null);
    }
  } catch (error) {
    // The run's own suggestion is stored; a missed refresh only leaves older ones as they were.
    ctx.log.error({ err: error, questionId }, "could not check whether the question's suggestions are stale");
  }
}

/** A pending built-in suggestion of the question was made with a smaller class than it has now. */
async function hasClassGrown(ctx: AppContext, questionId: string): Promise<boolean> {
  const pending = await selectLatestSucceededRunsBySubmission(
    ctx.db,
    await selectUngradedLatestSubmissionIds(ctx.db, questionId),
  );
  const smallest = await selectSmallestClassRead(
    ctx.db,
    [...pending.values()].map((run) => run.id),
  );
  if (smallest === null) return false;
  return smallest < classSizeOf(await selectClassAnswerTexts(ctx.db, questionId, CLASS_ANSWERS_MAX));
}

/**
 * Before the first saved grade on a question, built-in suggestions follow the course's convention,
 * fitted on the saved grades of its other questions (decision 0115). So a grade saved, applied or
 * undone on one question, and a built-in judgement of a graded answer (what the convention is
 * fitted on), can make the pending suggestions of the course's other questions stale: each of those
 * questions without a saved grade whose pending built-in suggestions were made with a convention
 * that has moved since (course-convention.ts says how far is enough) is asked to refresh. Never
 * fails the caller, whose own work is done: a missed refresh leaves suggestions as they were.
 */
export async function refreshCourseIfConventionMoved(ctx: AppContext, questionId: string): Promise<void> {
  try {
    if (!(await courseGradesWithBuiltin(ctx, questionId))) return;
    for (const otherId of await conventionMovedFor(ctx, questionId, 'others')) {
      await requestSuggestionRefresh(ctx, otherId, null);
    }
  } catch (error) {
    ctx.log.error({ err: error, questionId }, "could not check whether the course's convention moved");
  }
}

/**
 * The questions without a saved grade (the question itself, or the course's other questions) with a
 * pending built-in suggestion made with a convention that has moved since: the one home of the
 * staleness check, for both.
 */
async function conventionMovedFor(ctx: AppContext, questionId: string, which: 'own' | 'others'): Promise<Set<string>> {
  const pending = await selectPendingConventions(ctx.db, questionId, which);
  const stale = new Set<string>();
  if (pending.length === 0) return stale;
  // The questions listed have no saved grade, so the course's grades they read are the same (the
  // only ones each leaves out are its own): the convention is read and fitted once.
  const now = fitCourseConvention(await courseGradesFor(ctx, { kind: 'builtin' }, pending[0]!.questionId));
  for (const { questionId: pendingId, course } of pending) {
    // conventionOf reads a stored judgement; `course` is that judgement's part of it.
    if (isConventionStale(conventionOf({ confidenceInputs: { course } }), now)) stale.add(pendingId);
  }
  return stale;
}

/** Another refresh of the same question is running: this one waits for a retry of its job. */
export class RefreshBusyError extends Error {
  constructor() {
    super('Another refresh of this question is running; this one runs after it.');
  }
}

/**
 * Re-suggests a question's pending answers with the built-in grader after a grade was saved: the
 * payload names a suggestion_refreshes row.
 */
export const refreshSuggestionsJob = defineJob({
  name: 'refresh-suggestions',
  payload: z.object({ id: z.uuid() }),
  // Retries cover crashes and a refresh of the same question still running (RefreshBusyError).
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  // A class of a few hundred answers, graded locally, with OCR already done by Grade All.
  expireInSeconds: 15 * 60,
  // One at a time per process: refreshes are cheap, and the grading workers stay free for
  // the instructor's own requests.
  concurrency: () => 1,
  handle: (ctx, payload, attempt) => runSuggestionRefresh(ctx, payload.id, attempt),
  recordFailure: (ctx, payload, failure, isFinal) =>
    recordSuggestionRefreshFailure(ctx.db, payload.id, failure, isFinal),
  listUnfinished: (ctx) => selectUnfinishedSuggestionRefreshIds(ctx.db),
});

/**
 * The refresh job's work. Claims the row (one running per question, by a partial unique index),
 * reads the saved grades once, then grades every pending suggestion again with the built-in
 * grader — never the configured LLM — and stores each result as a new, already finished grading
 * run: the newest finished run is the one shown, so each suggestion changes in one step, with no
 * "grading" state in between. Idempotent: a retry re-suggests again, free; answers with a run in
 * flight are left to that run.
 */
export async function runSuggestionRefresh(ctx: AppContext, refreshId: string, attempt: JobAttempt): Promise<void> {
  let refresh;
  try {
    refresh = await markSuggestionRefreshRunning(ctx.db, refreshId);
  } catch (error) {
    if (isUniqueViolation(error)) throw new RefreshBusyError();
    throw error;
  }
  if (!refresh) return;
  // A refresh that stopped its process at every start must not crash-loop the server at each boot.
  if (refresh.attempts > MAX_JOB_STARTS) {
    throw new AppError(
      'UNPROCESSABLE',
      `Refreshing the suggestions was given up: it was started ${MAX_JOB_STARTS} times and the server stopped each time before it finished.`,
    );
  }
  const { questionId } = refresh;

  // The configuration may have changed since the save: automatic refreshes never call an LLM.
  const isFree = await courseGradesWithBuiltin(ctx, questionId);
  const rubric = isFree ? await selectRubricByQuestionId(ctx.db, questionId) : undefined;
  const question = rubric ? await selectQuestionById(ctx.db, questionId) : undefined;
  if (!rubric || !question) {
    await markSuggestionRefreshSucceeded(ctx.db, refreshId, { examplesUsed: 0, resuggested: 0 });
    return;
  }
  const savedGrades = await readSavedGradeExamples(ctx, questionId);
  const grader = createBuiltinGrader();
  const classAnswers = await classAnswersFor(ctx, grader, questionId);
  const courseGrades = await courseGradesFor(ctx, grader, questionId);
  let resuggested = 0;
  for (const submission of await selectSuggestionsToRefresh(ctx.db, questionId)) {
    attempt.signal.throwIfAborted();
    try {
      const { input } = await buildGradingInput(ctx, { submission, question, rubric, savedGrades });
      input.classAnswers = classAnswers;
      input.courseGrades = courseGrades;
      const call = await grader.requestGrading(input, attempt.signal);
      const suggestion = grader.interpretGrading(call.rawOutput, input);
      await insertFinishedGradingRun(ctx.db, {
        id: newId(),
        submissionId: submission.id,
        batchId: null,
        ...call.meta,
        rawOutput: call.rawOutput,
        examplesUsed: input.examples?.length ?? 0,
        requestedById: refresh.requestedById,
        ...storedSuggestion(suggestion),
      });
      resuggested += 1;
    } catch (error) {
      if (attempt.signal.aborted) throw error;
      // One answer that cannot be graded again must not stop the others; its last suggestion stays.
      ctx.log.error({ err: error, submissionId: submission.id }, 'refreshing a suggestion failed');
    }
  }
  // A refresh suggests answers without a grade only, so it never moves the course's convention itself:
  // it checks the course for the save, group apply or undo that asked for it, before it is seen
  // finished. One the server asked for on a question without saved grades (the class grew, or the
  // course's convention moved) follows none, and checking after it could ask back and forth between
  // two questions forever for suggestions that cannot be made again.
  if (refresh.requestedById !== null || (await countCurrentSavedGrades(ctx.db, questionId)) > 0) {
    await refreshCourseIfConventionMoved(ctx, questionId);
  }
  await markSuggestionRefreshSucceeded(ctx.db, refreshId, { examplesUsed: savedGrades.length, resuggested });
  ctx.log.info({ refreshId, questionId, resuggested, examples: savedGrades.length }, 'suggestions refreshed');
}

function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
