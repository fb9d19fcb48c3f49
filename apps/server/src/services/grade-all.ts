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
import { checkProviderQuota, spendScopeOf, type SpendScope } from './ai-spend.ts';
import { describeConfiguredGrader } from './describe-grader.ts';
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
): Promise<{ batchId: string | null; queued: number }> {
  const scope = requireOwner(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'grade submissions',
  );
  const { question } = scope;
  // The one home of the candidate rule (the question page's "Grade All (N left)" counts the same).
  const candidates = await selectGradeAllCandidateIds(ctx.db, question.id);
  return queueGradingBatch(ctx, user, spendScopeOf(scope), question, candidates);
}

/**
 * Queues one batch of AI runs (the configured grader) for the given submissions of a question,
 * skipping any with a run already in flight. Shared by Grade All and the explicit re-suggest.
 */
export async function queueGradingBatch(
  ctx: AppContext,
  user: UserRow,
  spendScope: SpendScope,
  question: QuestionRow,
  candidates: readonly string[],
): Promise<{ batchId: string | null; queued: number }> {
  const jobs = requireJobs(ctx);
  if (candidates.length === 0) return { batchId: null, queued: 0 };
  const needsRubric = !(await selectRubricByQuestionId(ctx.db, question.id));
  // One provider call per submission (and the rubric draft): the whole batch fits the quotas
  // left now, or nothing is queued. Each run counts itself when it calls the provider.
  await checkProviderQuota(ctx, spendScope, candidates.length + (needsRubric ? 1 : 0));
  // Every run of the batch needs the rubric: draft it once, here, rather than in each run.
  if (needsRubric) await draftRubricAndWait(ctx, question, user.id);

  const grader = describeConfiguredGrader(ctx.config);
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
