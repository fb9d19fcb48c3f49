import { z } from 'zod';

/**
 * Grading statistics (issue 12 item 7), staff only:
 * GET /api/assignments/:assignmentId/questions/:questionId/statistics (one question) and
 * GET /api/assignments/:assignmentId/statistics (the assignment: a student's total is the sum of
 * their saved grades, as in the grades CSV). Only saved grades count as grades; an AI suggestion is
 * compared with them, never counted as one. Definitions: docs/decisions/0024-anonymous-grading-and-statistics.md.
 */

/** How close two gradings of the same answers are. Null figures: nothing to compare. */
export const Agreement = z.object({
  /** Answers compared. */
  compared: z.number().int(),
  /** Mean of |a − b| in points. */
  meanAbsoluteDifference: z.number().nullable(),
  /** The same, as a percentage of each answer's question points (0..100). */
  meanAbsoluteDifferencePercent: z.number().nullable(),
  /** Share (0..1) of answers where the two are within 10% of the question's points. */
  withinTenPercentShare: z.number().nullable(),
});
export type Agreement = z.infer<typeof Agreement>;

/** One bar of the histogram: grades in [from, to) — the last bar includes `to`. */
export const HistogramBin = z.object({ from: z.number(), to: z.number(), count: z.number().int() });
export type HistogramBin = z.infer<typeof HistogramBin>;

export const RubricItemStatistics = z.object({
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
});
export type RubricItemStatistics = z.infer<typeof RubricItemStatistics>;

export const GraderStatistics = z.object({
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
});
export type GraderStatistics = z.infer<typeof GraderStatistics>;

export const StatisticsOutput = z.object({
  scope: z.enum(['question', 'assignment']),
  title: z.string(),
  /** The most a grade can be: the question's points, or the assignment's total. */
  points: z.number(),
  /** Students with a current answer (latest version) to the question, or to any question of the assignment. */
  answered: z.number().int(),
  /** Of those, students with a saved grade (the distribution's population). */
  graded: z.number().int(),
  histogram: z.array(HistogramBin),
  mean: z.number().nullable(),
  median: z.number().nullable(),
  /** Share (0..1) of current answers that came in after the deadline; null without answers. */
  lateShare: z.number().nullable(),
  rubricItems: z.array(RubricItemStatistics),
  /** Saved grades against the AI suggestion each started from, whoever saved them. */
  aiAgreement: Agreement,
  graders: z.array(GraderStatistics),
});
export type StatisticsOutput = z.infer<typeof StatisticsOutput>;
