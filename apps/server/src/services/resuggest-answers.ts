import type { ResuggestInput } from '@gradewise/shared/contracts/suggestions';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { conflict } from '../lib/errors.ts';
import { selectUngradedLatestSubmissionIds } from '../models/grading-targets.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireGrader } from '../policies/course-access.ts';
import { spendScopeOf } from './ai-spend.ts';
import { queueGradingBatch } from './grade-all.ts';

/**
 * POST resuggest: the explicit, paid counterpart of the automatic refresh. Every current answer
 * without a saved grade (and no run in flight) is graded again by the configured grader through
 * the usual grading runs, which give it the saved grades as examples. The instructor confirmed a
 * number of answers (= calls); if more are waiting now, nothing is sent: the spend never exceeds
 * what was confirmed.
 */
export async function resuggestAnswers(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
  input: z.output<typeof ResuggestInput>,
): Promise<{ batchId: string | null; queued: number }> {
  const scope = requireGrader(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    're-suggest grades',
  );
  const { question } = scope;
  const candidates = await selectUngradedLatestSubmissionIds(ctx.db, question.id);
  if (candidates.length > input.answers) {
    throw conflict(
      `${candidates.length} answers are waiting for a suggestion now, not ${input.answers}. Nothing was sent; check the number and confirm again.`,
    );
  }
  return queueGradingBatch(ctx, user, spendScopeOf(scope), question, candidates);
}
