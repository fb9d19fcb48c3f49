import type { AppContext } from '../context.ts';
import { notFound } from '../lib/errors.ts';
import { isId, newId } from '../lib/ids.ts';
import {
  insertGradingBatch,
  selectGradingBatch,
  selectLatestGradingBatch,
  updateGradingBatchTotal,
} from '../models/grading-batches.ts';
import { countBatchRuns, insertGradingRunsUnlessActive } from '../models/grading-runs.ts';
import { selectGradeAllCandidateIds } from '../models/grading-targets.ts';
import { selectRubricByQuestionId } from '../models/rubrics.ts';
import type { QuestionRow } from '../models/questions.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireGrader, requireOwner } from '../policies/course-access.ts';
import {
  formatMoney,
  fromMicros,
  type AiCostEstimate,
  type AiSpend,
  type BatchSpend,
  type StopGradeAllOutput,
} from '@gradewise/shared/contracts/ai-cost';
import { cancelQueuedBatchRuns, countCancelledBatchRuns, sumAiCosts, type SpendTotals } from '../models/ai-costs.ts';
import type { CourseRow } from '../models/courses.ts';
import {
  estimateGradingBatch,
  presentEstimate,
  readBudgetLeft,
  requireConfirmation,
  requireWithinBudget,
} from './ai-budget.ts';
import { checkProviderQuota, now, spendScopeOf } from './ai-spend.ts';
import { chosenProvider, courseProvider, describeProvider } from './course-ai.ts';
import { draftRubricAndWait } from './generate-rubric.ts';
import { requireJobs } from './job-work.ts';
import { gradeSubmissionJob } from './run-grading.ts';

/**
 * POST grade-all: queues an AI run for the latest submission of every student that has no saved
 * grade, no run in flight and no finished suggestion yet, as one batch, and answers at once;
 * progress is read from our tables. A suggestion that exists is not paid for again (a second click
 * after the batch finished queues nothing): asking again is Regrade, or the confirmed re-suggest.
 * The batch and its runs are written in one transaction and sent after it commits; a crash in
 * between is repaired by the boot sweep, which re-sends every queued run.
 */
export async function gradeAll(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
  options: { confirmCost?: boolean } = {},
): Promise<{ batchId: string | null; queued: number }> {
  const scope = requireOwner(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'grade submissions',
  );
  const { question } = scope;
  // The one home of the candidate rule (the question page's "Grade All (N left)" counts the same).
  const candidates = await selectGradeAllCandidateIds(ctx.db, question.id);
  return queueGradingBatch(ctx, user, scope, candidates, { ...options, what: 'Grade All' });
}

/**
 * GET grade-all/estimate: what Grade All would cost now, before it starts — tokens and money on
 * the course's provider, whether it asks for confirmation, and whether it fits the budgets.
 */
export async function estimateGradeAll(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
): Promise<AiCostEstimate> {
  const scope = requireOwner(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'estimate grading',
  );
  const candidates = await selectGradeAllCandidateIds(ctx.db, scope.question.id);
  const course = courseMoneyOf(scope);
  const provider = chosenProvider(ctx.config, course);
  const estimate = await estimateGradingBatch(ctx, provider, scope.question, candidates);
  return presentEstimate(ctx, provider, course, estimate, await readBudgetLeft(ctx, course));
}

/** The course's AI fields as the budget and provider rules read them. */
export function courseMoneyOf(scope: { course: CourseRow }) {
  const { course } = scope;
  return {
    courseId: course.id,
    instructorId: course.instructorId,
    aiProviderId: course.aiProviderId,
    aiServerOnly: course.aiServerOnly,
    aiMonthlyBudgetMicros: course.aiMonthlyBudgetMicros,
    aiConfirmAboveMicros: course.aiConfirmAboveMicros,
  };
}

/**
 * Queues one batch of AI runs (the course's provider) for the given submissions of a question,
 * skipping any with a run already in flight. Shared by Grade All and the explicit re-suggest.
 * Before anything is queued: the course's provider must be allowed (a course held to this server
 * refuses an external one), the estimate must fit the month's budgets, and an estimate above the
 * course's confirmation amount must have been confirmed.
 */
