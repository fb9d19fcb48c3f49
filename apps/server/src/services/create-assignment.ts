import type { AppContext } from '../context.ts';
import { newId } from '../lib/ids.ts';
import { insertAssignment, selectAssignmentSummaryById, type AssignmentSummaryRow } from '../models/assignments.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleCourse, requireOwner } from '../policies/course-access.ts';

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
