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
import type {
  QuestionDetailView,
  StaffQuestionRow,
  StaffTableRow,
  StudentQuestionRow,
  SubmissionsPageView,
} from '../services/read-questions.ts';
import type { StudentIdentities } from '../services/anonymous-grading.ts';
import type { TableGradingShape, WholeGradingShape } from '../services/read-grading.ts';
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

/**
 * GET .../questions/:questionId, for the role the service read it for. A paged read answers a
 * QuestionPage: staff rows as the table shows them (decision 0057); every other read a QuestionDetail.
 */
export function presentQuestionDetail(
  detail: QuestionDetailView,
  signer: FileUrlSigner,
): QuestionDetail | QuestionPage {
  if (detail.viewer === 'student') {
    const submissions = detail.submissions?.map((row) => presentStudentQuestionRow(row, signer));
    return { ...presentQuestionForStudent(detail.scope, signer, submissions), ...presentPage(detail.page) };
  }
  const { assignment, question } = detail.scope;
  const autoRubric = presentAutoRubric(detail.rubric);
  const gradeRelease = presentQuestionRelease(assignment, question);
  if (detail.page) {
    const { rows, ...page } = detail.page;
    return {
      ...presentQuestionForStaff(detail.scope, signer, undefined, autoRubric),
      gradeRelease,
      submissions: rows.map((row) => presentStaffTableRow(row, signer, detail.identities)),
      ...presentPage(page),
    };
  }
  const rubricItems = detail.rubric?.items ?? [];
  const submissions = detail.submissions?.map((row) =>
    presentStaffQuestionRow(row, signer, detail.identities, rubricItems),
  );
  return { ...presentQuestionForStaff(detail.scope, signer, submissions, autoRubric), gradeRelease };
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
  return presentStaffRow(row, signer, identities, (grading) => presentSubmissionGrading({ ...grading, rubricItems }));
}

/** A row of one page of the staff table: the same fields but the answer's text, comments and findings. */
function presentStaffTableRow(
  row: StaffTableRow,
  signer: FileUrlSigner,
  identities: StudentIdentities,
): QuestionTableRowForStaff {
  return presentStaffRow(row, signer, identities, (grading) =>
    presentTableRowGrading({ ...grading, hasHiddenText: grading.extraction?.hasHiddenText ?? false }),
  );
}

/**
 * One staff row, whole or as the table shows it: the submission, its grading fields (presented in
 * the row's shape by `presentGrading`, from what was read), its grade's lifecycle, whether it is
 * reopened and whose share of the work it is.
 */
function presentStaffRow<Shape extends WholeGradingShape | TableGradingShape, GradingFields extends object>(
  { row, grading, work }: StaffQuestionRow<Shape>,
  signer: FileUrlSigner,
  identities: StudentIdentities,
  presentGrading: (read: {
    grade: Shape['grade'] | undefined;
    latestRun: Shape['run'] | undefined;
    latestSucceededRun: Shape['run'] | undefined;
    gradeRun: Shape['run'] | undefined;
    isGradeOnEarlierVersion: boolean;
    extraction: Shape['extraction'] | undefined;
  }) => GradingFields,
) {
  const { counting } = grading;
  return {
    ...presentSubmissionForStaff(row, signer, identities),
    ...presentGrading({
      grade: counting?.grade,
      latestRun: grading.latestRun,
      latestSucceededRun: grading.latestSucceededRun,
      gradeRun: grading.gradeRun,
      isGradeOnEarlierVersion: counting?.isEarlierVersion ?? false,
      extraction: grading.extraction,
    }),
    ...presentGradeLifecycle(counting),
    isReopened: grading.isReopened,
    ...work,
  };
}

/** Only the saved grade that is released to them, nothing of the AI's draft. */
function presentStudentQuestionRow(
  { row, grade }: StudentQuestionRow,
  signer: FileUrlSigner,
): QuestionSubmissionForStudent {
  const { released } = grade;
  return {
    ...presentSubmissionForStudent(row, signer),
    grade: released ? released.grade.grade : null,
    isAlreadyGraded: Boolean(released),
    ...presentGradeLifecycle(released),
    canResubmit: grade.canResubmit,
    ...presentExtractionState(grade.extraction),
    gradeWithheld: grade.gradeWithheld,
  };
}
