import type { ReviewQueueOutput } from '@gradewise/shared/contracts/review';
import type { AppContext } from '../context.ts';
import { selectCurrentGrades } from '../models/grades.ts';
import { selectLatestRunsBySubmission, selectLatestSucceededRunsBySubmission } from '../models/grading-runs.ts';
import { selectLatestSubmissionsPerStudent } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireOwner } from '../policies/course-access.ts';
import { compareReviewItems, presentReviewQueueItem } from '../presenters/review-presenter.ts';

/**
 * GET review-queue: the latest submission of every student with where it stands, lowest AI
 * confidence first — the answers most likely to need a human correction come first. Four
 * set-based queries, whatever the class size.
 */
export async function readReviewQueue(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
): Promise<ReviewQueueOutput> {
  const { question } = requireOwner(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'review its submissions',
  );
  const rows = await selectLatestSubmissionsPerStudent(ctx.db, question.id);
  const ids = rows.map((row) => row.submission.id);
  const [grades, latestRuns, succeededRuns] = await Promise.all([
    selectCurrentGrades(ctx.db, ids),
    selectLatestRunsBySubmission(ctx.db, ids),
    selectLatestSucceededRunsBySubmission(ctx.db, ids),
  ]);
  const items = rows
    .map((row) =>
      presentReviewQueueItem({
        row,
        grade: grades.get(row.submission.id),
        latestRun: latestRuns.get(row.submission.id),
        latestSucceededRun: succeededRuns.get(row.submission.id),
      }),
    )
    .sort(compareReviewItems);
  return { questionPoints: question.points, items, remaining: items.filter((item) => item.status !== 'graded').length };
}
