import { z } from 'zod';
import {
  AGREEMENT_SHARE,
  DEFAULT_MODEL_CHECK_SAMPLE,
  type ModelCheck,
  type ModelCheckDifference,
  type ModelCheckEstimate,
  type ModelCheckItem,
  type ModelCheckResult,
  type ModelCheckSide,
  type StartModelCheckInput,
} from '@gradewise/shared/contracts/ai-model-checks';
import { fromMicros } from '@gradewise/shared/contracts/ai-cost';
import type { AiProviderConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { ModelCheckVerdict } from '../db/schema.ts';
import type { GradingInput, RubricItem } from '../ai/grader-types.ts';
import { resolveModelName } from '../ai/provider/settings.ts';
import { defineJob, type JobAttempt } from '../jobs/job-definition.ts';
import { AppError, badRequest, conflict, notFound } from '../lib/errors.ts';
import { hashSeed, seededRandom } from '../lib/seeded-random.ts';
import { isId, newId } from '../lib/ids.ts';
import { selectCostsOfWork } from '../models/ai-costs.ts';
import {
  insertModelCheck,
  markModelCheckRunning,
  markModelCheckSucceeded,
  recordModelCheckFailure,
  selectCourseQuestionsWithRubric,
  selectModelCheckAnswers,
  selectModelChecksOfCourse,
  selectUnfinishedModelCheckIds,
  storeModelCheckVerdict,
  type ModelCheckAnswerRow,
  type ModelCheckRow,
} from '../models/ai-model-checks.ts';
import { selectCourseById, type CourseRow } from '../models/courses.ts';
import { selectSavedGradeExamples, type SavedGradeExample } from '../models/graded-examples.ts';
import type { QuestionRow } from '../models/questions.ts';
import type { RubricRow } from '../models/rubrics.ts';
import { selectSubmissionInQuestion } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleCourse, requireGrader, requireOwner } from '../policies/course-access.ts';
import type { StoredComment } from '../models/grading-runs.ts';
import {
  estimateGradingBatch,
  presentEstimate,
  readBudgetLeft,
  requireConfirmation,
  requireWithinBudget,
} from './ai-budget.ts';
import { chargeProviderCalls, checkProviderQuota, spendScopeOf } from './ai-spend.ts';
import { courseProvider, findProvider, graderOf, locationOf, recordAiCost, requireAllowed } from './course-ai.ts';
import { courseMoneyOf } from './grade-all.ts';
import { MAX_JOB_STARTS, requireJobs } from './job-work.ts';
import { buildGradingInput, classAnswersFor, courseGradesFor, readSavedGradeExamples } from './grading-input.ts';

/**
 * A check before switching models (issue 31, item 5; docs/decisions/0077-model-check-before-switching.md).
 *
 * The course owner names a candidate provider; the check draws a sample of the course's saved
 * grades (the same sample for the same course and size, so two candidates are compared on the same
 * answers), grades each answer with the candidate AND with the course's provider now, each given
 * exactly what a grading run would (the rubric, the answer's text, the other saved grades as
 * examples, never the answer's own grade), and reports how far each lands from the saved grades.
 * The cost of both is estimated first, must fit the month's budgets and is confirmed above the
 * course's amount; "on this server only" holds for both providers, when queued and when run.
 */

/** How many answers the result lists as differing most. */
const DIFFERENCES_SHOWN = 5;

/** Runs one check: the payload names an ai_model_checks row. */
export const checkModelJob = defineJob({
  name: 'check-model',
  payload: z.object({ id: z.uuid() }),
  // Each provider call already retries its own failures; these cover crashes and database hiccups.
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  // Up to 100 answers x 2 calls, one after another, each bounded by AI_TOTAL_TIMEOUT_MS.
  expireInSeconds: 4 * 60 * 60,
  // A check is a background comparison: one at a time per process leaves the call slots to grading.
  concurrency: () => 1,
  handle: (ctx, payload, attempt) => runModelCheck(ctx, payload.id, attempt),
  recordFailure: (ctx, payload, failure, isFinal) => recordModelCheckFailure(ctx.db, payload.id, failure, isFinal),
  listUnfinished: (ctx) => selectUnfinishedModelCheckIds(ctx.db),
});

interface SampledAnswer extends SavedGradeExample {
  questionId: string;
}

