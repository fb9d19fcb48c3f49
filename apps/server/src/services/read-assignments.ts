import type { AppContext } from '../context.ts';
import {
  selectAssignmentSummaries,
  selectAssignmentSummaryById,
  type AssignmentSummaryRow,
} from '../models/assignments.ts';
import type { UserRow } from '../models/users.ts';
import {
  listVisibleCourseIds,
  loadVisibleAssignment,
  loadVisibleCourse,
  type AssignmentScope,
} from '../policies/course-access.ts';

/** Every assignment of the courses the caller can see, or of one of them when `courseId` is given. */
export async function listAssignmentsFor(
  ctx: AppContext,
  user: UserRow,
  courseId?: string,
): Promise<AssignmentSummaryRow[]> {
  const courseIds = courseId
    ? [(await loadVisibleCourse(ctx.db, user, courseId)).course.id]
    : await listVisibleCourseIds(ctx.db, user);
  return selectAssignmentSummaries(ctx.db, courseIds);
}

export async function loadAssignmentDetail(
  ctx: AppContext,
  user: UserRow,
  assignmentId: string,
): Promise<{ scope: AssignmentScope; row: AssignmentSummaryRow }> {
  const scope = await loadVisibleAssignment(ctx.db, user, assignmentId);
  const row = await selectAssignmentSummaryById(ctx.db, scope.assignment.id);
  return { scope, row: row! };
}
