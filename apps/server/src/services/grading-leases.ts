import { GRADING_LEASE_MINUTES, type GradingLeaseOutput } from '@gradewise/shared/contracts/work-split';
import type { AppContext } from '../context.ts';
import { currentTime } from '../lib/clock.ts';
import { deleteLease, selectActiveLeases, takeLease } from '../models/grading-leases.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleSubmission, requireGrader } from '../policies/course-access.ts';

/**
 * "Who has this answer open" (issue 12 item 1, decision 0031). The grading screen takes a lease
 * when it opens an answer and renews it while open; the staff lists show it, and a second grader
 * who opens the same answer is told who has it. A lease never blocks a save: it makes a collision
 * a choice, not an accident. It lapses by itself, so a closed laptop frees the answer.
 */

interface SubmissionParams {
  assignmentId: string;
  questionId: string;
  submissionId: string;
}

async function loadForGrading(ctx: AppContext, user: UserRow, params: SubmissionParams) {
  return requireGrader(
    await loadVisibleSubmission(ctx.db, user, params.assignmentId, params.questionId, params.submissionId),
    'grade its submissions',
  );
}

/** POST .../grade/:submissionId/lease: takes or renews the caller's lease, or says who holds it. */
export async function openForGrading(
  ctx: AppContext,
  user: UserRow,
  params: SubmissionParams,
): Promise<GradingLeaseOutput> {
  const { submission } = await loadForGrading(ctx, user, params);
  const now = currentTime(ctx);
  const expiresAt = new Date(now.getTime() + GRADING_LEASE_MINUTES * 60_000);
  await takeLease(ctx.db, { submissionId: submission.id, graderId: user.id, now, expiresAt });
  // Whoever holds it now: the caller, or the grader who had it first (the statement above decided).
  const lease = (await selectActiveLeases(ctx.db, [submission.id], now)).get(submission.id)!;
  return {
    isMine: lease.graderId === user.id,
    holder: { _id: lease.graderId, name: lease.graderName, since: lease.startedAt.toISOString() },
    expiresAt: lease.expiresAt.toISOString(),
  };
}

/** DELETE .../grade/:submissionId/lease: the caller closed the answer (someone else's lease stays). */
export async function closeGrading(
  ctx: AppContext,
  user: UserRow,
  params: SubmissionParams,
): Promise<{ message: string }> {
  const { submission } = await loadForGrading(ctx, user, params);
  await deleteLease(ctx.db, submission.id, user.id);
  return { message: 'The answer is no longer open.' };
}
