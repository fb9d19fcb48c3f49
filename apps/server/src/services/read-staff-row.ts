import type { AppContext } from '../context.ts';
import type { RubricRow } from '../models/rubrics.ts';
import { selectSubmissionListRowsByIds } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import type { QuestionScope } from '../policies/course-access.ts';
import { readStudentIdentities, type StudentIdentities } from './anonymous-grading.ts';
import { readStaffQuestionRows, type StaffQuestionRow } from './read-staff-rows.ts';

/**
 * GET .../questions/:questionId?includeSubmissions=1&submissionId= for staff: the grading screen's
 * own submission (decision 0046) as a row of the whole list would show it, every field (decision 0084).
 */
export interface StaffRowView {
  scope: QuestionScope;
  rubric: RubricRow | undefined;
  /** Absent when the submission is not its student's latest version (it is not in the list). */
  row: StaffQuestionRow | undefined;
  identities: StudentIdentities;
}

/**
 * One staff row by its submission's id, read alone, and only while it is its student's latest
 * version (as it would appear in the list).
 */
export async function readStaffRow(
  ctx: AppContext,
  user: UserRow,
  scope: QuestionScope,
  submissionId: string,
): Promise<StaffRowView> {
  const found = await selectSubmissionListRowsByIds(ctx.db, scope.question.id, [submissionId]);
  const latest = found.filter((row) => row.isLatest);
  const identities = await readStudentIdentities(
    ctx,
    scope.assignment,
    latest.map((row) => row.student.id),
  );
  const { rubric, rows } = await readStaffQuestionRows(ctx, user, scope, latest);
  return { scope, rubric, row: rows[0], identities };
}
