import {
  costMicros,
  DEFAULT_CONFIRM_ABOVE,
  formatMoney,
  fromMicros,
  toMicros,
  type AiCostEstimate,
} from '@gradewise/shared/contracts/ai-cost';
import type { AiProviderConfig } from '../config.ts';
import {
  assumedDraftItems,
  estimateGradingTokens,
  estimateRubricTokens,
  OUTPUT_TOKENS_PER_ANSWER,
  type TokenEstimate,
} from '../ai/llm/estimate-tokens.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../lib/errors.ts';
import {
  selectMeanOutputTokensPerItem,
  selectQuestionSubmissionsByIds,
  sumAiCosts,
  type AiCourseFields,
} from '../models/ai-costs.ts';
import type { QuestionRow } from '../models/questions.ts';
import { selectRubricByQuestionId, type RubricRow } from '../models/rubrics.ts';
import { ensureFileExtraction } from './ensure-file-extraction.ts';
import { now } from './ai-spend.ts';
import { locationOf } from './course-ai.ts';
import { buildGradingInput, readSavedGradeExamples } from './grading-input.ts';

/**
 * Money before work is queued (issue 31): the estimate of a batch of grading calls, the monthly
 * budgets of the course and its instructor (all of the estimate fits, or nothing is queued), and
 * the confirmation the course asks for above its amount.
 */

type CourseMoney = Pick<AiCourseFields, 'courseId' | 'instructorId' | 'aiMonthlyBudgetMicros' | 'aiConfirmAboveMicros'>;

export interface BatchEstimate extends TokenEstimate {
  answers: number;
  costMicros: number;
}

