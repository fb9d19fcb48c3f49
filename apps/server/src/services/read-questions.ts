import type { GradingWorkFields } from '@gradewise/shared/contracts/work-split';
import type { AppContext } from '../context.ts';
import { selectQuestionsOfAssignment, type QuestionRow } from '../models/questions.ts';
import {
  selectLatestSubmissionOfStudent,
  selectLatestSubmissionsPerStudent,
  selectSubmissionListRowsByIds,
  selectSubmissionVersions,
  type SubmissionListRow,
} from '../models/submissions.ts';
import type { RubricRow } from '../models/rubrics.ts';
import type { UserRow } from '../models/users.ts';
import {
  loadVisibleAssignment,
  loadVisibleSubmission,
  mayGrade,
  mayManage,
  requireGrader,
  type QuestionScope,
  type SubmissionScope,
} from '../policies/course-access.ts';
import { hasGradeOnQuestion } from '../models/grades.ts';
import { countGradeAllCandidatesAndAnyGrade } from '../models/grading-targets.ts';
import { readStudentIdentities, type StudentIdentities } from './anonymous-grading.ts';
import {
  readQuestionGradingForStaff,
  readQuestionTableGradingForStaff,
  readSubmissionGradesForStudent,
  type StaffSubmissionGrading,
  type StudentSubmissionGrade,
  type TableGradingShape,
  type WholeGradingShape,
} from './read-grading.ts';
import { readClassOrder } from './class-order.ts';
import { readGradingWork, type GradingWork } from './work-split.ts';

export async function listQuestionsFor(ctx: AppContext, user: UserRow, assignmentId: string): Promise<QuestionRow[]> {
  const { assignment } = await loadVisibleAssignment(ctx.db, user, assignmentId);
  return selectQuestionsOfAssignment(ctx.db, assignment.id);
}

/** Which of the caller's submissions a read answers: all, one page of them, or one by id. */
export interface SubmissionsSelection {
  paging?: SubmissionsPaging;
  /** The grading screen's own submission (decision 0046): the list narrowed to that one row. */
  submissionId?: string;
}

/**
 * Staff see the latest submission of every student who answered, in the order staff lists use (by
 * name, or by label when anonymous: its order says nothing of names). A page orders and counts the
 * class from its keys alone (kept while the class is unchanged, services/class-order.ts) and reads
 * full rows for the page only; one submission by id is read alone, and only while it is its
 * student's latest version (as it would appear in the list).
 */
async function loadStaffRows(
  ctx: AppContext,
  scope: QuestionScope,
  selection: SubmissionsSelection,
): Promise<{ rows: SubmissionListRow[]; identities: StudentIdentities; total: number }> {
  const { assignment, question } = scope;
  if (selection.submissionId !== undefined) {
    const found = await selectSubmissionListRowsByIds(ctx.db, question.id, [selection.submissionId]);
    const rows = found.filter((row) => row.isLatest);
    const identities = await readStudentIdentities(
      ctx,
      assignment,
      rows.map((row) => row.student.id),
    );
    return { rows, identities, total: rows.length };
  }
  if (selection.paging) {
    const { offset, limit } = selection.paging;
    const { keys, identities } = await readClassOrder(ctx, scope);
    const pageIds = keys.slice(offset, offset + limit).map((key) => key.submissionId);
    // A version uploaded between the two reads shows on the next read; this one shows the row it ordered.
    const byId = new Map(
      (await selectSubmissionListRowsByIds(ctx.db, question.id, pageIds)).map((row) => [row.submission.id, row]),
    );
    return { rows: pageIds.flatMap((id) => byId.get(id) ?? []), identities, total: keys.length };
  }
  const all = await selectLatestSubmissionsPerStudent(ctx.db, question.id);
  const identities = await readStudentIdentities(
    ctx,
    assignment,
    all.map((row) => row.student.id),
  );
  return { rows: all.sort((a, b) => identities.compare(a.student, b.student)), identities, total: all.length };
}

/** A student sees only their own latest submission (spec section 5), never a classmate's. */
async function loadOwnRows(
  ctx: AppContext,
  user: UserRow,
  scope: QuestionScope,
  selection: SubmissionsSelection,
): Promise<SubmissionListRow[]> {
  const own = await selectLatestSubmissionOfStudent(ctx.db, scope.question.id, user.id);
  if (!own || (selection.submissionId !== undefined && own.submission.id !== selection.submissionId)) return [];
  return [own];
}

