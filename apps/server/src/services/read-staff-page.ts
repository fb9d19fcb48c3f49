import type { AppContext } from '../context.ts';
import { hasGradeOnQuestion } from '../models/grades.ts';
import { countGradeAllCandidatesAndAnyGrade } from '../models/grading-targets.ts';
import type { RubricRow } from '../models/rubrics.ts';
import { selectSubmissionListRowsByIds } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import { mayManage, type QuestionScope } from '../policies/course-access.ts';
import type { StudentIdentities } from './anonymous-grading.ts';
import { readClassOrder } from './class-order.ts';
import type { SubmissionsPageView, SubmissionsPaging } from './read-questions.ts';
import { readStaffTableRows, type StaffTableRow } from './read-staff-rows.ts';

/**
 * GET .../questions/:questionId?includeSubmissions=1&offset=&limit= for staff: one page of the
 * staff table (decisions 0042, 0057, 0084), its rows as the table shows them, and where they sit.
 */
export interface StaffPageView {
  scope: QuestionScope;
  rubric: RubricRow | undefined;
  page: SubmissionsPageView;
  rows: StaffTableRow[];
  identities: StudentIdentities;
}

/**
 * `limit` rows from `offset`, in the table's order. The page orders and counts the class from its
 * keys alone (kept while the class is unchanged, services/class-order.ts) and reads full rows for
 * the page only; it still says whether any answer is graded and what Grade All has left, since the
 * table shows those whatever the page.
 */
export async function readStaffPage(
  ctx: AppContext,
  user: UserRow,
  scope: QuestionScope,
  paging: SubmissionsPaging,
): Promise<StaffPageView> {
  const { offset, limit } = paging;
  const { keys, identities } = await readClassOrder(ctx, scope);
  const pageIds = keys.slice(offset, offset + limit).map((key) => key.submissionId);
  // A version uploaded between the two reads shows on the next read; this one shows the row it ordered.
  const byId = new Map(
    (await selectSubmissionListRowsByIds(ctx.db, scope.question.id, pageIds)).map((row) => [row.submission.id, row]),
  );
  const listed = pageIds.flatMap((id) => byId.get(id) ?? []);
  const [{ rubric, rows }, page] = await Promise.all([
    readStaffTableRows(ctx, user, scope, listed),
    readPageSummary(ctx, scope, paging, keys.length),
  ]);
  return { scope, rubric, page, rows, identities };
}

async function readPageSummary(
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
