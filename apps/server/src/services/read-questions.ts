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
  mayManage,
  requireGrader,
  type QuestionScope,
  type SubmissionScope,
} from '../policies/course-access.ts';
import { hasGradeOnQuestion } from '../models/grades.ts';
import { readStudentIdentities, type StudentIdentities } from './anonymous-grading.ts';
import { selectGradeAllCandidates } from './grade-all.ts';
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

/** One page of the submissions list: `limit` rows from `offset`, in the table's order. */
export interface SubmissionsPaging {
  offset: number;
  limit: number;
}

/** What a paged read says beside its page (contract: SubmissionsPage). */
export interface SubmissionsPageView extends SubmissionsPaging {
  total: number;
  anyGraded: boolean;
  leftForGradeAll?: number;
}

/**
 * What GET .../questions/:questionId answers, as read for the caller's role; the route presents it
 * (presenters/question-presenter.ts). `submissions` only when asked for; `page` only when paged.
 */
export type QuestionDetailView =
  | {
      viewer: 'staff';
      scope: QuestionScope;
      rubric: RubricRow | undefined;
      identities: StudentIdentities;
      /** In the order staff lists use (by name, or by label when anonymous). */
      submissions?: StaffQuestionRow[];
      page?: SubmissionsPageView;
    }
  | { viewer: 'student'; scope: QuestionScope; submissions?: StudentQuestionRow[]; page?: SubmissionsPageView };

/**
 * `includeSubmissions`: the whole list, or with `paging` one page of it (decision 0042). The grading
 * reads (grades, runs, extractions) and the presenting are for the page's rows only. Still read for
 * the whole question: every student's latest submission (the order and the total), whose share
 * each answer is (the work split), whether any is graded and what Grade All has left, since the
 * table shows those whatever the page.
 */
export async function readQuestionDetail(
  ctx: AppContext,
  user: UserRow,
  assignmentId: string,
  questionId: string,
  includeSubmissions: boolean,
  paging?: SubmissionsPaging,
): Promise<QuestionDetailView> {
  const scope = await loadVisibleQuestion(ctx.db, user, assignmentId, questionId);
  const listed = includeSubmissions ? await loadQuestionSubmissions(ctx, user, scope) : undefined;
  const all = listed ?? [];
  if (mayGrade(scope.role)) {
    const identities = await readStudentIdentities(
      ctx,
      scope.assignment,
      all.map((row) => row.student.id),
    );
    // Rows come by name; an anonymous list goes by label, so its order says nothing of names.
    const ordered = [...all].sort((a, b) => identities.compare(a.student, b.student));
    const rows = paging ? ordered.slice(paging.offset, paging.offset + paging.limit) : ordered;
    const [grading, workOf, page] = await Promise.all([
      readQuestionGradingForStaff(
        ctx,
        scope.question.id,
        rows.map((row) => row.submission),
      ),
      // Whose share an answer is depends on the whole class (work-split.ts): every row's student.
      listed
        ? readGradingWork(
            ctx,
            scope,
            user,
            ordered.map((row) => ({ student: row.student, submissionId: row.submission.id })),
          )
        : undefined,
      paging ? readStaffPageSummary(ctx, scope, paging, ordered.length) : undefined,
    ]);
    const submissions = workOf
      ? rows.map((row) => ({
          row,
          grading: grading.bySubmission.get(row.submission.id)!,
          work: workOf({ studentId: row.student.id, submissionId: row.submission.id }),
        }))
      : undefined;
    return { viewer: 'staff', scope, rubric: grading.rubric, identities, submissions, page };
  }
  // A student's list is their own latest submission or nothing: a page of it is the list itself.
  const rows = paging ? all.slice(paging.offset, paging.offset + paging.limit) : all;
  const grades = await readSubmissionGradesForStudent(
    ctx,
    scope,
    all.map((row) => row.submission),
  );
  const submissions = listed ? rows.map((row) => ({ row, grade: grades.get(row.submission.id)! })) : undefined;
  const page = paging
    ? { ...paging, total: all.length, anyGraded: all.some((row) => Boolean(grades.get(row.submission.id)?.released)) }
    : undefined;
  return { viewer: 'student', scope, submissions, page };
}

async function readStaffPageSummary(
  ctx: AppContext,
  scope: QuestionScope,
  paging: SubmissionsPaging,
  total: number,
): Promise<SubmissionsPageView> {
  const [anyGraded, leftForGradeAll] = await Promise.all([
    hasGradeOnQuestion(ctx.db, scope.question.id),
    // Only the owner has Grade All (decision 0021); a TA's page does not pay for the count.
    mayManage(scope.role) ? selectGradeAllCandidates(ctx, scope.question.id) : undefined,
  ]);
  return { ...paging, total, anyGraded, ...(leftForGradeAll ? { leftForGradeAll: leftForGradeAll.length } : {}) };
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
