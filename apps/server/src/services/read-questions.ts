import type { AppContext } from '../context.ts';
import { selectQuestionsOfAssignment, type QuestionRow } from '../models/questions.ts';
import { selectSubmissionVersions, type SubmissionListRow } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import {
  loadVisibleAssignment,
  loadVisibleSubmission,
  requireGrader,
  type SubmissionScope,
} from '../policies/course-access.ts';

export async function listQuestionsFor(ctx: AppContext, user: UserRow, assignmentId: string): Promise<QuestionRow[]> {
  const { assignment } = await loadVisibleAssignment(ctx.db, user, assignmentId);
  return selectQuestionsOfAssignment(ctx.db, assignment.id);
}

/*
 * GET .../questions/:questionId is read by one service per mode (decision 0084), each with its own
 * view: read-whole-question.ts (staff, the whole list or none), read-staff-page.ts (a page of the
 * staff table), read-staff-row.ts (the grading screen's one row) and read-own-question.ts (a
 * student's own); the types they share are here.
 */

/** Which of the caller's submissions a read answers: all, one page of them, or one by id. */
export interface SubmissionsSelection {
  paging?: SubmissionsPaging;
  /** The grading screen's own submission (decision 0046): the list narrowed to that one row. */
  submissionId?: string;
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