/** The first moment of the current calendar month, UTC: budgets count from here. */
export function startOfMonth(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/**
 * What grading these answers of a question will cost on a provider: each answer's prompt as the
 * LLM grader would build it (its extracted text, the rubric, the saved grades it would be shown),
 * priced at the provider's price. The length of each answer is the provider's measured length
 * per rubric item once it has answered (until then a default, estimate-tokens.ts). An answer whose PDF cannot be read is not counted: its run fails
 * before any call. The built-in grader costs nothing.
 */
export async function estimateGradingBatch(
  ctx: AppContext,
  provider: AiProviderConfig,
  question: QuestionRow,
  submissionIds: readonly string[],
): Promise<BatchEstimate> {
  if (provider.provider === 'builtin' || submissionIds.length === 0) {
    return { answers: submissionIds.length, inputTokens: 0, outputTokens: 0, costMicros: 0 };
  }
  const saved = await selectRubricByQuestionId(ctx.db, question.id);
  let inputTokens = 0;
  let outputTokens = 0;
  let rubric: Pick<RubricRow, 'questionText' | 'solutionText' | 'items'>;
  if (saved) {
    rubric = saved;
  } else {
    // No rubric yet: Grade All drafts one first (one call more), and grades against that draft.
    const questionText = await readTextOf(ctx, question.questionFileId);
    const solutionText = question.solutionFileId ? await readTextOf(ctx, question.solutionFileId) : '';
    const draft = estimateRubricTokens({ questionText, solutionText, points: question.points });
    inputTokens += draft.inputTokens;
    outputTokens += draft.outputTokens;
    rubric = { questionText, solutionText, items: assumedDraftItems(question.points) };
  }
  const savedGrades = await readSavedGradeExamples(ctx, question.id);
  // The provider's measured answer length once it has answered; the default before.
  const perItem = await selectMeanOutputTokensPerItem(ctx.db, provider.id, OUTPUT_TOKENS_PER_ANSWER);
  const submissions = await selectQuestionSubmissionsByIds(ctx.db, question.id, submissionIds);
  for (const submission of submissions) {
    const built = await buildGradingInput(ctx, {
      submission,
      question,
      rubric,
      savedGrades,
    }).catch(() => undefined);
    if (!built) continue;
    const tokens = estimateGradingTokens(built.input, { outputTokensPerItem: perItem ?? undefined });
    inputTokens += tokens.inputTokens;
    outputTokens += tokens.outputTokens;
  }
  return {
    answers: submissionIds.length,
    inputTokens,
    outputTokens,
    costMicros: costMicros({ inputTokens, outputTokens }, provider),
  };
}

/** A question or solution PDF's text, '' when it cannot be read (the draft then fails before any call). */
async function readTextOf(ctx: AppContext, fileId: string): Promise<string> {
  const extraction = await ensureFileExtraction(ctx, fileId).catch(() => undefined);
  return extraction?.status === 'succeeded' ? extraction.text : '';
}

export interface BudgetLeft {
  courseLeftMicros: number | null;
  instructorLeftMicros: number | null;
  /** The smaller of the two; null when neither is capped. */
  leastLeftMicros: number | null;
  spentThisMonthMicros: number;
}

/** What is left this month under the course's budget and its instructor's (AI_INSTRUCTOR_MONTHLY_BUDGET). */
export async function readBudgetLeft(ctx: AppContext, course: CourseMoney): Promise<BudgetLeft> {
  const since = startOfMonth(now(ctx));
  const courseSpent = await sumAiCosts(ctx.db, { courseId: course.courseId }, since);
  const instructorCap = ctx.config.aiSpend.instructorMonthlyBudgetMicros;
  const instructorSpent =
    instructorCap === undefined ? undefined : await sumAiCosts(ctx.db, { instructorId: course.instructorId }, since);
  const courseLeftMicros =
    course.aiMonthlyBudgetMicros === null ? null : Math.max(0, course.aiMonthlyBudgetMicros - courseSpent.costMicros);
  const instructorLeftMicros =
    instructorCap === undefined || !instructorSpent ? null : Math.max(0, instructorCap - instructorSpent.costMicros);
  const caps = [courseLeftMicros, instructorLeftMicros].filter((left): left is number => left !== null);
  return {
    courseLeftMicros,
    instructorLeftMicros,
    leastLeftMicros: caps.length === 0 ? null : Math.min(...caps),
    spentThisMonthMicros: courseSpent.costMicros,
  };
}

/** 409 AI_BUDGET_EXCEEDED when the estimate does not fit what is left; nothing is queued then. */
export function requireWithinBudget(ctx: AppContext, left: BudgetLeft, estimateMicros: number, what: string): void {
  if (left.leastLeftMicros === null || estimateMicros <= left.leastLeftMicros) return;
  const currency = ctx.config.aiCurrency;
  const whose =
    left.leastLeftMicros === left.courseLeftMicros
      ? "this course's monthly AI budget"
      : "the instructor's monthly AI budget";
  throw new AppError(
    'AI_BUDGET_EXCEEDED',
    `${what} is estimated at ${formatMoney(fromMicros(estimateMicros), currency)}, and ${formatMoney(fromMicros(left.leastLeftMicros), currency)} is left of ${whose} this month. Nothing was queued.`,
  );
}

export function confirmAboveMicros(course: Pick<AiCourseFields, 'aiConfirmAboveMicros'>): number {
  return course.aiConfirmAboveMicros ?? toMicros(DEFAULT_CONFIRM_ABOVE);
}

/** 409 COST_CONFIRMATION_REQUIRED when the estimate is above the course's amount and was not confirmed. */
export function requireConfirmation(
  ctx: AppContext,
  course: Pick<AiCourseFields, 'aiConfirmAboveMicros'>,
  estimateMicros: number,
  confirmed: boolean,
  what: string,
): void {
  const above = confirmAboveMicros(course);
  if (confirmed || estimateMicros <= above) return;
  const currency = ctx.config.aiCurrency;
  throw new AppError(
    'COST_CONFIRMATION_REQUIRED',
    `${what} is estimated at ${formatMoney(fromMicros(estimateMicros), currency)}, more than this course's ${formatMoney(fromMicros(above), currency)} without asking. Nothing was queued; confirm the estimate to start.`,
  );
}

/** The estimate as the API shows it. */
export function presentEstimate(
  ctx: AppContext,
  provider: AiProviderConfig,
  course: Pick<AiCourseFields, 'aiConfirmAboveMicros'>,
  estimate: BatchEstimate,
  left: BudgetLeft,
): AiCostEstimate {
  const above = confirmAboveMicros(course);
  return {
    providerId: provider.id,
    providerLabel: provider.label,
    location: locationOf(provider),
    currency: ctx.config.aiCurrency,
    answers: estimate.answers,
    inputTokens: estimate.inputTokens,
    outputTokens: estimate.outputTokens,
    cost: fromMicros(estimate.costMicros),
    confirmAbove: fromMicros(above),
    needsConfirmation: estimate.costMicros > above,
    budgetLeft: left.leastLeftMicros === null ? null : fromMicros(left.leastLeftMicros),
    fitsBudget: left.leastLeftMicros === null || estimate.costMicros <= left.leastLeftMicros,
  };
}
