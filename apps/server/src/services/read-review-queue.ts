import type { ReviewQueueItem, ReviewQueueOutput } from '@gradewise/shared/contracts/review';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireGrader } from '../policies/course-access.ts';
import { compareReviewItems, presentReviewQueueItem } from '../presenters/review-presenter.ts';
import { readStudentIdentities } from './anonymous-grading.ts';
import { analyseQuestionAnswers, loadQuestionAnswers } from './read-answer-groups.ts';
import { readGradingWork } from './work-split.ts';

/**
 * GET review-queue: the latest submission of every student with where it stands, lowest AI
 * confidence first — the answers most likely to need a human correction come first. While the
 * instructor has saved fewer than k grades of their own on the question ("grade these first"),
 * the answers that best represent the class lead instead, most representative first, so the first
 * grades teach the most. Both orders depend only on the answers' texts and suggestions, never on
 * which ones are graded, so saving a grade does not move anything — until the k-th own grade
 * turns the queue to lowest confidence first.
 *
 * With a work split (decision 0031) the queue is the caller's share unless they ask for everyone's
 * (`share: 'all'`); each item says whose it is and who has it open.
 */
export async function readReviewQueue(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
  share: 'mine' | 'all' = 'mine',
): Promise<ReviewQueueOutput> {
  const { assignment, question } = requireGrader(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'review its submissions',
  );
  const answers = await loadQuestionAnswers(ctx, question.id);
  const analysis = await analyseQuestionAnswers(ctx, answers, question.points, ctx.config.gradeFirstCount);
  const identities = await readStudentIdentities(
    ctx,
    assignment,
    answers.rows.map((row) => row.student.id),
  );
  const workOf = await readGradingWork(
    ctx,
    { assignment, question },
    user,
    answers.rows.map((row) => ({ student: row.student, submissionId: row.submission.id })),
  );
  const gradeFirstRank = new Map(analysis.gradeFirst.map((pick, rank) => [pick.id, { rank, pick }]));
  const items = answers.rows.map((row): ReviewQueueItem => {
    const id = row.submission.id;
    const first = gradeFirstRank.get(id);
    return {
      ...presentReviewQueueItem(
        {
          row,
          grade: answers.grades.get(id),
          latestRun: answers.latestRuns.get(id),
          latestSucceededRun: answers.succeededRuns.get(id),
        },
        identities,
      ),
      isGradeFirst: Boolean(first),
      represents: first ? first.pick.represents : null,
      groupSize: analysis.groupOf.get(id)?.members.length ?? null,
      ...workOf({ studentId: row.student.id, submissionId: id }),
    };
  });
  const rankOf = (item: ReviewQueueItem) => gradeFirstRank.get(item.submissionId)?.rank ?? Number.POSITIVE_INFINITY;
  items.sort((a, b) => {
    const rankA = rankOf(a);
    const rankB = rankOf(b);
    if (rankA !== rankB) return rankA < rankB ? -1 : 1;
    return compareReviewItems(a, b);
  });
  const mine = items.filter((item) => item.isMine);
  const listed = share === 'mine' ? mine : items;
  return {
    questionPoints: question.points,
    items: listed,
    remaining: listed.filter((item) => item.status !== 'graded').length,
    gradeFirst: analysis.gradeFirstState,
    share: {
      scope: share,
      isSplit: items.some((item) => (item.assignedTo ?? []).length > 0),
      mine: mine.length,
      total: items.length,
    },
  };
}
