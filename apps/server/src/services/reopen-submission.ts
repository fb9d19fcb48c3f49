import type { AppContext } from '../context.ts';
import { notFound } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { answerLockKey, takeTransactionLock } from '../models/locks.ts';
import { insertSubmissionReopening, type SubmissionReopeningRow } from '../models/submission-reopenings.ts';
import { selectUserById, type UserRow } from '../models/users.ts';
import { loadVisibleSubmission, requireOwner, type SubmissionScope } from '../policies/course-access.ts';

/**
 * POST .../submissions/:submissionId/reopen: the owning instructor lets the student of that
 * submission send a new version of their answer although it was graded. It holds until a grade is
 * saved again (on any version); the grades already saved stay, and keep counting as a grade on an
 * earlier version until the new version is graded.
 */
export async function reopenSubmission(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string; submissionId: string },
): Promise<{ scope: SubmissionScope; reopening: SubmissionReopeningRow; student: UserRow }> {
  const scope = requireOwner(
    await loadVisibleSubmission(ctx.db, user, params.assignmentId, params.questionId, params.submissionId),
    'reopen a question for a student',
  );
  const { question, submission } = scope;
  const student = await selectUserById(ctx.db, submission.studentId);
  if (!student) throw notFound('Submission not found.');
  const reopening = await ctx.db.transaction(async (tx) => {
    // Ordered with grade saves of this answer: a reopening is newer than every grade saved before it.
    await takeTransactionLock(tx, answerLockKey(question.id, student.id));
    return insertSubmissionReopening(tx, {
      id: newId(),
      questionId: question.id,
      studentId: student.id,
      reopenedById: user.id,
    });
  });
  return { scope, reopening, student };
}
