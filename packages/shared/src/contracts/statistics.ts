import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

/**
 * Grading statistics (issue 12 item 7), staff only:
 * GET /api/assignments/:assignmentId/questions/:questionId/statistics (one question) and
 * GET /api/assignments/:assignmentId/statistics (the assignment: a student's total is the sum of
 * their saved grades, as in the grades CSV). Only saved grades count as grades; an AI suggestion is
 * compared with them, never counted as one. Definitions: docs/decisions/0024-anonymous-grading-and-statistics.md.
 */

/** How close two gradings of the same answers are. Null figures: nothing to compare. */
export const Agreement = lazySchema(() =>
  z.object({
    /** Answers compared. */
    compared: z.number().int(),
    /** Mean of |a − b| in points. */
    meanAbsoluteDifference: z.number().nullable(),
    /** The same, as a percentage of each answer's question points (0..100). */
    meanAbsoluteDifferencePercent: z.number().nullable(),
    /** Share (0..1) of answers where the two are within 10% of the question's points. */
    withinTenPercentShare: z.number().nullable(),
  }),
);
export type Agreement = z.infer<typeof Agreement>;

/** One bar of the histogram: grades in [from, to) — the last bar includes `to`. */
export const HistogramBin = lazySchema(() => z.object({ from: z.number(), to: z.number(), count: z.number().int() }));
export type HistogramBin = z.infer<typeof HistogramBin>;

export const RubricItemStatistics = lazySchema(() =>
  z.object({
    questionId: z.string(),
    /** The question's title (or "Question N"), to tell items of an assignment apart. */
    questionLabel: z.string(),
    itemId: z.string(),
    criterion: z.string(),
    points: z.number(),
    /** Graded answers that lost points on this item. */
    deductedCount: z.number().int(),
    /** Share (0..1) of graded answers that lost points on this item. */
    answerShare: z.number(),
    /** Share (0..1) of all points deducted (on items and general remarks) that this item took. */
    pointsShare: z.number(),
  }),
);
export type RubricItemStatistics = z.infer<typeof RubricItemStatistics>;

export const GraderStatistics = lazySchema(() =>
  z.object({
    /** The person's user id, or 'ai' for the AI grader. */
    graderId: z.string(),
    name: z.string(),
    kind: z.enum(['person', 'ai']),
    /** The course's owning instructor: the reference the others are compared with. */
    isInstructor: z.boolean(),
    /** Current grades they saved (for the AI: current answers it suggested a grade for). */
    count: z.number().int(),
    /** Mean of those grades, in points and as a percentage of the question's points. */
    meanGrade: z.number().nullable(),
    meanPercent: z.number().nullable(),
    /**
     * Agreement with the instructor on double-graded answers: answers whose grade history holds
     * saves by this grader and by the instructor (their newest of each compared). For the AI: its
     * suggestion against the instructor's grade that started from it. Null for the instructor.
     */
    agreementWithInstructor: Agreement.nullable(),
    /** How much of the AI's suggestion they kept: their saved grades against the suggestion each started from. */
    agreementWithAi: Agreement.nullable(),
  }),
);
export type GraderStatistics = z.infer<typeof GraderStatistics>;

/**
 * One band of the reliability diagram: decisions whose suggestion said a confidence in
 * [from, to] (bands of 10 points: 0–9, 10–19, …, 90–100). Null figures: no decision in the band.
 */
export const ReliabilityBin = lazySchema(() =>
  z.object({
    from: z.number().int(),
    to: z.number().int(),
    /** Decisions in the band. */
    count: z.number().int(),
    /** Mean confidence the suggestions said (0..100). */
    meanConfidence: z.number().nullable(),
    /** Share (0..1) of them the grader kept (final score within 10% of the question's points). */
    keptShare: z.number().nullable(),
  }),
);
export type ReliabilityBin = z.infer<typeof ReliabilityBin>;

/**
 * What the AI's confidence said against what the graders kept (issue 27): one *decision* per
 * answer whose counting grade started from an AI suggestion that stated a confidence, whoever
 * saved it. The rule (bands, kept, ECE) is packages/shared/src/reliability.ts.
 */
export const Reliability = lazySchema(() =>
  z.object({
    /** Decisions counted. */
    decisions: z.number().int(),
    /** Always the ten bands, in order, empty ones with count 0. */
    bins: z.array(ReliabilityBin),
    /**
     * Expected calibration error in percentage points (0..100): the sum over bands of
     * |mean confidence said − share kept × 100| × the band's share of the decisions. Null without decisions.
     */
    expectedCalibrationError: z.number().nullable(),
    /** Over all decisions: the mean confidence said (0..100) and the share kept (0..1). */
    meanConfidence: z.number().nullable(),
    keptShare: z.number().nullable(),
  }),
);
export type Reliability = z.infer<typeof Reliability>;

export const QuestionReliability = lazySchema(() =>
  z.object({
    questionId: z.string(),
    /** The question's title (or "Question N"). */
    questionLabel: z.string(),
    reliability: Reliability,
  }),
);
export type QuestionReliability = z.infer<typeof QuestionReliability>;

export const StatisticsOutput = lazySchema(() =>
  z.object({
    scope: z.enum(['question', 'assignment']),
    title: z.string(),
    /** The most a grade can be: the question's points, or the assignment's total. */
    points: z.number(),
    /** Students with a current answer (latest version) to the question, or to any question of the assignment. */
    answered: z.number().int(),
    /**
     * Of those, the students graded in full (the distribution's population): for a question, those
     * with a saved grade; for an assignment, those whose every answer has a saved grade.
     */
    graded: z.number().int(),
    /**
     * Assignment: students with some answers graded and some not, left out of the distribution, mean
     * and median (their total is not a grade yet). Always 0 for a question.
     */
    partlyGraded: z.number().int(),
    histogram: z.array(HistogramBin),
    mean: z.number().nullable(),
    median: z.number().nullable(),
    /** Share (0..1) of current answers that came in after the deadline; null without answers. */
    lateShare: z.number().nullable(),
    rubricItems: z.array(RubricItemStatistics),
    /** Saved grades against the AI suggestion each started from, whoever saved them. */
    aiAgreement: Agreement,
    graders: z.array(GraderStatistics),
    /** The reliability diagram of the AI's confidence over the whole scope (issue 27). */
    reliability: Reliability,
    /** The same for each question of the scope, in the assignment's order (one for a question). */
    questionReliability: z.array(QuestionReliability),
  }),
);
export type StatisticsOutput = z.infer<typeof StatisticsOutput>;