interface CheckPlan {
  scope: { course: CourseRow };
  candidate: AiProviderConfig;
  current: AiProviderConfig;
  sample: SampledAnswer[];
  savedGrades: number;
  estimate: Awaited<ReturnType<typeof estimateSample>>;
}

/** GET ai-model-checks/estimate: what a check of this candidate on this many answers would cost now. */
export async function estimateModelCheck(
  ctx: AppContext,
  user: UserRow,
  courseId: string,
  query: { providerId: string; sampleSize: number },
): Promise<ModelCheckEstimate> {
  const plan = await planCheck(ctx, user, courseId, query.providerId, query.sampleSize);
  return presentCheckEstimate(ctx, plan);
}

/** POST ai-model-checks: queues the check (its sample written with it) and answers it at once. */
export async function startModelCheck(
  ctx: AppContext,
  user: UserRow,
  courseId: string,
  input: StartModelCheckInput,
): Promise<ModelCheck> {
  const jobs = requireJobs(ctx);
  const plan = await planCheck(ctx, user, courseId, input.providerId, input.sampleSize ?? DEFAULT_MODEL_CHECK_SAMPLE);
  const { scope, candidate, current, sample, estimate } = plan;
  if (sample.length === 0) {
    throw conflict(
      'There are no saved grades to compare with yet: save some grades on a question with a rubric, then check again. Nothing was sent.',
    );
  }
  const course = courseMoneyOf(scope);
  const what = 'This model check';
  // One call per answer and provider (one provider on both sides is asked once).
  await checkProviderQuota(ctx, spendScopeOf(scope, candidate), sample.length);
  if (current.id !== candidate.id) await checkProviderQuota(ctx, spendScopeOf(scope, current), sample.length);
  requireWithinBudget(ctx, await readBudgetLeft(ctx, course), estimate.costMicros, what);
  requireConfirmation(ctx, course, estimate.costMicros, input.confirmCost === true, what);

  const id = newId();
  await insertModelCheck(
    ctx.db,
    {
      id,
      courseId: scope.course.id,
      requestedById: user.id,
      candidateProviderId: candidate.id,
      currentProviderId: current.id,
      sampleSize: sample.length,
      status: 'queued',
    },
    sample.map((answer, position) => ({
      id: newId(),
      checkId: id,
      position,
      submissionId: answer.submissionId,
      questionId: answer.questionId,
      savedScore: answer.score,
      savedComments: answer.comments,
      currentWorkId: newId(),
    })),
  );
  await jobs.send(checkModelJob, { id });
  const [row] = await selectModelChecksOfCourse(ctx.db, scope.course.id, id);
  return presentCheck(ctx, row!);
}

/** GET ai-model-checks: the course's checks, newest first (course staff). */
export async function listModelChecks(ctx: AppContext, user: UserRow, courseId: string): Promise<ModelCheck[]> {
  const scope = requireGrader(await loadVisibleCourse(ctx.db, user, courseId), "see the course's model checks");
  const rows = await selectModelChecksOfCourse(ctx.db, scope.course.id);
  return rows.map((row) => presentCheck(ctx, row));
}

/** GET ai-model-checks/:checkId: one check, as it runs (course staff). Another course's check is not found. */
export async function readModelCheck(
  ctx: AppContext,
  user: UserRow,
  params: { id: string; checkId: string },
): Promise<ModelCheck> {
  const scope = requireGrader(await loadVisibleCourse(ctx.db, user, params.id), "see the course's model checks");
  const [row] = isId(params.checkId) ? await selectModelChecksOfCourse(ctx.db, scope.course.id, params.checkId) : [];
  if (!row) throw notFound('Model check not found.');
  return presentCheck(ctx, row);
}

/**
 * Who may check, which providers, which answers, and what it costs. The candidate must be a
 * provider of this server (400 naming the field) that the course may use (403 for an external one
 * on a course held to this server); the current provider is the course's, under the same rule.
 */