/** One staff row of the question page: the submission, its grading and whose share it is. */
export interface StaffQuestionRow<Shape extends WholeGradingShape | TableGradingShape = WholeGradingShape> {
  row: SubmissionListRow;
  grading: StaffSubmissionGrading<Shape>;
  work: GradingWorkFields;
}

/** A row of one page of the staff table: read without comments and answer text (decision 0057). */
export type StaffTableRow = StaffQuestionRow<TableGradingShape>;

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
      /** In the order staff lists use (by name, or by label when anonymous). Any read but a paged one. */
      submissions?: StaffQuestionRow[];
      /** With `submissions`: when the first answer shown as open stops being open (a lease lapses), if any. */
      openUntil?: Date | null;
      /** A paged read: its rows, as the table shows them (decision 0057), and where they sit. */
      page?: SubmissionsPageView & { rows: StaffTableRow[] };
    }
  | { viewer: 'student'; scope: QuestionScope; submissions?: StudentQuestionRow[]; page?: SubmissionsPageView };

/**
 * `includeSubmissions`: the whole list, or with `paging` one page of it (decision 0042), or with
 * `submissionId` that one row (decision 0046). The grading reads (grades, runs, extractions), the
 * work split's leases and the presenting are for the rows answered only. A page still orders and
 * counts the whole class (from its keys), and says whether any answer is graded and what Grade All
 * has left, since the table shows those whatever the page. `scope` is the question as the caller
 * may see it (`loadVisibleQuestion`), loaded first by the route, which may answer the whole staff
 * list from what it kept (services/kept-question-lists.ts) without coming here.
 */
export async function readQuestionDetail(
  ctx: AppContext,
  user: UserRow,
  scope: QuestionScope,
  includeSubmissions: boolean,
  selection: SubmissionsSelection = {},
): Promise<QuestionDetailView> {
  const { paging } = selection;
  if (mayGrade(scope.role)) {
    const { rows, identities, total } = includeSubmissions
      ? await loadStaffRows(ctx, scope, selection)
      : { rows: [], identities: await readStudentIdentities(ctx, scope.assignment, []), total: 0 };
    const submissionRows = rows.map((row) => row.submission);
    const readWork = () =>
      readGradingWork(
        ctx,
        scope,
        user,
        rows.map((row) => ({ submissionId: row.submission.id })),
      );
    const staffRows = <Shape extends WholeGradingShape | TableGradingShape>(
      bySubmission: Map<string, StaffSubmissionGrading<Shape>>,
      work: GradingWork,
    ): StaffQuestionRow<Shape>[] =>
      rows.map((row) => ({
        row,
        grading: bySubmission.get(row.submission.id)!,
        work: work.of({ studentId: row.student.id, submissionId: row.submission.id }),
      }));
    if (paging) {
      // A page (always with its submissions): table rows, whose runs are read without comments.
      const [grading, work, summary] = await Promise.all([
        readQuestionTableGradingForStaff(ctx, scope.question.id, submissionRows),
        readWork(),
        readStaffPageSummary(ctx, scope, paging, total),
      ]);
      const page = { ...summary, rows: staffRows(grading.bySubmission, work) };
      return { viewer: 'staff', scope, rubric: grading.rubric, identities, page };
    }
    const [grading, work] = await Promise.all([
      readQuestionGradingForStaff(ctx, scope.question.id, submissionRows),
      includeSubmissions ? readWork() : undefined,
    ]);
    if (!work) return { viewer: 'staff', scope, rubric: grading.rubric, identities };
    const submissions = staffRows(grading.bySubmission, work);
    return { viewer: 'staff', scope, rubric: grading.rubric, identities, submissions, openUntil: work.openUntil };
  }
  const listed = includeSubmissions ? await loadOwnRows(ctx, user, scope, selection) : undefined;
  const all = listed ?? [];
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
  // Only the owner has Grade All (decision 0021); a TA's page does not pay for the count.
  if (!mayManage(scope.role))
    return { ...paging, total, anyGraded: await hasGradeOnQuestion(ctx.db, scope.question.id) };
  const { left, anyGraded } = await countGradeAllCandidatesAndAnyGrade(ctx.db, scope.question.id);
  return { ...paging, total, anyGraded, leftForGradeAll: left };
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
