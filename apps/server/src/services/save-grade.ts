import type { SaveGradeInput } from '@gradewise/shared/contracts/grading';
import { computeFinalGrade } from '@gradewise/shared/final-grade';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { AppError, badRequest, notFound, staleSave } from '../lib/errors.ts';
import { isId, newId } from '../lib/ids.ts';
import { describeMoment } from '../lib/timestamps.ts';
import { insertGrade, selectCurrentGrade, type GradeRow } from '../models/grades.ts';
import {
  selectGradingRunById,
  selectLatestSucceededRun,
  type GradingRunRow,
  type StoredComment,
} from '../models/grading-runs.ts';
import { selectFileById } from '../models/files.ts';
import { answerLockKey, takeTransactionLock } from '../models/locks.ts';
import { selectRubricByQuestionId, type RubricRow } from '../models/rubrics.ts';
import { selectSubmissionInQuestion, type SubmissionRow } from '../models/submissions.ts';
import { selectUserById, type UserRow } from '../models/users.ts';
import { countPdfPages } from '../pdf/count-pages.ts';
import { loadVisibleQuestion, requireGrader } from '../policies/course-access.ts';
import type { GradeParams } from './grade-submission.ts';
import { requestSuggestionRefresh } from './refresh-suggestions.ts';
import { requestScorePassback } from './lti-grade-passback.ts';

export interface SaveGradeOptions {
  /**
   * Runs in the save's transaction after the grade is inserted: a caller that records why the
   * grade was saved (a resolved regrade request) writes it all or nothing with the grade.
   */
  withinSave?: (tx: Db, grade: GradeRow) => Promise<void>;
}

/** A grade and the grade its comments give may differ by rounding only. */
const GRADE_TOLERANCE = 0.01;

/**
 * POST save-grade/:submissionId: the instructor's decision. Each save is a NEW row in `grades`
 * (the newest is current), kept with who saved it and the AI run it started from, so a regrade or
 * a later save never erases what was decided before. The grade must be what its comments give —
 * points minus the accepted deductions (the shared computeFinalGrade) — within 0..points.
 *
 * A grade belongs to the version it graded: it lands on the submission named in the path, even if
 * the student submitted a newer version meanwhile (which then shows it as a grade on an earlier
 * version). It is recorded against the AI run the screen showed (`basedOnRunId`), never a newer run.
 * Optimistic concurrency: every save names `expectedGradeId` (the saved grade the screen loaded,
 * null for none), or is refused with 428; it is refused with 409 when another grade was saved since. The check and the insert run in one
 * transaction holding the lock of the student's answer (the same lock a resubmission takes), so of
 * two saves from one loaded state exactly one wins.
 */
export async function saveGrade(
  ctx: AppContext,
  user: UserRow,
  params: GradeParams,
  input: z.output<typeof SaveGradeInput>,
  options: SaveGradeOptions = {},
): Promise<{ grade: GradeRow; rubric: RubricRow | undefined }> {
  const { question } = requireGrader(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'save grades',
  );
  const submission = isId(params.submissionId)
    ? await selectSubmissionInQuestion(ctx.db, question.id, params.submissionId)
    : undefined;
  if (!submission) throw notFound('Submission not found.');
  const comments = checkedComments(input.comments, question.points);
  checkGrade(input.grade, question.points, comments);
  const { expectedGradeId } = input;
  if (expectedGradeId === undefined) throw versionRequired();
  await checkRegionPages(ctx, submission, comments);
  const run = await runSavedFrom(ctx.db, submission, input.basedOnRunId);
  const { grade, rubric } = await ctx.db.transaction(async (tx) => {
    await takeTransactionLock(tx, answerLockKey(question.id, submission.studentId));
    const current = await selectCurrentGrade(tx, submission.id);
    if ((current?.id ?? null) !== expectedGradeId) throw await staleGrade(tx, current, question.points);
    // Read under the answer's lock: a rubric change re-applying to this answer has committed by now,
    // so the version recorded is the one in force when the grade is written.
    const rubric = await selectRubricByQuestionId(tx, question.id);
    const grade = await insertGrade(tx, {
      id: newId(),
      submissionId: submission.id,
      grade: input.grade,
      feedback: input.feedback,
      comments,
      confidence: run?.confidence ?? null,
      gradingRunId: run?.id ?? null,
      savedById: user.id,
      reason: 'save',
      rubricVersion: rubric?.version ?? null,
    });
    await options.withinSave?.(tx, grade);
    return { grade, rubric };
  });
  await requestSuggestionRefresh(ctx, question.id, user.id);
  // A released grade that changed goes to the LMS (decision 0076); the job sends nothing held.
  await requestScorePassback(ctx, question.assignmentId, [submission.studentId]);
  return { grade, rubric };
}

/**
 * A save that does not say which grade it started from could overwrite one saved since without
 * anybody seeing it (two graders, two tabs, a script), so it is refused, from every client.
 */