async function planCheck(
  ctx: AppContext,
  user: UserRow,
  courseId: string,
  providerId: string,
  sampleSize: number,
): Promise<CheckPlan> {
  const scope = requireOwner(await loadVisibleCourse(ctx.db, user, courseId), 'check a model on its grades');
  const course = courseMoneyOf(scope);
  const candidate = findProvider(ctx.config, providerId);
  if (!candidate) {
    throw badRequest(`providerId: "${providerId}" is not a provider of this server.`, [
      { path: 'providerId', message: `must be one of ${ctx.config.aiProviders.map((known) => known.id).join(', ')}` },
    ]);
  }
  requireAllowed(course, candidate);
  const current = courseProvider(ctx.config, course);
  const questions = await questionsOfCourse(ctx, scope.course.id);
  const { sample, savedGrades } = await drawSample(ctx, scope.course.id, questions, sampleSize);
  const estimate = await estimateSample(ctx, candidate, current, sample, questions);
  return { scope, candidate, current, sample, savedGrades, estimate };
}

/**
 * The sample: the course's saved grades on questions with a rubric (the grades a grader learns
 * from, services/run-grading.ts), shuffled by a seed of the course, first `size` taken. The same
 * course and size give the same answers while the grades stay, so the estimate describes the run,
 * and two candidates checked one after another are compared on the same answers.
 */
async function drawSample(
  ctx: AppContext,
  courseId: string,
  questions: ReadonlyMap<string, QuestionOfCourse>,
  size: number,
): Promise<{ sample: SampledAnswer[]; savedGrades: number }> {
  const pool: SampledAnswer[] = [];
  for (const { question } of questions.values()) {
    for (const saved of await selectSavedGradeExamples(ctx.db, question.id)) {
      pool.push({ ...saved, questionId: question.id });
    }
  }
  pool.sort((a, b) => (a.submissionId < b.submissionId ? -1 : a.submissionId > b.submissionId ? 1 : 0));
  const random = seededRandom(hashSeed(courseId));
  for (let index = pool.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [pool[index], pool[other]] = [pool[other]!, pool[index]!];
  }
  return { sample: pool.slice(0, size), savedGrades: pool.length };
}

/** Both providers on the sample, priced as Grade All prices (services/ai-budget.ts, one home). */
async function estimateSample(
  ctx: AppContext,
  candidate: AiProviderConfig,
  current: AiProviderConfig,
  sample: readonly SampledAnswer[],
  questions: ReadonlyMap<string, QuestionOfCourse>,
) {
  const byQuestion = new Map<string, string[]>();
  for (const answer of sample)
    byQuestion.set(answer.questionId, [...(byQuestion.get(answer.questionId) ?? []), answer.submissionId]);
  const total = { answers: sample.length, inputTokens: 0, outputTokens: 0, costMicros: 0 };
  let candidateMicros = 0;
  let currentMicros = 0;
  for (const [questionId, ids] of byQuestion) {
    const { question } = questions.get(questionId)!;
    const sides = current.id === candidate.id ? [candidate] : [candidate, current];
    for (const provider of sides) {
      const estimate = await estimateGradingBatch(ctx, provider, question, ids);
      total.inputTokens += estimate.inputTokens;
      total.outputTokens += estimate.outputTokens;
      total.costMicros += estimate.costMicros;
      if (provider === candidate) candidateMicros += estimate.costMicros;
      else currentMicros += estimate.costMicros;
    }
  }
  return { ...total, candidateMicros, currentMicros };
}

async function presentCheckEstimate(ctx: AppContext, plan: CheckPlan): Promise<ModelCheckEstimate> {
  const course = courseMoneyOf(plan.scope);
  const shown = presentEstimate(ctx, plan.candidate, course, plan.estimate, await readBudgetLeft(ctx, course));
  return {
    ...shown,
    currentProviderId: plan.current.id,
    currentProviderLabel: plan.current.label,
    candidateCost: fromMicros(plan.estimate.candidateMicros),
    currentCost: fromMicros(plan.estimate.currentMicros),
    savedGrades: plan.savedGrades,
  };
}

/**
 * The job's work, idempotent answer by answer: each provider's verdict on each answer is written
 * with its cost in one transaction, and a retry asks only for the verdicts still missing. Both
 * providers are checked against the course's rule again (the owner may have held it to this
 * server since it was queued). A provider that fails on one answer is noted on that answer and
 * the check goes on; the result counts it as failed.
 */
