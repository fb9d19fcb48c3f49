import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { GraderInfo, JobStatus } from './grading.ts';

/**
 * Contracts of learning from saved grades (issue 9): how the question's AI suggestions stand, and
 * the explicit re-suggest with an LLM. Under /api/assignments/:assignmentId/questions/:questionId,
 * owning instructor only.
 */

/** The definition the UI shows for every confidence number. */
export const CONFIDENCE_DEFINITION = 'the chance that you keep the suggested score within 10% of the points';

/** The question's latest background refresh of its suggestions after a save (built-in grader). */
export const SuggestionRefreshState = lazySchema(() =>
  z.object({
    status: JobStatus,
    /** Saved grades the refresh learned from; null until it ran. */
    examplesUsed: z.number().nullable(),
    /** Answers it suggested again; null until it finished. */
    resuggested: z.number().nullable(),
    finishedAt: z.string().nullable(),
  }),
);
export type SuggestionRefreshState = z.infer<typeof SuggestionRefreshState>;

/** GET .../suggestion-summary */
export const SuggestionSummary = lazySchema(() =>
  z.object({
    questionPoints: z.number(),
    /** Current answers with an AI suggestion and no saved grade. */
    pending: z.number(),
    /**
     * How many pending suggestions are expected to need a change: the sum over them of
     * (1 - confidence / 100), rounded. Confidence is the chance the instructor keeps the score.
     */
    expectedChanges: z.number(),
    /** Current answers with neither a saved grade nor a finished suggestion. */
    withoutSuggestion: z.number(),
    /** Current answers with a saved grade: the examples the grader learns from. */
    savedGrades: z.number(),
    /** Pending suggestions made with the current number of saved grades as examples. */
    upToDate: z.number(),
    /** The grader configured now. */
    grader: GraderInfo,
    /** True with the built-in grader: suggestions refresh by themselves after each save (free). */
    refreshesAutomatically: z.boolean(),
    refresh: SuggestionRefreshState.nullable(),
    /** Answers an explicit re-suggest would send to the grader now (no saved grade, none in flight): one call each. */
    resuggestable: z.number(),
  }),
);
export type SuggestionSummary = z.infer<typeof SuggestionSummary>;

/**
 * POST .../resuggest: suggests every pending answer again with the configured grader, saved grades
 * in the prompt. `answers` is the count the instructor confirmed; if more answers are waiting by
 * now, nothing is sent (409), so the spend never exceeds what was confirmed.
 */
export const ResuggestInput = lazySchema(() =>
  z.object({
    answers: z
      .number({ error: 'Say how many answers to re-suggest.' })
      .int('The number of answers must be a whole number.')
      .min(1, 'There must be at least one answer to re-suggest.'),
  }),
);
export type ResuggestInput = z.input<typeof ResuggestInput>;

export const ResuggestOutput = lazySchema(() =>
  z.object({
    message: z.string(),
    batchId: z.string().nullable(),
    /** Grading runs queued: one grader call each. */
    queued: z.number(),
  }),
);
export type ResuggestOutput = z.infer<typeof ResuggestOutput>;
