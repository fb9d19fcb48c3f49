import type { CreateRegradeRequestInput } from '@gradewise/shared/contracts/regrades';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { currentTime } from '../lib/clock.ts';
import { badRequest, conflict } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { selectCountingGrades, type GradeRow } from '../models/grades.ts';
import { takeTransactionLock } from '../models/locks.ts';
import {
  insertRegradeRequest,
  regradeItemKey,
  selectOpenRegradeRequest,
  type RegradeRequestRow,
} from '../models/regrade-requests.ts';
import { selectRubricByQuestionId } from '../models/rubrics.ts';
import { selectLatestSubmissionOfStudent } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleSubmission, requireStudent } from '../policies/course-access.ts';
import { readRegradeEligibility } from './regrade-eligibility.ts';
import { requestScorePassback } from './lti-grade-passback.ts';

/** One student's requests on one assignment are counted and written one at a time. */
const regradeLockKey = (assignmentId: string, studentId: string) => `regrade:${assignmentId}:${studentId}`;

/**
 * POST .../questions/:questionId/regrade-requests: a student asks for a second look at their own
 * graded, released answer — one rubric item of it or the whole answer — with a reason. Someone
 * else's submission is 404 (as on every route); a grade that is not there, not released, out of its
 * window or over the limit is 409 with the reason (regrade-eligibility.ts), and so is a second open
 * request on the same item. The limit and the duplicate are checked under a lock of the student's
 * requests on the assignment, and the unique index of open requests backs the duplicate rule.
 */
export async function openRegradeRequest(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
  input: z.output<typeof CreateRegradeRequestInput>,
): Promise<{ row: RegradeRequestRow; disputed: GradeRow | undefined }> {
  const scope = requireStudent(
    await loadVisibleSubmission(ctx.db, user, params.assignmentId, params.questionId, input.submissionId),
    'Only the student whose answer it is can ask for a regrade.',
  );
  const { assignment, question, submission } = scope;
  const latest = await selectLatestSubmissionOfStudent(ctx.db, question.id, user.id);
  if (latest?.submission.id !== submission.id) {
    throw conflict('You can only ask for a regrade of your latest submission.');
  }
  const counting = (await selectCountingGrades(ctx.db, [submission.id])).get(submission.id);
  const rubricItemId = input.rubricItemId ?? null;
  if (rubricItemId !== null && counting) {
    // An item the student can point at: one of the rubric, or one their grade's comments judge.
    const rubric = await selectRubricByQuestionId(ctx.db, question.id);
    const known = new Set([
      ...(rubric?.items ?? []).map((item) => item.id),
      ...counting.grade.comments.flatMap((comment) => (comment.rubricItemId ? [comment.rubricItemId] : [])),
    ]);
    if (!known.has(rubricItemId)) {
      throw badRequest('That rubric item is not part of this grade.', [
        { path: 'rubricItemId', message: 'must be a rubric item of this question' },
      ]);
    }
  }
  const row = await ctx.db.transaction(async (tx) => {
    await takeTransactionLock(tx, regradeLockKey(assignment.id, user.id));
    const eligibility = await readRegradeEligibility(tx, scope, user.id, counting, currentTime(ctx));
    if (!eligibility.canRequest) throw conflict(eligibility.blockedReason!);
    const itemKey = regradeItemKey(rubricItemId);
    if (await selectOpenRegradeRequest(tx, question.id, user.id, itemKey)) {
      throw conflict(
        rubricItemId === null
          ? 'You already have an open regrade request on the whole answer; wait for its reply.'
          : 'You already have an open regrade request on this item; wait for its reply.',
      );
    }
    return insertRegradeRequest(tx, {
      id: newId(),
      assignmentId: assignment.id,
      questionId: question.id,
      submissionId: submission.id,
      studentId: user.id,
      gradeId: counting!.grade.id,
      rubricItemId,
      itemKey,
      reason: input.reason,
      status: 'open',
    });
  });
  // The LMS learns the grade is under review: it goes as PendingManual (decision 0076).
  await requestScorePassback(ctx, assignment.id, [user.id]);
  return { row, disputed: counting?.grade };
}