export async function runModelCheck(ctx: AppContext, checkId: string, attempt: JobAttempt): Promise<void> {
  const check = await markModelCheckRunning(ctx.db, checkId);
  if (!check) return;
  if (check.attempts > MAX_JOB_STARTS) {
    ctx.log.warn({ id: check.id, starts: check.attempts - 1 }, 'model check given up after too many starts');
    throw new AppError(
      'UNPROCESSABLE',
      `This model check was given up: it was started ${MAX_JOB_STARTS} times and the server stopped each time before it finished.`,
    );
  }
  let { course, candidate, current } = await allowedProviders(ctx, check);
  const questions = await questionsOfCourse(ctx, course.id);
  const examples = new Map<string, SavedGradeExample[]>();

  for (const answer of await selectModelCheckAnswers(ctx.db, check.id)) {
    if (answer.candidate !== null && answer.current !== null) continue;
    // The course's rule as it is now, before each answer: held to this server meanwhile, the
    // check stops here (failed with the rule's sentence), keeping what it already spent.
    ({ course, candidate, current } = await allowedProviders(ctx, check));
    const input = await inputOf(ctx, answer, questions, examples).catch((error: unknown) => {
      if (attempt.signal.aborted) throw error;
      return { error: messageOf(error) };
    });
    if ('error' in input) {
      await storeModelCheckVerdict(ctx.db, answer.id, 'candidate', input);
      await storeModelCheckVerdict(ctx.db, answer.id, 'current', input);
      continue;
    }
    const asked = { check, course, answer, input, signal: attempt.signal };
    const candidateVerdict = answer.candidate ?? (await ask(ctx, asked, 'candidate', candidate));
    if (answer.current === null) {
      // The same provider on both sides: its one verdict is both (asked once, paid once).
      if (current.id === candidate.id) await storeModelCheckVerdict(ctx.db, answer.id, 'current', candidateVerdict);
      else await ask(ctx, asked, 'current', current);
    }
  }

  const answers = await selectModelCheckAnswers(ctx.db, check.id);
  const costs = await selectCostsOfWork(
    ctx.db,
    answers.flatMap((answer) => [answer.id, answer.currentWorkId]),
  );
  const result = summarize(answers, questions, { candidate, current }, costs);
  const spent = [...costs.values()].reduce((sum, micros) => sum + micros, 0);
  await markModelCheckSucceeded(ctx.db, check.id, result, spent);
  ctx.log.info({ checkId: check.id, answers: answers.length }, 'model check succeeded');
}

/** The check's two providers, if still configured and allowed by the course's rule now (403 otherwise: the check fails). */
async function allowedProviders(
  ctx: AppContext,
  check: ModelCheckRow,
): Promise<{ course: CourseRow; candidate: AiProviderConfig; current: AiProviderConfig }> {
  const course = await selectCourseById(ctx.db, check.courseId);
  if (!course) throw notFound('This course no longer exists.');
  const rule = courseMoneyOf({ course });
  const providerOf = (id: string) => {
    const provider = findProvider(ctx.config, id);
    if (!provider) throw conflict(`The provider "${id}" is no longer configured on this server.`);
    return requireAllowed(rule, provider);
  };
  return {
    course,
    candidate: providerOf(check.candidateProviderId),
    current: providerOf(check.currentProviderId),
  };
}

interface QuestionOfCourse {
  question: QuestionRow;
  rubric: RubricRow;
  title: string;
}

async function questionsOfCourse(ctx: AppContext, courseId: string): Promise<Map<string, QuestionOfCourse>> {
  const rows = await selectCourseQuestionsWithRubric(ctx.db, courseId);
  return new Map(
    rows.map(({ question, rubric, assignmentTitle }) => [
      question.id,
      { question, rubric, title: question.title ? `${assignmentTitle} · ${question.title}` : assignmentTitle },
    ]),
  );
}

/** What a grading run would give the grader for this answer; the answer's own grade is never among the examples. */
async function inputOf(
  ctx: AppContext,
  answer: ModelCheckAnswerRow,
  questions: Map<string, QuestionOfCourse>,
  examples: Map<string, SavedGradeExample[]>,
): Promise<GradingInput> {
  const of = questions.get(answer.questionId);
  const submission = of ? await selectSubmissionInQuestion(ctx.db, answer.questionId, answer.submissionId) : undefined;
  if (!of || !submission) throw notFound('This answer or its rubric no longer exists.');
  let saved = examples.get(answer.questionId);
  if (!saved) {
    saved = await readSavedGradeExamples(ctx, answer.questionId);
    examples.set(answer.questionId, saved);
  }
  const built = await buildGradingInput(ctx, {
    submission,
    question: of.question,
    rubric: of.rubric,
    savedGrades: saved,
  });
  return built.input;
}

