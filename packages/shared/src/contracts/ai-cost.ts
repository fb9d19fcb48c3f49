import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

/**
 * What AI costs, in money (issue 31, docs/decisions/0073-ai-providers-per-course-and-cost.md).
 * Amounts cross the API as numbers of the server's currency (AI_CURRENCY); the server keeps
 * millionths of it ("micros") as integers, so sums never drift. A price is per million tokens,
 * so a call's cost in micros is exactly tokens x price.
 */

/** The dearest hosted models cost well under 200 per million tokens; 1000 catches a typo in the unit. */
export const MAX_PRICE_PER_MILLION = 1000;
/** The most a monthly budget or a confirmation amount may be. */
export const MAX_MONTHLY_BUDGET = 1_000_000;
/** Grade All and re-suggest ask for confirmation above this estimate until the instructor sets another amount. */
export const DEFAULT_CONFIRM_ABOVE = 1;

export function toMicros(amount: number): number {
  return Math.round(amount * 1_000_000);
}

export function fromMicros(micros: number): number {
  return micros / 1_000_000;
}

/** The cost in micros of a call: tokens times the price per million tokens. */
export function costMicros(
  tokens: { inputTokens: number; outputTokens: number },
  price: { inputPricePerMillion: number; outputPricePerMillion: number },
): number {
  return Math.round(
    tokens.inputTokens * price.inputPricePerMillion + tokens.outputTokens * price.outputPricePerMillion,
  );
}

/** "$0.0123" style: enough digits that a cent's fraction still shows. */
export function formatMoney(amount: number, currency: string): string {
  const digits = amount !== 0 && Math.abs(amount) < 1 ? 4 : 2;
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(amount);
  } catch {
    return `${amount.toFixed(digits)} ${currency}`;
  }
}

/** An amount of money in the currency; the API's message puts the field's name before these. */
const Money = () =>
  z
    .number({ message: 'must be a number (an amount of money)' })
    .refine(Number.isFinite, 'must be a number (an amount of money)')
    .min(0, 'must not be negative')
    .max(MAX_MONTHLY_BUDGET, `must be at most ${MAX_MONTHLY_BUDGET}`);

/** Where a provider sends what it reads: this server, or an external service. */
export const AiLocation = lazySchema(() => z.enum(['on-server', 'external']));
export type AiLocation = z.infer<typeof AiLocation>;

export const AiProviderChoice = lazySchema(() =>
  z.object({
    id: z.string(),
    label: z.string(),
    kind: z.enum(['builtin', 'openai', 'anthropic', 'openai-compatible']),
    model: z.string(),
    location: AiLocation,
    inputPricePerMillion: z.number(),
    outputPricePerMillion: z.number(),
  }),
);
export type AiProviderChoice = z.infer<typeof AiProviderChoice>;

/** GET /api/courses/:id/ai-settings (course staff): the course's provider, its rules and its month. */
export const CourseAiSettings = lazySchema(() =>
  z.object({
    currency: z.string(),
    providers: z.array(AiProviderChoice),
    /** The provider this course grades with (the server's default until the owner picks one). */
    providerId: z.string(),
    /** Whether the owner picked it (false: the server's default, which the operator may change). */
    providerChosen: z.boolean(),
    /** Held to providers on this server: every AI call to an external one is refused. */
    serverOnly: z.boolean(),
    /** Most the course may spend per calendar month (UTC); null: no cap. */
    monthlyBudget: z.number().nullable(),
    /** Grade All and re-suggest ask for confirmation when their estimate is above this. */
    confirmAbove: z.number(),
    /** Spent this month by this course, and what is left under its budget and the instructor's. */
    spentThisMonth: z.number(),
    courseBudgetLeft: z.number().nullable(),
    instructorBudgetLeft: z.number().nullable(),
    /** Whether the caller may change these (the course owner). */
    canEdit: z.boolean(),
  }),
);
export type CourseAiSettings = z.infer<typeof CourseAiSettings>;

/** PATCH /api/courses/:id/ai-settings (owner): any of the fields. */
export const CourseAiSettingsInput = lazySchema(() =>
  z.strictObject({
    providerId: z.string().min(1, 'must name a provider').max(40).optional(),
    serverOnly: z.boolean({ message: 'must be true or false' }).optional(),
    monthlyBudget: Money().nullable().optional(),
    confirmAbove: Money().optional(),
  }),
);
export type CourseAiSettingsInput = z.infer<typeof CourseAiSettingsInput>;

