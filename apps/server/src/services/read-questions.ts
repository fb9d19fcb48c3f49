import type { AppContext } from '../context.ts';
import { selectQuestionsOfAssignment, type QuestionRow } from '../models/questions.ts';
import {
  selectLatestSubmissionOfStudent,
  selectLatestSubmissionsPerStudent,
  selectSubmissionVersions,
  type SubmissionListRow,
} from '../models/submissions.ts';
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

export async function listQuestionsFor(ctx: AppContext, user: UserRow, assignmentId: string): Promise<QuestionRow[]> {
  const { assignment } = await loadVisibleAssignment(ctx.db, user, assignmentId);
  return selectQuestionsOfAssignment(ctx.db, assignment.id);
}

export interface QuestionDetail {
  scope: QuestionScope;
  /**
   * Only when asked for. Staff (owner and TAs) get the latest submission of every student; a student gets
   * only their own latest one (spec section 5), never a classmate's.
   */
  submissions?: SubmissionListRow[];
}

export async function loadQuestionDetail(
  ctx: AppContext,
  user: UserRow,
  assignmentId: string,
  questionId: string,
  includeSubmissions: boolean,
): Promise<QuestionDetail> {
  const scope = await loadVisibleQuestion(ctx.db, user, assignmentId, questionId);
  if (!includeSubmissions) return { scope };
  if (mayGrade(scope.role))
    return { scope, submissions: await selectLatestSubmissionsPerStudent(ctx.db, scope.question.id) };
  const own = await selectLatestSubmissionOfStudent(ctx.db, scope.question.id, user.id);
  return { scope, submissions: own ? [own] : [] };
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
