import type { GradeFirstState } from '@gradewise/shared/contracts/review';
import type { GradingWorkFields } from '@gradewise/shared/contracts/work-split';
import type { AppContext } from '../context.ts';
import type { GradeRow } from '../models/grades.ts';
import type { GradingRunListRow } from '../models/grading-runs.ts';
import type { SubmissionListRow } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireGrader } from '../policies/course-access.ts';
import { readStudentIdentities, type StudentIdentities } from './anonymous-grading.ts';
import { analyseQuestionAnswers, loadQuestionAnswers } from './read-answer-groups.ts';
import { readGradingWork } from './work-split.ts';

/** One answer of a question's review queue, with where it stands. */
interface ReviewQueueEntry {
  row: SubmissionListRow;
  grade: GradeRow | undefined;
  latestRun: GradingRunListRow | undefined;
  latestSucceededRun: GradingRunListRow | undefined;
  /** Its place among the answers to grade first, best first, and how many answers it stands for. */
  gradeFirst: { rank: number; represents: number } | undefined;
  /** How many alike answers its group has (itself included); null when it is in no group. */
  groupSize: number | null;
  work: GradingWorkFields;
}

export interface ReviewQueueView {
  questionPoints: number;
  share: 'mine' | 'all';
  /** Every current answer of the question, whatever the share asked for. */
  entries: ReviewQueueEntry[];
  gradeFirst: GradeFirstState;
  identities: StudentIdentities;
}

/**
 * GET review-queue: the latest submission of every student with where it stands, the suggestions
 * most likely to be far off first (the grader's chance of a big miss, decision 0097; lowest
 * confidence next) — the answers most likely to need a human correction come first. While the
 * instructor has saved fewer than k grades of their own on the question ("grade these first"),
 * the answers that best represent the class lead instead, most representative first, so the first
 * grades teach the most. Both orders depend only on the answers' texts and suggestions, never on
 * which ones are graded, so saving a grade does not move anything — until the k-th own grade
 * turns the queue to that order.
 *
 * With a work split (decision 0031) the queue is the caller's share unless they ask for everyone's
 * (`share: 'all'`); each item says whose it is and who has it open. The service reads every answer;
 * presenters/review-presenter.ts orders them and keeps the share asked for.
 */
export async function readReviewQueue(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
  share: 'mine' | 'all' = 'mine',
): Promise<ReviewQueueView> {
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
  const { of: workOf } = await readGradingWork(
    ctx,
    { assignment, question },
    user,
    answers.rows.map((row) => ({ student: row.student, submissionId: row.submission.id })),
  );
  const gradeFirstRank = new Map(
    analysis.gradeFirst.map((pick, rank) => [pick.id, { rank, represents: pick.represents }]),
  );
  const entries = answers.rows.map((row): ReviewQueueEntry => {
    const id = row.submission.id;
    return {
      row,
      grade: answers.grades.get(id),
      latestRun: answers.latestRuns.get(id),
      latestSucceededRun: answers.succeededRuns.get(id),
      gradeFirst: gradeFirstRank.get(id),
      groupSize: analysis.groupOf.get(id)?.members.length ?? null,
      work: workOf({ studentId: row.student.id, submissionId: id }),
    };
  });
  return { questionPoints: question.points, share, entries, gradeFirst: analysis.gradeFirstState, identities };
}
