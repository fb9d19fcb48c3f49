import type { AppContext } from '../context.ts';
import { conflict, forbidden, notFound } from '../lib/errors.ts';
import { currentTime } from '../lib/clock.ts';
import { isId } from '../lib/ids.ts';
import {
  deleteGrade,
  isGradeReferenced,
  selectCurrentGrade,
  selectGradesByIds,
  type GradeRow,
} from '../models/grades.ts';
import { answerLockKey, takeTransactionLock } from '../models/locks.ts';
import { selectSubmissionInQuestion } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireGrader } from '../policies/course-access.ts';
import type { GradeParams } from './grade-submission.ts';
import { requestSuggestionRefresh } from './refresh-suggestions.ts';
import { requestScorePassback } from './lti-grade-passback.ts';

/** How long after a save its author may still take it back (the toast offers it for seconds). */
export const UNDO_SAVE_WINDOW_MS = 10 * 60 * 1000;

/**
 * POST save-grade/:submissionId/undo (issue 13 item 10): the "Undo" of the toast after Save Grade
 * (or the single key S). It takes the save back as if it had not happened: the answer returns to
 * the grade it had before (or to "not graded"), because the row is removed rather than answered by
 * another row. That is allowed only while the save is a slip nobody has built on — see
 * docs/decisions/0032-undo-a-saved-grade.md:
 *   - the caller saved it themselves, from the grading screen (reason 'save'), minutes ago;
 *   - it is still the answer's current grade (no save, rubric change or group apply since);
 *   - no grade was copied from it and no regrade request points at it.
 * Checked and removed under the answer's lock, the one save-grade takes, so an undo and a save of
 * the same answer never interleave. Anything else is 409 with what to do instead.
 */
export async function undoGradeSave(
  ctx: AppContext,
  user: UserRow,
  params: GradeParams,
  gradeId: string,
): Promise<{ current: GradeRow | undefined }> {
  const { question } = requireGrader(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'undo grades',
  );
  const submission = isId(params.submissionId)
    ? await selectSubmissionInQuestion(ctx.db, question.id, params.submissionId)
    : undefined;
  if (!submission) throw notFound('Submission not found.');
  if (!isId(gradeId)) throw notFound('Grade not found.');

  const current = await ctx.db.transaction(async (tx) => {
    await takeTransactionLock(tx, answerLockKey(question.id, submission.studentId));
    const newest = await selectCurrentGrade(tx, submission.id);
    if (!newest || newest.id !== gradeId) {
      const named = (await selectGradesByIds(tx, [gradeId])).get(gradeId);
      if (named?.submissionId !== submission.id) throw notFound('Grade not found.');
      throw conflict(
        'This grade can no longer be undone: another grade was saved for this answer since. Open the answer to change it.',
      );
    }
    if (newest.savedById !== user.id) throw forbidden('Only the person who saved a grade can undo it.');
    if (newest.reason !== 'save') throw conflict('Only a grade saved on the grading screen can be undone.');
    if (currentTime(ctx).getTime() - newest.createdAt.getTime() > UNDO_SAVE_WINDOW_MS) {
      throw conflict(
        'This grade was saved more than 10 minutes ago, so it can no longer be undone. Open the answer to change it.',
      );
    }
    if (await isGradeReferenced(tx, newest.id)) {
      throw conflict(
        'This grade can no longer be undone: it was applied to other answers or a regrade request refers to it. Open the answer to change it.',
      );
    }
    await deleteGrade(tx, newest.id);
    return selectCurrentGrade(tx, submission.id);
  });
  // The undone grade may already have taught the pending suggestions: refresh them without it.
  await requestSuggestionRefresh(ctx, question.id, user.id);
  await requestScorePassback(ctx, question.assignmentId, [submission.studentId]);
  return { current };
}
