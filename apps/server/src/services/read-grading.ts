import type {
  GradeLifecycleFields,
  SubmissionGradeForStudent,
  SubmissionGradingFields,
} from '@gradewise/shared/contracts/grading';
import { canResubmit, isReopened } from '@gradewise/shared/resubmission';
import type { AppContext } from '../context.ts';
import type { AssignmentRow } from '../models/assignments.ts';
import { selectFileExtractions } from '../models/file-extractions.ts';
import {
  selectCountingGrades,
  selectNewestGradeAtOfAnswer,
  selectNewestGradeAtOfQuestion,
  type CountingGrade,
} from '../models/grades.ts';
import {
  selectGradingRunsByIds,
  selectLatestRunsBySubmission,
  selectLatestSucceededRunsBySubmission,
} from '../models/grading-runs.ts';
import { selectRubricByQuestionId, type RubricRow } from '../models/rubrics.ts';
import { selectNewestReopeningAt, selectNewestReopeningsOfQuestion } from '../models/submission-reopenings.ts';
import type { QuestionRow } from '../models/questions.ts';
import type { SubmissionRow } from '../models/submissions.ts';
import { presentSubmissionGrading } from '../presenters/grading-presenter.ts';
import { presentExtractionState } from '../presenters/submission-presenter.ts';
import { isGradeReleased } from '../policies/grade-release.ts';

/**
 * The grading side of a question detail, for the courses API's presenters to merge in: the
 * rubric (`autoRubric`) and, per submission row, its grade, confidence, grader and hidden-text flag.
 * A handful of set-based queries, whatever the number of rows. The grade is the one that counts for
 * the row (its own, else one saved on an earlier version), so a resubmission never blanks it.
 */
export async function readQuestionGradingForStaff(
  ctx: AppContext,
  questionId: string,
  submissions: readonly SubmissionRow[],
): Promise<{ rubric: RubricRow | undefined; bySubmission: Map<string, SubmissionGradingFields> }> {
  const ids = submissions.map((submission) => submission.id);
  const [rubric, grades, latestRuns, succeededRuns, extractions, newestGrades, reopenings] = await Promise.all([
    selectRubricByQuestionId(ctx.db, questionId),
    selectCountingGrades(ctx.db, ids),
    selectLatestRunsBySubmission(ctx.db, ids),
    selectLatestSucceededRunsBySubmission(ctx.db, ids),
    selectFileExtractions(
      ctx.db,
      submissions.map((submission) => submission.fileId),
    ),
    selectNewestGradeAtOfQuestion(ctx.db, questionId),
    selectNewestReopeningsOfQuestion(ctx.db, questionId),
  ]);
  const gradeRunIds = [...grades.values()]
    .map((counting) => counting.grade.gradingRunId)
    .filter((id): id is string => id !== null);
  const gradeRuns = await selectGradingRunsByIds(ctx.db, gradeRunIds);
  const bySubmission = new Map<string, SubmissionGradingFields>();
  for (const submission of submissions) {
    const counting = grades.get(submission.id);
    const grade = counting?.grade;
    bySubmission.set(submission.id, {
      ...presentSubmissionGrading({
        grade,
        latestRun: latestRuns.get(submission.id),
        latestSucceededRun: succeededRuns.get(submission.id),
        gradeRun: grade?.gradingRunId ? gradeRuns.get(grade.gradingRunId) : undefined,
        isGradeOnEarlierVersion: counting?.isEarlierVersion ?? false,
        extraction: extractions.get(submission.fileId),
        rubricItems: rubric?.items ?? [],
      }),
      ...lifecycleOf(counting),
      isReopened: isReopened({
        newestGradeAt: newestGrades.get(submission.studentId) ?? null,
        newestReopeningAt: reopenings.get(submission.studentId) ?? null,
      }),
    });
  }
  return { rubric, bySubmission };
}

/**
 * A student's own rows: the saved grade only (its own or an earlier version's), nothing of the AI's
 * draft, and whether a new version would be accepted now; and where reading their file's text
 * stands (as their submit answer said), so a file that cannot be read is told to them.
 */
export async function readSubmissionGradesForStudent(
  ctx: AppContext,
  scope: { assignment: AssignmentRow; question: QuestionRow },
  submissions: readonly SubmissionRow[],
): Promise<Map<string, SubmissionGradeForStudent & ReturnType<typeof presentExtractionState>>> {
  const [grades, extractions] = await Promise.all([
    selectCountingGrades(
      ctx.db,
      submissions.map((submission) => submission.id),
    ),
    selectFileExtractions(
      ctx.db,
      submissions.map((submission) => submission.fileId),
    ),
  ]);
  const result = new Map<string, SubmissionGradeForStudent & ReturnType<typeof presentExtractionState>>();
  // A held grade is not there for its student (policies/grade-release.ts): the row reads "not graded".
  const isReleased = isGradeReleased(scope.assignment, scope.question);
  for (const submission of submissions) {
    const saved = grades.get(submission.id);
    const counting = isReleased ? saved : undefined;
    const [newestGradeAt, newestReopeningAt] = await Promise.all([
      selectNewestGradeAtOfAnswer(ctx.db, scope.question.id, submission.studentId),
      selectNewestReopeningAt(ctx.db, scope.question.id, submission.studentId),
    ]);
    result.set(submission.id, {
      grade: counting ? counting.grade.grade : null,
      isAlreadyGraded: Boolean(counting),
      ...lifecycleOf(counting),
      canResubmit: canResubmit({
        allowsResubmission: scope.assignment.allowsResubmission,
        newestGradeAt,
        newestReopeningAt,
      }),
      ...presentExtractionState(extractions.get(submission.fileId)),
      gradeWithheld: Boolean(saved) && !isReleased,
    });
  }
  return result;
}

function lifecycleOf(counting: CountingGrade | undefined): Required<GradeLifecycleFields> {
  return {
    isGradeOnEarlierVersion: counting?.isEarlierVersion ?? false,
    gradedVersion: counting?.gradedVersion ?? null,
  };
}