/** One provider on one answer: counted against the quotas and priced once per work id, written with its verdict. */
async function ask(
  ctx: AppContext,
  asked: {
    check: ModelCheckRow;
    course: CourseRow;
    answer: ModelCheckAnswerRow;
    input: GradingInput;
    signal: AbortSignal;
  },
  side: 'candidate' | 'current',
  provider: AiProviderConfig,
): Promise<ModelCheckVerdict> {
  const { course, answer, input, signal } = asked;
  const workId = side === 'candidate' ? answer.id : answer.currentWorkId;
  const grader = graderOf(provider);
  let verdict: ModelCheckVerdict;
  try {
    if (grader.kind === 'llm') await chargeProviderCalls(ctx, spendScopeOf({ course }, provider), 1, workId);
    const sideInput = {
      ...input,
      classAnswers: await classAnswersFor(ctx, grader, answer.questionId),
      courseGrades: await courseGradesFor(ctx, grader, answer.questionId),
    };
    const call = await ctx.gradingCalls.run(() => grader.requestGrading(sideInput, signal), signal);
    const suggestion = grader.interpretGrading(call.rawOutput, sideInput);
    verdict = {
      score: suggestion.totalScore,
      items: awardedPerItem(input.rubricItems, suggestion.comments),
      confidence: Math.round(suggestion.confidence),
    };
    const answered = verdict;
    await ctx.db.transaction(async (tx) => {
      await storeModelCheckVerdict(tx, answer.id, side, answered);
      await recordAiCost(
        tx,
        {
          workId,
          kind: 'model-check',
          course: { courseId: course.id, instructorId: course.instructorId },
          questionId: answer.questionId,
          rubricItems: input.rubricItems.length,
        },
        provider,
        call.meta,
      );
    });
  } catch (error) {
    if (signal.aborted) throw error;
    verdict = { error: messageOf(error) };
    await storeModelCheckVerdict(ctx.db, answer.id, side, verdict);
  }
  return verdict;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'The provider could not grade this answer.';
}

/** Points given per rubric item: its points less the deductions judged on it, within 0..points. */
function awardedPerItem(
  items: readonly Pick<RubricItem, 'id' | 'points'>[],
  comments: readonly { rubricItemId: string | null; pointsDeducted: number; accepted?: boolean }[],
): Record<string, number> {
  const awarded: Record<string, number> = {};
  for (const item of items) {
    const deducted = comments
      .filter((comment) => comment.rubricItemId === item.id && comment.accepted !== false)
      .reduce((sum, comment) => sum + comment.pointsDeducted, 0);
    awarded[item.id] = Math.min(item.points, Math.max(0, item.points - deducted));
  }
  return awarded;
}

/**
 * The agreement of each provider with the saved grades, side by side: mean difference of totals
 * (absolute, in points and in % of the question's points; signed), share within 10% of the
 * points, per rubric item, and the answers where the candidate differs most.
 */
export function summarize(
  answers: readonly ModelCheckAnswerRow[],
  questions: ReadonlyMap<string, QuestionOfCourse>,
  providers: { candidate: AiProviderConfig; current: AiProviderConfig },
  costs: ReadonlyMap<string, number>,
): ModelCheckResult {
  const side = (which: 'candidate' | 'current'): ModelCheckSide => {
    const provider = providers[which];
    let graded = 0;
    let failed = 0;
    let absolute = 0;
    let percent = 0;
    let signed = 0;
    let within = 0;
    let micros = 0;
    for (const answer of answers) {
      micros += costs.get(which === 'candidate' ? answer.id : answer.currentWorkId) ?? 0;
      const verdict = answer[which];
      const points = questions.get(answer.questionId)?.question.points;
      if (!verdict || 'error' in verdict || points === undefined) {
        failed++;
        continue;
      }
      graded++;
      const difference = verdict.score - answer.savedScore;
      absolute += Math.abs(difference);
      signed += difference;
      percent += points > 0 ? Math.abs(difference) / points : 0;
      // A hair of rounding never turns an agreement into a miss.
      if (Math.abs(difference) <= AGREEMENT_SHARE * points + 1e-9) within++;
    }
    const mean = (sum: number) => (graded === 0 ? null : round(sum / graded));
    return {
      providerId: provider.id,
      providerLabel: provider.label,
      model: resolveModelName(provider),
      location: locationOf(provider),
      graded,
      failed,
      meanAbsoluteDifference: mean(absolute),
      meanAbsolutePercent: graded === 0 ? null : round((percent / graded) * 100),
      meanSignedDifference: mean(signed),
      withinTenPercent: graded === 0 ? null : round((within / graded) * 100),
      cost: fromMicros(micros),
    };
  };
  return {
    candidate: side('candidate'),
    current: side('current'),
    items: perItem(answers, questions),
    differences: differingMost(answers, questions),
  };
}

