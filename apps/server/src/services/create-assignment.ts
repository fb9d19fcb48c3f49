import type { AppContext } from '../context.ts';
import { newId } from '../lib/ids.ts';
import {
  insertAssignment,
  selectAssignmentSummaryById,
  updateAssignmentSettings,
  type AssignmentSummaryRow,
} from '../models/assignments.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleAssignment, loadVisibleCourse, requireOwner } from '../policies/course-access.ts';

export interface CreateAssignmentRequest {
  title: string;
  courseId: string;
  deadline: Date | null;
  /** See the assignments.allows_resubmission column. */
  allowsResubmission?: boolean;
}

/** Only the instructor who owns the course creates its assignments (spec section 6). */
export async function createAssignment(
  ctx: AppContext,
  user: UserRow,
  request: CreateAssignmentRequest,
): Promise<AssignmentSummaryRow> {
  const { course } = requireOwner(await loadVisibleCourse(ctx.db, user, request.courseId), 'create assignments');
  const assignment = await insertAssignment(ctx.db, {
    id: newId(),
    courseId: course.id,
    title: request.title,
    deadline: request.deadline,
    allowsResubmission: request.allowsResubmission ?? false,
  });
  return (await selectAssignmentSummaryById(ctx.db, assignment.id))!;
}

/**
 * PATCH /api/assignments/:id/settings: the owning instructor changes the assignment's rules. Turning
 * resubmission off later refuses new versions of answers already graded; nothing saved changes.
 */
export async function changeAssignmentSettings(
  ctx: AppContext,
  user: UserRow,
  assignmentId: string,
  settings: { allowsResubmission: boolean },
): Promise<AssignmentSummaryRow> {
  const { assignment } = requireOwner(await loadVisibleAssignment(ctx.db, user, assignmentId), 'change its settings');
  await updateAssignmentSettings(ctx.db, assignment.id, { allowsResubmission: settings.allowsResubmission });
  return (await selectAssignmentSummaryById(ctx.db, assignment.id))!;
}
