import type { AutoRubric, RubricItem } from '@gradewise/shared/contracts/grading';
import type {
  QuestionDetail,
  QuestionForStaff,
  QuestionForStudent,
  QuestionPage,
  QuestionSubmissionForStaff,
  QuestionSubmissionForStudent,
  QuestionSummary,
  QuestionTableRowForStaff,
  SubmissionsPage,
} from '@gradewise/shared/contracts/questions';
import type { QuestionRow } from '../models/questions.ts';
import { mayGrade, type QuestionScope } from '../policies/course-access.ts';
import type { RubricRow } from '../models/rubrics.ts';
import type { StudentIdentities } from '../services/anonymous-grading.ts';
import type { OwnQuestionRow, OwnQuestionView } from '../services/read-own-question.ts';
import type { SubmissionsPageView } from '../services/read-questions.ts';
import type { StaffPageView } from '../services/read-staff-page.ts';
import type { StaffRowView } from '../services/read-staff-row.ts';
import type { StaffQuestionRow, StaffTableRow } from '../services/read-staff-rows.ts';
import type { WholeQuestionView } from '../services/read-whole-question.ts';
import type { FileUrlSigner } from '../storage/file-url-signer.ts';
import { presentQuestionRelease } from './grade-release-presenter.ts';
import {
  presentAutoRubric,
  presentGradeLifecycle,
  presentSubmissionGrading,
  presentTableRowGrading,
} from './grading-presenter.ts';
import {
  presentExtractionState,
  presentSubmissionForStaff,
  presentSubmissionForStudent,
} from './submission-presenter.ts';

/**
 * Question rows -> contract outputs. The staff view is the only one that ever signs the solution
 * file; the student view has no field for it at all. Submissions arrive already presented for the
 * same role, grading fields included (presenters/grading-presenter.ts); the rubric is staff-only.
 */
export function presentQuestionSummary(question: QuestionRow): QuestionSummary {
  return {
    _id: question.id,
    title: question.title,
    points: question.points,
    createdAt: question.createdAt.toISOString(),
  };
}

function presentQuestionBase({ question, assignment, course }: QuestionScope, signer: FileUrlSigner) {
  return {
    ...presentQuestionSummary(question),
    assignment: { _id: assignment.id, title: assignment.title },
    course: { _id: course.id, title: course.title },
    questionFile: signer.urlFor(question.questionFileId),
  };
}

export function presentQuestionForStaff(
  scope: QuestionScope,
  signer: FileUrlSigner,
  submissions?: QuestionSubmissionForStaff[],
  autoRubric: AutoRubric = [],
): QuestionForStaff {
  return {
    ...presentQuestionBase(scope, signer),
    viewer: 'staff',
    ...(mayGrade(scope.role) ? { staffRole: scope.role } : {}),
    solutionFile: scope.question.solutionFileId ? signer.urlFor(scope.question.solutionFileId) : null,
    autoRubric,
    // Staff only (a student's view never has it): what the grader's comments may say (decision 0088).
    showExpectedAnswer: scope.question.showExpectedAnswer,
    ...(submissions ? { submissions } : {}),
  };
}

export function presentQuestionForStudent(
  scope: QuestionScope,
  signer: FileUrlSigner,
  submissions?: QuestionSubmissionForStudent[],
): QuestionForStudent {
  return { ...presentQuestionBase(scope, signer), viewer: 'student', ...(submissions ? { submissions } : {}) };
}

/*
 * GET .../questions/:questionId, one presenter per mode the route read it in (decision 0084): the
 * whole question for staff, the grading screen's one row, a page of the staff table (a QuestionPage,
 * rows as the table shows them, decision 0057), and a student's own.
 */

/** The question for staff, with the spec's whole list when it was read: every field of every row. */
export function presentWholeQuestion(view: WholeQuestionView, signer: FileUrlSigner): QuestionDetail {
  const { list } = view;
  const rubricItems = view.rubric?.items ?? [];
  const submissions = list?.rows.map((row) => presentStaffQuestionRow(row, signer, list.identities, rubricItems));
  return presentQuestionWithRubric(view, signer, submissions);
}

