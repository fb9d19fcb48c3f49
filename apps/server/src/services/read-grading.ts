import { canResubmit, isReopened } from '@gradewise/shared/resubmission';
import type { AppContext } from '../context.ts';
import type { AssignmentRow } from '../models/assignments.ts';
import {
  selectFileExtractions,
  selectFileExtractionStates,
  type FileExtractionListRow,
  type FileExtractionRow,
  type FileExtractionState,
} from '../models/file-extractions.ts';
import {
  selectCountingGrades,
  selectCountingGradeStandingsWithRuns,
  selectCountingGradesWithRuns,
  selectNewestGradeAtOfAnswer,
  type CountingGrade,
  type CountingGradeWithRun,
  type GradeRow,
  type GradeStanding,
} from '../models/grades.ts';
import {
  selectLatestRunStandings,
  selectLatestRunSummaries,
  type GradingRunStanding,
  type GradingRunSummary,
  type LatestRuns,
} from '../models/grading-runs.ts';
import type { Db } from '../db/client.ts';
import { selectRubricByQuestionId, type RubricRow } from '../models/rubrics.ts';
import { selectNewestGradesAndReopeningsOfStudents, selectNewestReopeningAt } from '../models/submission-reopenings.ts';
import type { QuestionRow } from '../models/questions.ts';
import type { SubmissionRow } from '../models/submissions.ts';
import { isGradeReleased } from '../policies/grade-release.ts';

/** The row types a staff grading read gives: one grade, run and extraction type each. */
interface GradingShape {
  run: GradingRunStanding;
  grade: GradeStanding;
  extraction: Pick<FileExtractionRow, 'fileId' | 'status' | 'error'>;
}
/** Every field: the spec's whole list and the grading screen's one row. */
export interface WholeGradingShape extends GradingShape {
  run: GradingRunSummary;
  grade: GradeRow;
  extraction: FileExtractionListRow;
}
/** As a row of the staff table shows it (decision 0057): no comments, no answer text, no findings. */
export interface TableGradingShape extends GradingShape {
  run: GradingRunStanding;
  grade: GradeStanding;
  extraction: FileExtractionState;
}

/**
 * The grading side of one staff submission row, as read; presenters/question-presenter.ts turns it
 * into the row's grade, confidence, grader and hidden-text fields.
 */
export interface StaffSubmissionGrading<Shape extends GradingShape = WholeGradingShape> {
  /** The grade that counts for the row: its own, else one saved on an earlier version. */
  counting: CountingGrade<Shape['grade']> | undefined;
  latestRun: Shape['run'] | undefined;
  latestSucceededRun: Shape['run'] | undefined;
  /** The AI run the counting grade started from. */
  gradeRun: Shape['run'] | undefined;
  extraction: Shape['extraction'] | undefined;
  isReopened: boolean;
}

/** The reads behind one shape: the same rows, with or without their heavy columns. */
interface GradingReads<Shape extends GradingShape> {
  latestRuns(db: Db, submissionIds: string[]): Promise<LatestRuns<Shape['run']>>;
  /** Each counting grade with the AI run it started from, in one read. */
  countingGrades(
    db: Db,
    submissionIds: string[],
  ): Promise<Map<string, CountingGradeWithRun<Shape['grade'], Shape['run']>>>;
  extractions(db: Db, fileIds: string[]): Promise<Map<string, Shape['extraction']>>;
}
const WHOLE_READS: GradingReads<WholeGradingShape> = {
  latestRuns: selectLatestRunSummaries,
  countingGrades: selectCountingGradesWithRuns,
  extractions: selectFileExtractions,
};
const TABLE_READS: GradingReads<TableGradingShape> = {
  latestRuns: selectLatestRunStandings,
  countingGrades: selectCountingGradeStandingsWithRuns,
  extractions: selectFileExtractionStates,
};

/**
 * The grading side of a question detail: the rubric and, per submission row, its grade, runs and
 * extraction. A handful of set-based queries, whatever the number of rows. The grade is the one
 * that counts for the row (its own, else one saved on an earlier version), so a resubmission never
 * blanks it.
 */
export function readQuestionGradingForStaff(
  ctx: AppContext,
  questionId: string,
  submissions: readonly SubmissionRow[],
): Promise<{ rubric: RubricRow | undefined; bySubmission: Map<string, StaffSubmissionGrading> }> {
  return readStaffGrading(ctx, questionId, submissions, WHOLE_READS);
}

/**
 * The same rows for a page of the staff table (decision 0057): their runs and grades without
 * comments and their extractions without the text, which the table does not show and which are
 * most of what reading a row costs.
 */
export function readQuestionTableGradingForStaff(
  ctx: AppContext,
  questionId: string,
  submissions: readonly SubmissionRow[],
): Promise<{ rubric: RubricRow | undefined; bySubmission: Map<string, StaffSubmissionGrading<TableGradingShape>> }> {
  return readStaffGrading(ctx, questionId, submissions, TABLE_READS);
}

async function readStaffGrading<Shape extends GradingShape>(
  ctx: AppContext,
  questionId: string,
  submissions: readonly SubmissionRow[],
  reads: GradingReads<Shape>,
): Promise<{ rubric: RubricRow | undefined; bySubmission: Map<string, StaffSubmissionGrading<Shape>> }> {
  const ids = submissions.map((submission) => submission.id);
  const studentIds = submissions.map((submission) => submission.studentId);
  const [rubric, grades, runs, extractions, lifecycle] = await Promise.all([
    selectRubricByQuestionId(ctx.db, questionId),
    reads.countingGrades(ctx.db, ids),
    reads.latestRuns(ctx.db, ids),
    reads.extractions(
      ctx.db,
      submissions.map((submission) => submission.fileId),
    ),
    selectNewestGradesAndReopeningsOfStudents(ctx.db, questionId, studentIds),
  ]);
  const bySubmission = new Map<string, StaffSubmissionGrading<Shape>>();
  for (const submission of submissions) {
    const counting = grades.get(submission.id);
    bySubmission.set(submission.id, {
      counting,
      latestRun: runs.latest.get(submission.id),
      latestSucceededRun: runs.latestSucceeded.get(submission.id),
      gradeRun: counting?.gradeRun,
      extraction: extractions.get(submission.fileId),
      isReopened: isReopened({
        newestGradeAt: lifecycle.newestGradeAt.get(submission.studentId) ?? null,
        newestReopeningAt: lifecycle.newestReopeningAt.get(submission.studentId) ?? null,
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