export async function queueGradingBatch(
  ctx: AppContext,
  user: UserRow,
  scope: { course: CourseRow; question: QuestionRow },
  candidates: readonly string[],
  options: { confirmCost?: boolean; what: string },
): Promise<{ batchId: string | null; queued: number }> {
  const jobs = requireJobs(ctx);
  const { question } = scope;
  const course = courseMoneyOf(scope);
  const provider = courseProvider(ctx.config, course);
  if (candidates.length === 0) return { batchId: null, queued: 0 };
  const spendScope = spendScopeOf(scope, provider);
  const needsRubric = !(await selectRubricByQuestionId(ctx.db, question.id));
  // One provider call per submission (and the rubric draft): the whole batch fits the quotas
  // left now, or nothing is queued. Each run counts itself when it calls the provider.
  await checkProviderQuota(ctx, spendScope, candidates.length + (needsRubric ? 1 : 0));
  if (provider.provider !== 'builtin') {
    const estimate = await estimateGradingBatch(ctx, provider, question, candidates);
    requireWithinBudget(ctx, await readBudgetLeft(ctx, course), estimate.costMicros, options.what);
    requireConfirmation(ctx, course, estimate.costMicros, options.confirmCost === true, options.what);
  }
  // Every run of the batch needs the rubric: draft it once, here, rather than in each run.
  if (needsRubric) await draftRubricAndWait(ctx, question, user.id, provider);

  const grader = describeProvider(provider);
  const { batchId, runIds } = await ctx.db.transaction(async (tx) => {
    const batch = await insertGradingBatch(tx, {
      id: newId(),
      questionId: question.id,
      requestedById: user.id,
      total: candidates.length,
    });
    // A run started meanwhile (a single grade) wins; this batch skips that submission.
    const runs = candidates.map((submissionId) => ({
      id: newId(),
      submissionId,
      batchId: batch.id,
      status: 'queued' as const,
      ...grader,
      requestedById: user.id,
    }));
    const inserted = await insertGradingRunsUnlessActive(tx, runs);
    const ids = runs.filter((run) => inserted.has(run.id)).map((run) => run.id);
    if (ids.length !== candidates.length) await updateGradingBatchTotal(tx, batch.id, ids.length);
    return { batchId: batch.id, runIds: ids };
  });
  await jobs.sendMany(
    gradeSubmissionJob,
    runIds.map((id) => ({ id })),
  );
  return { batchId, queued: runIds.length };
}

/** Where a batch stands: its size and its runs counted by status. */
interface GradingProgress {
  batchId: string | null;
  total: number;
  counts: Awaited<ReturnType<typeof countBatchRuns>>;
}

/** GET grade-all/progress: the given batch of this question, or its latest one. */
export async function readGradingProgress(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string; batchId?: string },
): Promise<GradingProgress> {
  const { question } = requireGrader(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'see grading progress',
  );
  let batch;
  if (params.batchId !== undefined) {
    batch = isId(params.batchId) ? await selectGradingBatch(ctx.db, question.id, params.batchId) : undefined;
    if (!batch) throw notFound('Grading batch not found.');
  } else {
    batch = await selectLatestGradingBatch(ctx.db, question.id);
  }
  if (!batch) return { batchId: null, total: 0, counts: { succeeded: 0, failed: 0, running: 0, queued: 0 } };
  return { batchId: batch.id, total: batch.total, counts: await countBatchRuns(ctx.db, batch.id) };
}

/** What a batch has spent: every provider call its runs made, priced when each answered. */
export async function readBatchSpend(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string; batchId: string },
): Promise<BatchSpend> {
  const { question } = requireGrader(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'see what grading spent',
  );
  const batch = isId(params.batchId) ? await selectGradingBatch(ctx.db, question.id, params.batchId) : undefined;
  if (!batch) throw notFound('Grading batch not found.');
  const spend = await sumAiCosts(ctx.db, { batchId: batch.id });
  return {
    currency: ctx.config.aiCurrency,
    spend: presentSpend(spend),
    stoppedAt: batch.stoppedAt ? batch.stoppedAt.toISOString() : null,
    cancelled: await countCancelledBatchRuns(ctx.db, batch.id),
  };
}

/**
 * POST grade-all/stop: cancels the batch's queued runs (nothing is sent for them), lets the calls
 * in flight finish, and answers what was spent so far; the spend is exact once `stillRunning`
 * reaches 0 (grade-all/spend then). A stopped batch can be stopped again: it cancels nothing more.
 */
export async function stopGradeAll(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string; batchId: string },
): Promise<StopGradeAllOutput> {
  const { question } = requireOwner(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'stop grading',
  );
  const batch = isId(params.batchId) ? await selectGradingBatch(ctx.db, question.id, params.batchId) : undefined;
  if (!batch) throw notFound('Grading batch not found.');
  const { cancelled, stillRunning } = await cancelQueuedBatchRuns(ctx.db, batch.id, user.id, now(ctx));
  const spend = presentSpend(await sumAiCosts(ctx.db, { batchId: batch.id }));
  const currency = ctx.config.aiCurrency;
  const running =
    stillRunning === 0
      ? ''
      : ` ${stillRunning} answer${stillRunning === 1 ? ' is' : 's are'} being graded now and will finish.`;
  return {
    message: `Stopped: ${cancelled} answer${cancelled === 1 ? '' : 's'} will not be graded.${running} Spent so far: ${formatMoney(spend.cost, currency)} (${spend.inputTokens + spend.outputTokens} tokens).`,
    batchId: batch.id,
    cancelled,
    stillRunning,
    currency,
    spend,
  };
}

export function presentSpend(totals: SpendTotals): AiSpend {
  return {
    calls: totals.calls,
    inputTokens: totals.inputTokens,
    outputTokens: totals.outputTokens,
    cost: fromMicros(totals.costMicros),
  };
}
