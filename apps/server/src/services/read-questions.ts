import type { GradingWorkFields } from '@gradewise/shared/contracts/work-split';
import type { AppContext } from '../context.ts';
import { selectQuestionsOfAssignment, type QuestionRow } from '../models/questions.ts';
import {
  selectLatestSubmissionOfStudent,
  selectLatestSubmissionsPerStudent,
  selectSubmissionVersions,
  type SubmissionListRow,
} from '../models/submissions.ts';
import type { RubricRow } from '../models/rubrics.ts';
import type { UserRow } from '../models/users.ts';
import {
  loadVisibleAssignment,
  loadVisibleQuestion,
  loadVisibleSubmission,
  mayGrade,
  requireGrader,
  type QuestionScope,
  type SubmissionScope,
} from '../policies/course-access.ts';
import { readStudentIdentities, type StudentIdentities } from './anonymous-grading.ts';
import {
  readQuestionGradingForStaff,
  readSubmissionGradesForStudent,
  type StaffSubmissionGrading,
  type StudentSubmissionGrade,
} from './read-grading.ts';
import { readGradingWork } from './work-split.ts';

export async function listQuestionsFor(ctx: AppContext, user: UserRow, assignmentId: string): Promise<QuestionRow[]> {
  const { assignment } = await loadVisibleAssignment(ctx.db, user, assignmentId);
  return selectQuestionsOfAssignment(ctx.db, assignment.id);
}

/**
 * Only when asked for. Staff (owner and TAs) get the latest submission of every student; a student gets
 * only their own latest one (spec section 5), never a classmate's.
 */
async function loadQuestionSubmissions(
  ctx: AppContext,
  user: UserRow,
  scope: QuestionScope,
): Promise<SubmissionListRow[]> {
  if (mayGrade(scope.role)) return selectLatestSubmissionsPerStudent(ctx.db, scope.question.id);
  const own = await selectLatestSubmissionOfStudent(ctx.db, scope.question.id, user.id);
  return own ? [own] : [];
}

/** One staff row of the question page: the submission, its grading and whose share it is. */
export interface StaffQuestionRow {
  row: SubmissionListRow;
  grading: StaffSubmissionGrading;
  work: GradingWorkFields;
}

/** One student row of the question page: their own submission and its grade as they may see it. */
export interface StudentQuestionRow {
  row: SubmissionListRow;
  grade: StudentSubmissionGrade;
}

/**
 * What GET .../questions/:questionId answers, as read for the caller's role; the route presents it
 * (presenters/question-presenter.ts). `submissions` only when asked for.
 */
export type QuestionDetailView =
  | {
      viewer: 'staff';
      scope: QuestionScope;
      rubric: RubricRow | undefined;
      identities: StudentIdentities;
      /** In the order staff lists use (by name, or by label when anonymous). */
      submissions?: StaffQuestionRow[];
    }
  | { viewer: 'student'; scope: QuestionScope; submissions?: StudentQuestionRow[] };

export async function readQuestionDetail(
  ctx: AppContext,
  user: UserRow,
  assignmentId: string,
  questionId: string,
  includeSubmissions: boolean,
): Promise<QuestionDetailView> {
  const scope = await loadVisibleQuestion(ctx.db, user, assignmentId, questionId);
  const listed = includeSubmissions ? await loadQuestionSubmissions(ctx, user, scope) : undefined;
  const rows = listed ?? [];
  if (mayGrade(scope.role)) {
    const grading = await readQuestionGradingForStaff(
      ctx,
      scope.question.id,
      rows.map((row) => row.submission),
    );
    const identities = await readStudentIdentities(
      ctx,
      scope.assignment,
      rows.map((row) => row.student.id),
    );
    const workOf = listed
      ? await readGradingWork(
          ctx,
          scope,
          user,
          rows.map((row) => ({ student: row.student, submissionId: row.submission.id })),
        )
      : undefined;
    // Rows come by name; an anonymous list goes by label, so its order says nothing of names.
    const submissions = workOf
      ? [...rows]
          .sort((a, b) => identities.compare(a.student, b.student))
          .map((row) => ({
            row,
            grading: grading.bySubmission.get(row.submission.id)!,
            work: workOf({ studentId: row.student.id, submissionId: row.submission.id }),
          }))
      : undefined;
    return { viewer: 'staff', scope, rubric: grading.rubric, identities, submissions };
  }
  const grades = await readSubmissionGradesForStudent(
    ctx,
    scope,
    rows.map((row) => row.submission),
  );
  const submissions = listed?.map((row) => ({ row, grade: grades.get(row.submission.id)! }));
  return { viewer: 'student', scope, submissions };
}

/** Staff only: every version of the student's answer that `submissionId` belongs to, newest first. */
export async function loadSubmissionVersions(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string; submissionId: string },
): Promise<{ scope: SubmissionScope; versions: SubmissionListRow[] }> {
  const scope = await loadVisibleSubmission(ctx.db, user, params.assignmentId, params.questionId, params.submissionId);
  requireGrader(scope, 'see earlier versions of a submission');
  return { scope, versions: await selectSubmissionVersions(ctx.db, scope.question.id, scope.submission.studentId) };
}
