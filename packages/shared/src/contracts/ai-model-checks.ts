import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { AiCostEstimate, AiLocation } from './ai-cost.ts';

/**
 * A check before switching models (issue 31, item 5; docs/decisions/0077-model-check-before-switching.md):
 * the course owner runs a candidate provider on a sample of the course's saved grades, beside the
 * provider the course grades with now, and reads how well each agrees with those grades.
 */

/** The sample when the owner does not say. */
export const DEFAULT_MODEL_CHECK_SAMPLE = 20;
/** The largest sample: two provider calls per answer, run one after another by one job. */
export const MAX_MODEL_CHECK_SAMPLE = 100;
/** How close counts as agreeing: within this share of the question's points. */
export const AGREEMENT_SHARE = 0.1;

/** A sample size: a query string is coerced to a number, a JSON body must send one. */
const sampleSize = (number: z.ZodNumber) =>
  number
    .refine(Number.isFinite, 'must be a whole number of answers')
    .int('must be a whole number of answers')
    .min(1, 'must be at least 1 answer')
    .max(MAX_MODEL_CHECK_SAMPLE, `must be at most ${MAX_MODEL_CHECK_SAMPLE} answers`);

const ProviderId = lazySchema(() =>
  z
    .string({ message: 'must name a provider of this server' })
    .min(1, 'must name a provider of this server')
    .max(40, 'must name a provider of this server'),
);

/** GET /api/courses/:id/ai-model-checks/estimate?providerId=&sampleSize= (owner). */
export const ModelCheckEstimateQuery = lazySchema(() =>
  z.object({
    providerId: ProviderId,
    sampleSize: sampleSize(z.coerce.number({ message: 'must be a whole number of answers' })).default(
      DEFAULT_MODEL_CHECK_SAMPLE,
    ),
  }),
);
export type ModelCheckEstimateQuery = z.infer<typeof ModelCheckEstimateQuery>;

/** POST /api/courses/:id/ai-model-checks (owner): the candidate, the sample, and the confirmation of a cost above the course's amount. */
export const StartModelCheckInput = lazySchema(() =>
  z.strictObject({
    providerId: ProviderId,
    sampleSize: sampleSize(z.number({ message: 'must be a whole number of answers' })).optional(),
    confirmCost: z.boolean({ message: 'must be true or false' }).optional(),
  }),
);
export type StartModelCheckInput = z.infer<typeof StartModelCheckInput>;

/**
 * What a check will cost before it starts: both providers on the same answers (the current one
 * again, so the two are compared on equal terms). `answers` is the sample the check would take.
 */
export const ModelCheckEstimate = lazySchema(() =>
  AiCostEstimate.extend({
    currentProviderId: z.string(),
    currentProviderLabel: z.string(),
    candidateCost: z.number(),
    currentCost: z.number(),
    /** Saved grades the sample is drawn from (answers with a saved grade on a question with a rubric). */
    savedGrades: z.number().int(),
  }),
);
export type ModelCheckEstimate = z.infer<typeof ModelCheckEstimate>;

/** How one provider agreed with the saved grades of the sample. Null figures: no answer was graded. */
export const ModelCheckSide = lazySchema(() =>
  z.object({
    providerId: z.string(),
    providerLabel: z.string(),
    model: z.string(),
    location: AiLocation,
    /** Answers it graded, and answers it could not (a provider error, an unreadable PDF). */
    graded: z.number().int(),
    failed: z.number().int(),
    /** Mean of |its total - the saved grade|, in points, and as a percentage of each question's points. */
    meanAbsoluteDifference: z.number().nullable(),
    meanAbsolutePercent: z.number().nullable(),
    /** Mean of (its total - the saved grade), in points: above 0 it gives more than the instructor. */
    meanSignedDifference: z.number().nullable(),
    /** Percentage of answers within 10% of the question's points of the saved grade. */
    withinTenPercent: z.number().nullable(),
    cost: z.number(),
  }),
);
export type ModelCheckSide = z.infer<typeof ModelCheckSide>;

/** Agreement on one rubric item: mean |points given - points the saved grade gave| on it. */
export const ModelCheckItem = lazySchema(() =>
  z.object({
    questionId: z.string(),
    questionTitle: z.string(),
    criterion: z.string(),
    points: z.number(),
    answers: z.number().int(),
    candidateMeanDifference: z.number().nullable(),
    currentMeanDifference: z.number().nullable(),
  }),
);
export type ModelCheckItem = z.infer<typeof ModelCheckItem>;

/**
 * An answer where the candidate differs most from the saved grade. Named by its place in the
 * sample, never by the student: the grading screen it links to applies the assignment's anonymity.
 */
export const ModelCheckDifference = lazySchema(() =>
  z.object({
    label: z.string(),
    assignmentId: z.string(),
    questionId: z.string(),
    submissionId: z.string(),
    questionTitle: z.string(),
    points: z.number(),
    savedScore: z.number(),
    candidateScore: z.number().nullable(),
    currentScore: z.number().nullable(),
  }),
);
export type ModelCheckDifference = z.infer<typeof ModelCheckDifference>;

export const ModelCheckResult = lazySchema(() =>
  z.object({
    candidate: ModelCheckSide,
    current: ModelCheckSide,
    items: z.array(ModelCheckItem),
    differences: z.array(ModelCheckDifference),
  }),
);
export type ModelCheckResult = z.infer<typeof ModelCheckResult>;

/** One check of the course's history, as it runs and once it finished. */
export const ModelCheck = lazySchema(() =>
  z.object({
    id: z.string(),
    candidateProviderId: z.string(),
    candidateProviderLabel: z.string(),
    currentProviderId: z.string(),
    currentProviderLabel: z.string(),
    sampleSize: z.number().int(),
    status: z.enum(['queued', 'running', 'succeeded', 'failed']),
    /** Answers of the sample both providers have answered (or failed on). */
    done: z.number().int(),
    currency: z.string(),
    /** What it spent so far (both providers). */
    cost: z.number(),
    error: z.string().nullable(),
    result: ModelCheckResult.nullable(),
    requestedAt: z.string(),
    finishedAt: z.string().nullable(),
  }),
);
export type ModelCheck = z.infer<typeof ModelCheck>;

/** GET /api/courses/:id/ai-model-checks (course staff): newest first. */
export const ModelCheckList = lazySchema(() => z.object({ checks: z.array(ModelCheck) }));
export type ModelCheckList = z.infer<typeof ModelCheckList>;
