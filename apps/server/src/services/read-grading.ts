import { canResubmit, isReopened } from '@gradewise/shared/resubmission';
import type { AppContext } from '../context.ts';
import type { AssignmentRow } from '../models/assignments.ts';
import { selectFileExtractions, type FileExtractionListRow } from '../models/file-extractions.ts';
import {
  selectCountingGrades,
  selectNewestGradeAtOfAnswer,
  selectNewestGradeAtOfStudents,
  type CountingGrade,
} from '../models/grades.ts';
import {
  selectGradingRunSummariesByIds,
  selectLatestRunSummaries,
  type GradingRunSummary,
} from '../models/grading-runs.ts';
import { selectRubricByQuestionId, type RubricRow } from '../models/rubrics.ts';
import { selectNewestReopeningAt, selectNewestReopeningsOfStudents } from '../models/submission-reopenings.ts';
import type { QuestionRow } from '../models/questions.ts';
import type { SubmissionRow } from '../models/submissions.ts';
import { isGradeReleased } from '../policies/grade-release.ts';

/**
 * The grading side of one staff submission row, as read; presenters/question-presenter.ts turns it
 * into the row's grade, confidence, grader and hidden-text fields.
 */
export interface StaffSubmissionGrading {
  /** The grade that counts for the row: its own, else one saved on an earlier version. */
  counting: CountingGrade | undefined;
  latestRun: GradingRunSummary | undefined;
  latestSucceededRun: GradingRunSummary | undefined;
  /** The AI run the counting grade started from. */
  gradeRun: GradingRunSummary | undefined;
  extraction: FileExtractionListRow | undefined;
  isReopened: boolean;
}

/**
 * The grading side of a question detail: the rubric and, per submission row, its grade, runs and
 * extraction. A handful of set-based queries, whatever the number of rows. The grade is the one
 * that counts for the row (its own, else one saved on an earlier version), so a resubmission never
 * blanks it.
 */
export async function readQuestionGradingForStaff(
  ctx: AppContext,
  questionId: string,
  submissions: readonly SubmissionRow[],
): Promise<{ rubric: RubricRow | undefined; bySubmission: Map<string, StaffSubmissionGrading> }> {
  const ids = submissions.map((submission) => submission.id);
  const studentIds = submissions.map((submission) => submission.studentId);
  const [rubric, grades, runs, extractions, newestGrades, reopenings] = await Promise.all([
    selectRubricByQuestionId(ctx.db, questionId),
    selectCountingGrades(ctx.db, ids),
    selectLatestRunSummaries(ctx.db, ids),
    selectFileExtractions(
      ctx.db,
      submissions.map((submission) => submission.fileId),
    ),
    selectNewestGradeAtOfStudents(ctx.db, questionId, studentIds),
    selectNewestReopeningsOfStudents(ctx.db, questionId, studentIds),
  ]);
  const gradeRunIds = [...grades.values()]
    .map((counting) => counting.grade.gradingRunId)
    .filter((id): id is string => id !== null);
  const gradeRuns = await selectGradingRunSummariesByIds(ctx.db, gradeRunIds);
  const bySubmission = new Map<string, StaffSubmissionGrading>();
  for (const submission of submissions) {
    const counting = grades.get(submission.id);
    const gradingRunId = counting?.grade.gradingRunId;
    bySubmission.set(submission.id, {
      counting,
      latestRun: runs.latest.get(submission.id),
      latestSucceededRun: runs.latestSucceeded.get(submission.id),
      gradeRun: gradingRunId ? gradeRuns.get(gradingRunId) : undefined,
      extraction: extractions.get(submission.fileId),
      isReopened: isReopened({
        newestGradeAt: newestGrades.get(submission.studentId) ?? null,
        newestReopeningAt: reopenings.get(submission.studentId) ?? null,
      }),
    });
  }
  return { rubric, bySubmission };
}

/** A student's own row, as read; presenters/question-presenter.ts turns it into the row's grade fields. */
export interface StudentSubmissionGrade {
  /** The grade that counts for the row, only when it is released to the student. */
  released: CountingGrade | undefined;
  /** A grade is saved but held (policies/grade-release.ts): the row reads "not graded". */
  gradeWithheld: boolean;
  /** Whether a new version would be accepted now. */
  canResubmit: boolean;
  extraction: FileExtractionListRow | undefined;
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
): Promise<Map<string, StudentSubmissionGrade>> {
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
  const result = new Map<string, StudentSubmissionGrade>();
  // A held grade is not there for its student (policies/grade-release.ts): the row reads "not graded".
  const isReleased = isGradeReleased(scope.assignment, scope.question);
  for (const submission of submissions) {
    const saved = grades.get(submission.id);
    const [newestGradeAt, newestReopeningAt] = await Promise.all([
      selectNewestGradeAtOfAnswer(ctx.db, scope.question.id, submission.studentId),
      selectNewestReopeningAt(ctx.db, scope.question.id, submission.studentId),
    ]);
    result.set(submission.id, {
      released: isReleased ? saved : undefined,
      gradeWithheld: Boolean(saved) && !isReleased,
      canResubmit: canResubmit({
        allowsResubmission: scope.assignment.allowsResubmission,
        newestGradeAt,
        newestReopeningAt,
      }),
      extraction: extractions.get(submission.fileId),
    });
  }
  return result;
}
