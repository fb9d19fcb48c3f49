import type { ResuggestInput } from '@gradewise/shared/contracts/suggestions';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { conflict } from '../lib/errors.ts';
import { selectUngradedLatestSubmissionIds } from '../models/grading-targets.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireGrader } from '../policies/course-access.ts';
import type { AiCostEstimate } from '@gradewise/shared/contracts/ai-cost';
import { estimateGradingBatch, presentEstimate, readBudgetLeft } from './ai-budget.ts';
import { chosenProvider } from './course-ai.ts';
import { courseMoneyOf, queueGradingBatch } from './grade-all.ts';

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
  input: z.output<typeof ResuggestInput> & { confirmCost?: boolean },
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
  return queueGradingBatch(ctx, user, scope, candidates, { confirmCost: input.confirmCost, what: 'Re-suggesting' });
}

/** GET resuggest/estimate: what re-suggesting every waiting answer would cost on the course's provider. */
export async function estimateResuggest(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
): Promise<AiCostEstimate> {
  const scope = requireGrader(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'estimate re-suggesting',
  );
  const candidates = await selectUngradedLatestSubmissionIds(ctx.db, scope.question.id);
  const course = courseMoneyOf(scope);
  const provider = chosenProvider(ctx.config, course);
  const estimate = await estimateGradingBatch(ctx, provider, scope.question, candidates);
  return presentEstimate(ctx, provider, course, estimate, await readBudgetLeft(ctx, course));
}
