import type { AppContext } from '../context.ts';
import { AppError } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import type { QuestionRow } from '../models/questions.ts';
import {
  insertRubricGenerationUnlessActive,
  selectActiveRubricGeneration,
  selectRubricGenerationById,
  type RubricGenerationRow,
} from '../models/rubric-generations.ts';
import { selectRubricByQuestionId, type RubricRow } from '../models/rubrics.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireOwner } from '../policies/course-access.ts';
import { checkProviderQuota, countInteractiveCall, spendScopeOf } from './ai-spend.ts';
import type { AiProviderConfig } from '../config.ts';
import { courseProvider, describeProvider } from './course-ai.ts';
import { errorOfFailedRow, requireJobs, RUBRIC_WAIT_MS, stillRunning } from './job-work.ts';
import { generateRubricJob } from './run-rubric-generation.ts';

/**
 * POST generate-rubric: drafts the question's rubric from its question and solution PDFs as a
 * durable job, waits for it (the spec's call is synchronous) and answers the new rubric. An AI
 * draft replaces the current rubric: the instructor asked for a new one.
 */
export async function generateRubric(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
): Promise<{ rubric: RubricRow; generation: RubricGenerationRow }> {
  const scope = requireOwner(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'generate its rubric',
  );
  const provider = courseProvider(ctx.config, scope.course);
  await checkProviderQuota(ctx, spendScopeOf(scope, provider), 1);
  await countInteractiveCall(ctx, user.id);
  const generation = await draftRubricAndWait(ctx, scope.question, user.id, provider);
  const rubric = await selectRubricByQuestionId(ctx.db, scope.question.id);
  if (!rubric) throw new AppError('INTERNAL', 'The rubric was generated but could not be read back. Please try again.');
  return { rubric, generation };
}

/**
 * Queues a rubric draft for the question — or joins the one already in flight, so two clicks never
 * pay twice — and waits for it to finish. Throws the job's own error when it failed.
 */
export async function draftRubricAndWait(
  ctx: AppContext,
  question: QuestionRow,
  requestedById: string,
  /** The course's provider (services/course-ai.ts), already allowed by the caller. */
  provider: AiProviderConfig,
): Promise<RubricGenerationRow> {
  const jobs = requireJobs(ctx);
  const generation = await startRubricGeneration(ctx, question.id, requestedById, provider);
  await jobs.send(generateRubricJob, { id: generation.id });
  const settled = await jobs.waitFor(
    generation.id,
    async () => {
      const row = await selectRubricGenerationById(ctx.db, generation.id);
      return row && (row.status === 'succeeded' || row.status === 'failed') ? row : undefined;
    },
    { timeoutMs: RUBRIC_WAIT_MS },
  );
  if (!settled) throw stillRunning('Generating the rubric');
  if (settled.status === 'failed')
    throw errorOfFailedRow(settled, 'The rubric could not be generated. Please try again.');
  return settled;
}

async function startRubricGeneration(
  ctx: AppContext,
  questionId: string,
  requestedById: string,
  provider: AiProviderConfig,
): Promise<RubricGenerationRow> {
  // The partial unique index allows one draft in flight per question; between our insert losing
  // and our select, that draft may finish, so try a few times.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const inserted = await insertRubricGenerationUnlessActive(ctx.db, {
      id: newId(),
      questionId,
      status: 'queued',
      ...describeProvider(provider),
      requestedById,
    });
    if (inserted) return inserted;
    const active = await selectActiveRubricGeneration(ctx.db, questionId);
    if (active) return active;
  }
  throw new AppError(
    'CONFLICT',
    'A rubric for this question is being generated right now. Please try again in a moment.',
  );
}
