import type { AppContext } from '../context.ts';
import { currentTime } from '../lib/clock.ts';
import {
  selectAssignmentSummaryById,
  updateAssignmentGrading,
  type AssignmentRow,
  type AssignmentSummaryRow,
} from '../models/assignments.ts';
import { updateQuestionRelease } from '../models/questions.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleAssignment, loadVisibleQuestion, requireOwner } from '../policies/course-access.ts';
import { requestScorePassback } from './lti-grade-passback.ts';

/** Whether grades are held and since when they are out, as stored on an assignment or a question. */
type ReleaseState = Pick<AssignmentRow, 'gradesHeld' | 'gradesReleasedAt'>;

/**
 * Holding and releasing grades (decision 0023). Owner-only: when students learn their grades is the
 * instructor's call, like the assignment's other rules. Releasing stamps the moment (a regrade
 * window counts from it); holding keeps the last release moment, which no longer matters while held.
 */
export async function setAssignmentRelease(
  ctx: AppContext,
  user: UserRow,
  assignmentId: string,
  released: boolean,
): Promise<ReleaseState> {
  const { assignment } = requireOwner(
    await loadVisibleAssignment(ctx.db, user, assignmentId),
    'hold or release its grades',
  );
  const change = releaseChange(assignment, released, currentTime(ctx));
  await updateAssignmentGrading(ctx.db, assignment.id, change);
  // Released scores go to the LMS (decision 0076); holding them again sends nothing.
  if (released) await requestScorePassback(ctx, assignment.id);
  return change;
}

export async function setQuestionRelease(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
  released: boolean,
): Promise<ReleaseState> {
  const { question } = requireOwner(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'hold or release its grades',
  );
  const state = await updateQuestionRelease(ctx.db, question.id, releaseChange(question, released, currentTime(ctx)));
  if (released) await requestScorePassback(ctx, params.assignmentId);
  return state;
}

/** Releasing what is not held changes nothing (no new window start). */
function releaseChange(current: ReleaseState, released: boolean, now: Date): ReleaseState {
  if (!released) return { gradesHeld: true, gradesReleasedAt: current.gradesReleasedAt };
  return { gradesHeld: false, gradesReleasedAt: current.gradesHeld ? now : current.gradesReleasedAt };
}

/** PATCH regrade-settings: the window (days after release) and the per-student limit of one assignment. */
export async function changeRegradeSettings(
  ctx: AppContext,
  user: UserRow,
  assignmentId: string,
  settings: { regradeWindowDays: number; regradeRequestLimit: number },
): Promise<AssignmentSummaryRow> {
  const { assignment } = requireOwner(
    await loadVisibleAssignment(ctx.db, user, assignmentId),
    'change its regrade rules',
  );
  await updateAssignmentGrading(ctx.db, assignment.id, settings);
  return (await selectAssignmentSummaryById(ctx.db, assignment.id))!;
}
