import { canResubmit } from '@gradewise/shared/resubmission';
import type { AppContext } from '../context.ts';
import { EXTRACTION_LISTED, selectFileExtractions, type FileExtractionListRow } from '../models/file-extractions.ts';
import { selectCountingGrades, selectNewestGradeAtOfAnswer, type CountingGrade } from '../models/grades.ts';
import { selectNewestReopeningAt } from '../models/submission-reopenings.ts';
import { selectLatestSubmissionOfStudent, type SubmissionListRow } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import type { QuestionScope } from '../policies/course-access.ts';
import { isGradeReleased } from '../policies/grade-release.ts';
import type { SubmissionsPageView, SubmissionsSelection } from './read-questions.ts';

/** A student's own row of the question page: their submission and its grade as they may see it. */
export interface OwnQuestionRow {
  row: SubmissionListRow;
  /** The grade that counts for the row, only when it is released to the student. */
  released: CountingGrade | undefined;
  /** A grade is saved but held (policies/grade-release.ts): the row reads "not graded". */
  gradeWithheld: boolean;
  /** Whether a new version would be accepted now. */
  canResubmit: boolean;
  extraction: FileExtractionListRow | undefined;
}

/**
 * GET .../questions/:questionId for a caller who may not grade (decision 0084): the question, and
 * when asked for, their own latest submission (spec section 5), never a classmate's. `submissions`
 * only when asked for; `page` only when paged.
 */
export interface OwnQuestionView {
  scope: QuestionScope;
  submissions?: OwnQuestionRow[];
  page?: SubmissionsPageView;
}

/**
 * The question as its student reads it: with `includeSubmissions`, their own latest submission, or
 * that one row when `submissionId` names it, or a page of that list. Each row carries the saved
 * grade only (its own or an earlier version's), nothing of the AI's draft, and whether a new
 * version would be accepted now; and where reading their file's text stands (as their submit
 * answer said), so a file that cannot be read is told to them.
 */
export async function readOwnQuestion(
  ctx: AppContext,
  user: UserRow,
  scope: QuestionScope,
  includeSubmissions: boolean,
  selection: SubmissionsSelection = {},
): Promise<OwnQuestionView> {
  if (!includeSubmissions) return { scope };
  const { paging, submissionId } = selection;
  const own = await selectLatestSubmissionOfStudent(ctx.db, scope.question.id, user.id);
  const all = !own || (submissionId !== undefined && own.submission.id !== submissionId) ? [] : [own];
  const read = await readOwnRows(ctx, scope, all);
  // A student's list is their own latest submission or nothing: a page of it is the list itself.
  if (!paging) return { scope, submissions: read };
  const page = { ...paging, total: all.length, anyGraded: read.some((row) => Boolean(row.released)) };
  return { scope, submissions: read.slice(paging.offset, paging.offset + paging.limit), page };
}

async function readOwnRows(
  ctx: AppContext,
  { assignment, question }: QuestionScope,
  rows: readonly SubmissionListRow[],
): Promise<OwnQuestionRow[]> {
  const [grades, extractions] = await Promise.all([
    selectCountingGrades(
      ctx.db,
      rows.map((row) => row.submission.id),
    ),
    selectFileExtractions(
      ctx.db,
      EXTRACTION_LISTED,
      rows.map((row) => row.submission.fileId),
    ),
  ]);
  // A held grade is not there for its student (policies/grade-release.ts): the row reads "not graded".
  const isReleased = isGradeReleased(assignment, question);
  return Promise.all(
    rows.map(async (row) => {
      const saved = grades.get(row.submission.id);
      const [newestGradeAt, newestReopeningAt] = await Promise.all([
        selectNewestGradeAtOfAnswer(ctx.db, question.id, row.submission.studentId),
        selectNewestReopeningAt(ctx.db, question.id, row.submission.studentId),
      ]);
      return {
        row,
        released: isReleased ? saved : undefined,
        gradeWithheld: Boolean(saved) && !isReleased,
        canResubmit: canResubmit({
          allowsResubmission: assignment.allowsResubmission,
          newestGradeAt,
          newestReopeningAt,
        }),
        extraction: extractions.get(row.submission.fileId),
      };
    }),
  );
}