function perItem(
  answers: readonly ModelCheckAnswerRow[],
  questions: ReadonlyMap<string, QuestionOfCourse>,
): ModelCheckItem[] {
  const items: ModelCheckItem[] = [];
  for (const [questionId, of] of questions) {
    const ofQuestion = answers.filter((answer) => answer.questionId === questionId);
    if (ofQuestion.length === 0) continue;
    for (const item of of.rubric.items) {
      const meanOf = (which: 'candidate' | 'current') => {
        const differences = ofQuestion.flatMap((answer) => {
          const verdict = answer[which];
          if (!verdict || 'error' in verdict || verdict.items[item.id] === undefined) return [];
          const saved = awardedPerItem([item], answer.savedComments as StoredComment[])[item.id]!;
          return [Math.abs(verdict.items[item.id]! - saved)];
        });
        return differences.length === 0 ? null : round(differences.reduce((a, b) => a + b, 0) / differences.length);
      };
      items.push({
        questionId,
        questionTitle: of.title,
        criterion: item.criterion,
        points: item.points,
        answers: ofQuestion.length,
        candidateMeanDifference: meanOf('candidate'),
        currentMeanDifference: meanOf('current'),
      });
    }
  }
  return items;
}

function differingMost(
  answers: readonly ModelCheckAnswerRow[],
  questions: ReadonlyMap<string, QuestionOfCourse>,
): ModelCheckDifference[] {
  const scoreOf = (verdict: ModelCheckVerdict | null) => (verdict && !('error' in verdict) ? verdict.score : null);
  return answers
    .flatMap((answer) => {
      const of = questions.get(answer.questionId);
      const candidateScore = scoreOf(answer.candidate);
      if (!of || candidateScore === null) return [];
      return [
        {
          gap: Math.abs(candidateScore - answer.savedScore) / (of.question.points || 1),
          difference: {
            // The place in the sample, never the student: a TA of an anonymous assignment reads this too.
            label: `Answer ${answer.position + 1}`,
            assignmentId: of.question.assignmentId,
            questionId: answer.questionId,
            submissionId: answer.submissionId,
            questionTitle: of.title,
            points: of.question.points,
            savedScore: answer.savedScore,
            candidateScore,
            currentScore: scoreOf(answer.current),
          },
        },
      ];
    })
    .filter((entry) => entry.gap > 0)
    .sort((a, b) => b.gap - a.gap)
    .slice(0, DIFFERENCES_SHOWN)
    .map((entry) => entry.difference);
}

const round = (value: number) => Math.round(value * 100) / 100;

function presentCheck(ctx: AppContext, row: ModelCheckRow & { done: number; spentMicros: number }): ModelCheck {
  const labelOf = (id: string) => findProvider(ctx.config, id)?.label ?? id;
  return {
    id: row.id,
    candidateProviderId: row.candidateProviderId,
    candidateProviderLabel: labelOf(row.candidateProviderId),
    currentProviderId: row.currentProviderId,
    currentProviderLabel: labelOf(row.currentProviderId),
    sampleSize: row.sampleSize,
    status: row.status,
    done: row.done,
    currency: ctx.config.aiCurrency,
    cost: fromMicros(row.status === 'queued' || row.status === 'running' ? row.spentMicros : Number(row.costMicros)),
    error: row.error,
    result: (row.result as ModelCheckResult | null) ?? null,
    requestedAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
  };
}
