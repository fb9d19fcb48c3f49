import type { AppContext } from '../context.ts';
import { selectRubricByQuestionId, type RubricRow } from '../models/rubrics.ts';
import { selectLatestSubmissionsPerStudent } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import type { QuestionScope } from '../policies/course-access.ts';
import { readStudentIdentities, type StudentIdentities } from './anonymous-grading.ts';
import { readStaffQuestionRows, type StaffQuestionRow } from './read-staff-rows.ts';

/**
 * GET .../questions/:questionId for staff, neither paged nor narrowed to one submission (decision
 * 0084): the question and its rubric, and when asked for, the whole list (the spec's
 * includeSubmissions=1) with every field of every row.
 */
export interface WholeQuestionView {
  scope: QuestionScope;
  rubric: RubricRow | undefined;
  list?: {
    /** The latest submission of every student who answered, in the order staff lists use. */
    rows: StaffQuestionRow[];
    identities: StudentIdentities;
    /** When the first answer shown as open stops being open (a lease lapses), if any. */
    openUntil: Date | null;
  };
}

/**
 * The question for staff, with the whole list when `includeSubmissions`: the latest submission of
 * every student who answered, by name, or by label when anonymous (its order says nothing of names).
 * `scope` is the question as the caller may see it (`loadVisibleQuestion`), loaded first by the
 * route, which answers the whole list from what it kept (services/kept-question-lists.ts) and
 * comes here only when the class changed.
 */
export async function readWholeQuestion(
  ctx: AppContext,
  user: UserRow,
  scope: QuestionScope,
  includeSubmissions: boolean,
): Promise<WholeQuestionView> {
  if (!includeSubmissions) return { scope, rubric: await selectRubricByQuestionId(ctx.db, scope.question.id) };
  const all = await selectLatestSubmissionsPerStudent(ctx.db, scope.question.id);
  const identities = await readStudentIdentities(
    ctx,
    scope.assignment,
    all.map((row) => row.student.id),
  );
  const ordered = all.sort((a, b) => identities.compare(a.student, b.student));
  const { rubric, rows, openUntil } = await readStaffQuestionRows(ctx, user, scope, ordered);
  return { scope, rubric, list: { rows, identities, openUntil } };
}