/** The question for the grading screen, with its one submission as the whole list shows it (decision 0046). */
export function presentStaffRow(view: StaffRowView, signer: FileUrlSigner): QuestionDetail {
  const rubricItems = view.rubric?.items ?? [];
  const submissions = view.row ? [presentStaffQuestionRow(view.row, signer, view.identities, rubricItems)] : [];
  return presentQuestionWithRubric(view, signer, submissions);
}

/** One page of the staff table: rows without the answer's text, comments and findings, and where they sit. */
export function presentStaffPage(view: StaffPageView, signer: FileUrlSigner): QuestionPage {
  return {
    ...presentQuestionWithRubric(view, signer, undefined),
    submissions: view.rows.map((row) => presentStaffTableRow(row, signer, view.identities)),
    ...presentPage(view.page),
  };
}

/** The question as a student sees it, with their own row when it was read; a QuestionPage when paged. */
export function presentOwnQuestion(view: OwnQuestionView, signer: FileUrlSigner): QuestionDetail | QuestionPage {
  const submissions = view.submissions?.map((row) => presentOwnQuestionRow(row, signer));
  return { ...presentQuestionForStudent(view.scope, signer, submissions), ...presentPage(view.page) };
}

/** The staff question with its automatic rubric and grade release, and the rows given, if any. */
function presentQuestionWithRubric(
  { scope, rubric }: { scope: QuestionScope; rubric: RubricRow | undefined },
  signer: FileUrlSigner,
  submissions: QuestionSubmissionForStaff[] | undefined,
) {
  return {
    ...presentQuestionForStaff(scope, signer, submissions, presentAutoRubric(rubric)),
    gradeRelease: presentQuestionRelease(scope.assignment, scope.question),
  };
}

/** `submissionsPage` only on a paged read: the spec's unpaged answer keeps its fields as they were. */
function presentPage(page: SubmissionsPageView | undefined): { submissionsPage?: SubmissionsPage } {
  return page ? { submissionsPage: { ...page } } : {};
}

/** A row of the spec's whole list and of the grading screen's read: every field. */
function presentStaffQuestionRow(
  row: StaffQuestionRow,
  signer: FileUrlSigner,
  identities: StudentIdentities,
  rubricItems: readonly RubricItem[],
): QuestionSubmissionForStaff {
  return {
    ...presentSubmissionForStaff(row.row, signer, identities),
    ...presentSubmissionGrading(row, rubricItems),
    ...presentRowStanding(row),
  };
}

/** A row of one page of the staff table: the same fields but the answer's text, comments and findings. */
function presentStaffTableRow(
  row: StaffTableRow,
  signer: FileUrlSigner,
  identities: StudentIdentities,
): QuestionTableRowForStaff {
  return {
    ...presentSubmissionForStaff(row.row, signer, identities),
    ...presentTableRowGrading({ ...row, hasHiddenText: row.extraction?.hasHiddenText ?? false }),
    ...presentRowStanding(row),
  };
}

/** What every staff row shows beside its grading: its grade's lifecycle, whether it is reopened, whose share it is. */
function presentRowStanding(row: StaffQuestionRow | StaffTableRow) {
  return { ...presentGradeLifecycle(row.counting), isReopened: row.isReopened, ...row.work };
}

/** Only the saved grade that is released to them, nothing of the AI's draft. */
function presentOwnQuestionRow(row: OwnQuestionRow, signer: FileUrlSigner): QuestionSubmissionForStudent {
  const { released } = row;
  return {
    ...presentSubmissionForStudent(row.row, signer),
    grade: released ? released.grade.grade : null,
    isAlreadyGraded: Boolean(released),
    ...presentGradeLifecycle(released),
    canResubmit: row.canResubmit,
    ...presentExtractionState(row.extraction),
    gradeWithheld: row.gradeWithheld,
  };
}
