import type { AutoRubric } from '@gradewise/shared/contracts/grading';
import type {
  QuestionForStaff,
  QuestionForStudent,
  QuestionSubmissionForStaff,
  QuestionSubmissionForStudent,
  QuestionSummary,
} from '@gradewise/shared/contracts/questions';
import type { QuestionRow } from '../models/questions.ts';
import { mayGrade, type QuestionScope } from '../policies/course-access.ts';
import type { FileUrlSigner } from '../storage/file-url-signer.ts';

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