/** What students see on their course: who reads their answers, and that names are not sent. */
export const CourseAiReader = lazySchema(() =>
  z.object({
    location: AiLocation,
    /** Student names and emails are never part of what a grader reads. */
    namesSent: z.literal(false),
  }),
);
export type CourseAiReader = z.infer<typeof CourseAiReader>;

/** An estimate of queued AI work, before it starts. */
export const AiCostEstimate = lazySchema(() =>
  z.object({
    providerId: z.string(),
    providerLabel: z.string(),
    location: AiLocation,
    currency: z.string(),
    /** Answers that would be graded (calls). */
    answers: z.number().int(),
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    cost: z.number(),
    /** The course's confirmation amount; above it, the request must say `confirmCost: true`. */
    confirmAbove: z.number(),
    needsConfirmation: z.boolean(),
    /** The least left under the course's and the instructor's budgets this month; null: no cap. */
    budgetLeft: z.number().nullable(),
    fitsBudget: z.boolean(),
  }),
);
export type AiCostEstimate = z.infer<typeof AiCostEstimate>;

/** Optional body of grade-all and re-suggest: the confirmation of an estimate above the course's amount. */
export const ConfirmCostInput = lazySchema(() => z.object({ confirmCost: z.boolean().optional() }).nullish());

/** Tokens and money of some AI work. */
export const AiSpend = lazySchema(() =>
  z.object({
    calls: z.number().int(),
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    cost: z.number(),
  }),
);
export type AiSpend = z.infer<typeof AiSpend>;

/** GET .../grade-all/progress, beside the counts: what the batch has spent, and whether it was stopped. */
export const BatchSpend = lazySchema(() =>
  z.object({
    currency: z.string(),
    spend: AiSpend,
    stoppedAt: z.string().nullable(),
    /** Runs cancelled by Stop before they started. */
    cancelled: z.number().int(),
  }),
);
export type BatchSpend = z.infer<typeof BatchSpend>;

/** POST .../grade-all/stop: what was cancelled, and the exact spend once the calls in flight finish. */
export const StopGradeAllOutput = lazySchema(() =>
  z.object({
    message: z.string(),
    batchId: z.string(),
    cancelled: z.number().int(),
    stillRunning: z.number().int(),
    currency: z.string(),
    spend: AiSpend,
  }),
);
export type StopGradeAllOutput = z.infer<typeof StopGradeAllOutput>;

/** GET /api/courses/:id/ai-spend (staff): spend of the course, per assignment, all time and this month. */
export const CourseAiSpend = lazySchema(() =>
  z.object({
    currency: z.string(),
    total: AiSpend,
    thisMonth: AiSpend,
    assignments: z.array(z.object({ assignmentId: z.string(), title: z.string(), total: AiSpend })),
    monthlyBudget: z.number().nullable(),
  }),
);
export type CourseAiSpend = z.infer<typeof CourseAiSpend>;

/** One AI grading run of a submission, with what its provider call cost. */
export const AiRunCost = lazySchema(() =>
  z.object({
    runId: z.string(),
    status: z.enum(['queued', 'running', 'succeeded', 'failed']),
    /** The configured provider it ran on (null: queued before providers were listed). */
    providerId: z.string().nullable(),
    provider: z.string(),
    model: z.string(),
    inputTokens: z.number().int().nullable(),
    outputTokens: z.number().int().nullable(),
    /** Null when no provider call was recorded (the built-in grader, or the run never called). */
    cost: z.number().nullable(),
    /** A Grade All or re-suggest batch it belonged to. */
    batchId: z.string().nullable(),
    error: z.string().nullable(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  }),
);
export type AiRunCost = z.infer<typeof AiRunCost>;

/** GET .../questions/:questionId/submissions/:submissionId/ai-runs: newest first (staff). */
export const SubmissionAiRuns = lazySchema(() =>
  z.object({
    currency: z.string(),
    runs: z.array(AiRunCost),
    total: AiSpend,
  }),
);
export type SubmissionAiRuns = z.infer<typeof SubmissionAiRuns>;

/** GET /api/assignments/:id/ai-spend (staff): its course's spend, with which assignment asked (the statistics page). */
export const AssignmentAiSpend = lazySchema(() =>
  CourseAiSpend.extend({ courseId: z.string(), assignmentId: z.string() }),
);
export type AssignmentAiSpend = z.infer<typeof AssignmentAiSpend>;
