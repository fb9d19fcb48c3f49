import type { GradingWorkFields } from '@gradewise/shared/contracts/work-split';
import { isReopened } from '@gradewise/shared/resubmission';
import type { AppContext } from '../context.ts';
import {
  EXTRACTION_LISTED,
  EXTRACTION_STATE,
  selectFileExtractions,
  type FileExtractionListRow,
  type FileExtractionState,
} from '../models/file-extractions.ts';
import {
  COUNTING_GRADE_STANDING,
  COUNTING_GRADE_WHOLE,
  selectCountingGradesWithRuns,
  type CountingGradeWithRun,
} from '../models/grades.ts';
import {
  RUN_STANDING,
  RUN_SUMMARY,
  selectLatestRuns,
  type GradingRunStanding,
  type GradingRunSummary,
  type LatestRuns,
} from '../models/grading-runs.ts';
import { selectRubricByQuestionId, type RubricRow } from '../models/rubrics.ts';
import { selectNewestGradesAndReopeningsOfStudents } from '../models/submission-reopenings.ts';
import type { SubmissionListRow } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import type { QuestionScope } from '../policies/course-access.ts';
import { readGradingWork, type GradingWork } from './work-split.ts';

/**
 * The staff rows of a question page, in the two forms its reads answer (decision 0084): a row in
 * full (the spec's whole list and the grading screen's one row) and a row of a page of the staff
 * table (decision 0057), read without the comments, the answer's text and the findings the table
 * does not show, which are most of what reading a row costs. Each form reads its own column sets
 * (models/grades.ts, grading-runs.ts, file-extractions.ts); presenters/question-presenter.ts turns
 * each into its contract's row.
 *
 * Per row: the grade that counts for it (its own, else one saved on an earlier version, so a
 * resubmission never blanks it) with the AI run it started from, the newest run and the newest
 * succeeded run, where reading its file stands, whether the question was reopened for its student,
 * and whose share of the work it is. A handful of set-based queries, whatever the number of rows.
 */

/** One staff row in full: a row of the whole list, or the grading screen's row. */
export interface StaffQuestionRow {
  row: SubmissionListRow;
  counting: CountingGradeWithRun<typeof COUNTING_GRADE_WHOLE> | undefined;
  latestRun: GradingRunSummary | undefined;
  latestSucceededRun: GradingRunSummary | undefined;
  extraction: FileExtractionListRow | undefined;
  isReopened: boolean;
  work: GradingWorkFields;
}

/** One row of a page of the staff table: no comments, no answer text, no findings (decision 0057). */
export interface StaffTableRow {
  row: SubmissionListRow;
  counting: CountingGradeWithRun<typeof COUNTING_GRADE_STANDING> | undefined;
  latestRun: GradingRunStanding | undefined;
  latestSucceededRun: GradingRunStanding | undefined;
  extraction: FileExtractionState | undefined;
  isReopened: boolean;
  work: GradingWorkFields;
}

/** The column sets each form reads (decision 0084): every column, or the table's (decision 0057). */
const IN_FULL = { grades: COUNTING_GRADE_WHOLE, runs: RUN_SUMMARY, extractions: EXTRACTION_LISTED } as const;
const IN_TABLE = { grades: COUNTING_GRADE_STANDING, runs: RUN_STANDING, extractions: EXTRACTION_STATE } as const;

/** Staff rows in full, with the question's rubric and when the first open answer stops being open. */
export function readStaffQuestionRows(
  ctx: AppContext,
  viewer: UserRow,
  scope: QuestionScope,
  rows: readonly SubmissionListRow[],
): Promise<{ rubric: RubricRow | undefined; rows: StaffQuestionRow[]; openUntil: Date | null }> {
  return readRows(ctx, viewer, scope, rows, IN_FULL);
}

/** Rows of a page of the staff table, with the question's rubric (its automatic rubric is on the page). */
export function readStaffTableRows(
  ctx: AppContext,
  viewer: UserRow,
  scope: QuestionScope,
  rows: readonly SubmissionListRow[],
): Promise<{ rubric: RubricRow | undefined; rows: StaffTableRow[] }> {
  return readRows(ctx, viewer, scope, rows, IN_TABLE);
}

// One body for both forms; each form's overload names the rows it returns (the body's own type is
// their union, which TypeScript cannot narrow from the column set passed).
async function readRows(
  ctx: AppContext,
  viewer: UserRow,
  scope: QuestionScope,
  rows: readonly SubmissionListRow[],
  form: typeof IN_FULL,
): Promise<{ rubric: RubricRow | undefined; rows: StaffQuestionRow[]; openUntil: Date | null }>;
async function readRows(
  ctx: AppContext,
  viewer: UserRow,
  scope: QuestionScope,
  rows: readonly SubmissionListRow[],
  form: typeof IN_TABLE,
): Promise<{ rubric: RubricRow | undefined; rows: StaffTableRow[]; openUntil: Date | null }>;
async function readRows(
  ctx: AppContext,
  viewer: UserRow,
  scope: QuestionScope,
  rows: readonly SubmissionListRow[],
  form: typeof IN_FULL | typeof IN_TABLE,
) {
  const ids = rows.map((row) => row.submission.id);
  const [rubric, grades, runs, extractions, reopened, work] = await Promise.all([
    selectRubricByQuestionId(ctx.db, scope.question.id),
    selectCountingGradesWithRuns(ctx.db, form.grades, ids),
    selectLatestRuns(ctx.db, form.runs, ids),
    selectFileExtractions(
      ctx.db,
      form.extractions,
      rows.map((row) => row.submission.fileId),
    ),
    readReopenedStudents(ctx, scope, rows),
    readGradingWork(
      ctx,
      scope,
      viewer,
      rows.map((row) => ({ submissionId: row.submission.id })),
    ),
  ]);
  return { rubric, rows: joinRows(rows, { grades, runs, extractions, reopened, work }), openUntil: work.openUntil };
}

/** The students among the rows' for whom the question is reopened (shared/resubmission.ts). */
async function readReopenedStudents(
  ctx: AppContext,
  scope: QuestionScope,
  rows: readonly SubmissionListRow[],
): Promise<Set<string>> {
  const studentIds = rows.map((row) => row.submission.studentId);
  const lifecycle = await selectNewestGradesAndReopeningsOfStudents(ctx.db, scope.question.id, studentIds);
  return new Set(
    studentIds.filter((studentId) =>
      isReopened({
        newestGradeAt: lifecycle.newestGradeAt.get(studentId) ?? null,
        newestReopeningAt: lifecycle.newestReopeningAt.get(studentId) ?? null,
      }),
    ),
  );
}

/** Each row with what was read of it, found by its submission, its file and its student. */
function joinRows<Counting, Run, Extraction>(
  rows: readonly SubmissionListRow[],
  read: {
    grades: Map<string, Counting>;
    runs: LatestRuns<Run>;
    extractions: Map<string, Extraction>;
    reopened: Set<string>;
    work: GradingWork;
  },
) {
  return rows.map((row) => ({
    row,
    counting: read.grades.get(row.submission.id),
    latestRun: read.runs.latest.get(row.submission.id),
    latestSucceededRun: read.runs.latestSucceeded.get(row.submission.id),
    extraction: read.extractions.get(row.submission.fileId),
    isReopened: read.reopened.has(row.submission.studentId),
    work: read.work.of({ studentId: row.student.id, submissionId: row.submission.id }),
  }));
}
