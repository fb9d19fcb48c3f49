import { isSamePoints } from '@gradewise/shared/points';
import type { ResolveRegradeInput } from '@gradewise/shared/contracts/regrades';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { currentTime } from '../lib/clock.ts';
import { badRequest, conflict } from '../lib/errors.ts';
import { selectCountingGrades } from '../models/grades.ts';
import {
  resolveOpenRegradeRequest,
  selectRegradeRequestById,
  type NewRegradeRequestRow,
} from '../models/regrade-requests.ts';
import type { UserRow } from '../models/users.ts';
import { adjustCommentsForRegrade } from './adjust-grade-for-regrade.ts';
import {
  loadRegradeRequestForStaff,
  loadStaffRegradeSources,
  type StaffRegradeSources,
} from './read-regrade-requests.ts';
import { saveGrade } from './save-grade.ts';
import { requestScorePassback } from './lti-grade-passback.ts';

const alreadyResolved = () => conflict('This regrade request was already resolved.');

/**
 * POST /api/regrade-requests/:id/resolve: staff accept or reject with a reply the student reads on
 * their report. Accepting with a `grade` saves that grade through the normal save path (saveGrade:
 * same checks, a new row in the grade history, 409 if someone saved a grade since), and the request
 * is marked resolved in that same transaction, so a grade is never saved for a request that stays
 * open, nor a request closed without its grade. Of two staff resolving at once, one wins (409).
 */
export async function resolveRegradeRequest(
  ctx: AppContext,
  user: UserRow,
  requestId: string,
  input: z.output<typeof ResolveRegradeInput>,
): Promise<StaffRegradeSources> {
  const { row, scope, question } = await loadRegradeRequestForStaff(ctx, user, requestId, 'resolve regrade requests');
  if (row.status !== 'open') throw alreadyResolved();
  const newGrade = input.grade ?? null;
  if (input.decision === 'reject' && newGrade !== null) {
    throw badRequest('A rejected request keeps the grade as it is: send no grade with a rejection.', [
      { path: 'grade', message: 'must be absent when rejecting' },
    ]);
  }
  const resolution: Pick<NewRegradeRequestRow, 'status' | 'reply' | 'resolvedById' | 'resolvedAt'> = {
    status: input.decision === 'accept' ? 'accepted' : 'rejected',
    reply: input.reply,
    resolvedById: user.id,
    resolvedAt: currentTime(ctx),
  };
  const closeWith = async (db: Db, resolvedGradeId: string | null) => {
    const resolved = await resolveOpenRegradeRequest(db, row.id, { ...resolution, resolvedGradeId });
    if (!resolved) throw alreadyResolved();
  };

  const counting = (await selectCountingGrades(ctx.db, [row.submissionId])).get(row.submissionId);
  if (newGrade !== null && counting && !isSamePoints(newGrade, counting.grade.grade)) {
    const current = counting.grade;
    const comments = adjustCommentsForRegrade({
      comments: current.comments,
      rubricItemId: row.rubricItemId,
      targetGrade: newGrade,
      points: question.points,
      reply: input.reply,
    });
    await saveGrade(
      ctx,
      user,
      { assignmentId: scope.assignment.id, questionId: question.id, submissionId: counting.gradedSubmissionId },
      {
        grade: newGrade,
        feedback: current.feedback,
        comments: comments.map((comment) => ({ ...comment, _id: comment.id })),
        basedOnRunId: current.gradingRunId,
        expectedGradeId: current.id,
      },
      { withinSave: (tx, saved) => closeWith(tx, saved.id) },
    );
  } else {
    if (newGrade !== null && !counting) throw conflict('This answer has no saved grade to change.');
    // Accepted at the grade it has (staff may have regraded it on the grading screen), or rejected.
    await closeWith(ctx.db, null);
    // The grade is as it was, but no longer under review: the LMS gets it as fully graded again.
    await requestScorePassback(ctx, scope.assignment.id, [row.studentId]);
  }
  const [sources] = await loadStaffRegradeSources(ctx, [(await selectRegradeRequestById(ctx.db, row.id))!]);
  return sources!;
}