const versionRequired = () =>
  new AppError(
    'PRECONDITION_REQUIRED',
    'Say which saved grade this save starts from: send expectedGradeId, the currentGradeId your grading screen loaded (null when it loaded no saved grade), so a grade saved since is never overwritten unseen.',
    [{ path: 'expectedGradeId', message: 'is required: the currentGradeId you loaded, or null' }],
  );

/**
 * The AI run the grade starts from: the one the screen names (it must be a finished run of this
 * submission), none when it names none, and the newest finished run for the spec's client, which
 * does not say.
 */
async function runSavedFrom(
  db: Db,
  submission: SubmissionRow,
  basedOnRunId: string | null | undefined,
): Promise<GradingRunRow | undefined> {
  if (basedOnRunId === undefined) return selectLatestSucceededRun(db, submission.id);
  if (basedOnRunId === null) return undefined;
  const run = isId(basedOnRunId) ? await selectGradingRunById(db, basedOnRunId) : undefined;
  if (!run || run.submissionId !== submission.id || run.status !== 'succeeded') {
    throw badRequest('The AI suggestion this grade starts from is not a finished grading of this submission.', [
      { path: 'basedOnRunId', message: 'must be a finished grading run of this submission' },
    ]);
  }
  return run;
}

async function staleGrade(db: Db, current: GradeRow | undefined, points: number) {
  if (!current) {
    return staleSave('The grade you opened is no longer the current one. Reload to see the current state.', {
      kind: 'grade',
      id: '',
      savedBy: null,
      savedAt: new Date().toISOString(),
    });
  }
  const saver = await selectUserById(db, current.savedById);
  const name = saver?.name ?? 'Someone';
  const what =
    current.reason === 'rubric-change'
      ? `A rubric change by ${name} (version ${current.rubricVersion}) recomputed this grade to ${current.grade} / ${points} at ${describeMoment(current.createdAt)}, ` +
        'after you opened it. Reload to see the updated grade before saving yours.'
      : `${name} saved a grade of ${current.grade} / ${points} for this submission at ${describeMoment(current.createdAt)}, ` +
        'after you opened it. Reload to see their grade before saving yours.';
  return staleSave(what, {
    kind: 'grade',
    id: current.id,
    savedBy: saver ? { _id: saver.id, name: saver.name } : null,
    savedAt: current.createdAt.toISOString(),
    grade: current.grade,
  });
}

/**
 * Shape and range only. A rubricItemId is kept as sent even when the current rubric no longer has
 * that item: the comment may come from a run graded before the instructor edited the rubric, and
 * refusing it would make the grade impossible to save. It is shown without its item then.
 */
function checkedComments(comments: z.output<typeof SaveGradeInput>['comments'], points: number): StoredComment[] {
  const usedIds = new Set<string>();
  return comments.map((comment, index) => {
    if (comment.pointsDeducted < 0 || comment.pointsDeducted > points) {
      throw badRequest(`Comment ${index + 1}: points deducted must be between 0 and ${points}.`, [
        { path: `comments.${index}.pointsDeducted`, message: `must be between 0 and ${points}` },
      ]);
    }
    // Keep the client's comment id (it came from the AI run) unless it is missing or repeated.
    const given = comment._id ?? comment.id;
    const id = given && !usedIds.has(given) ? given : newId();
    usedIds.add(id);
    return {
      id,
      text: comment.text,
      pointsDeducted: comment.pointsDeducted,
      accepted: comment.accepted,
      rubricItemId: comment.rubricItemId ?? null,
      ...(comment.region ? { region: comment.region } : {}),
    };
  });
}

/**
 * A region must point at a page of this submission's PDF (the box itself was checked by the
 * contract). The file is read only when some comment carries a region.
 */
async function checkRegionPages(ctx: AppContext, submission: SubmissionRow, comments: StoredComment[]): Promise<void> {
  const withRegion = comments.flatMap((comment, index) =>
    comment.region ? [{ index, page: comment.region.page }] : [],
  );
  if (withRegion.length === 0) return;
  const file = await selectFileById(ctx.db, submission.fileId);
  const pageCount = file ? await countPdfPages(await ctx.storage.get(file.storageKey)) : null;
  if (pageCount === null)
    throw badRequest("This answer's PDF cannot be read, so no comment can point at a page of it.");
  for (const { index, page } of withRegion) {
    if (page > pageCount) {
      throw badRequest(
        `Comment ${index + 1}: the region is on page ${page}, but the answer has ${pageCount} page${pageCount === 1 ? '' : 's'}.`,
        [{ path: `comments.${index}.region.page`, message: `must be between 1 and ${pageCount}` }],
      );
    }
  }
}

function checkGrade(grade: number, points: number, comments: StoredComment[]): void {
  if (grade < 0 || grade > points) {
    throw badRequest(`The grade must be between 0 and ${points}.`, [
      { path: 'grade', message: `must be between 0 and ${points}` },
    ]);
  }
  const expected = computeFinalGrade(points, comments);
  if (Math.abs(grade - expected) > GRADE_TOLERANCE) {
    throw badRequest(
      `The grade (${grade}) does not match the comments: ${points} points minus the accepted deductions is ${expected}.`,
      [{ path: 'grade', message: `must be ${expected}` }],
    );
  }
}
