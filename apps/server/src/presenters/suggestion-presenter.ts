import type { SuggestionSummary } from '@gradewise/shared/contracts/suggestions';
import { DEFAULT_CONFIDENCE } from '@gradewise/shared/contracts/grading';
import type { SuggestionState } from '../services/read-suggestion-summary.ts';

/**
 * Confidence is the chance the instructor keeps the suggested score (within 10% of the points), so
 * 1 - confidence/100 is the chance a suggestion needs a change, and the sum over the pending
 * suggestions is how many of them are expected to.
 */
export function expectedChanges(confidences: readonly (number | null)[]): number {
  const expected = confidences.reduce<number>(
    (sum, confidence) => sum + (1 - Math.min(100, Math.max(0, confidence ?? DEFAULT_CONFIDENCE)) / 100),
    0,
  );
  return Math.round(expected);
}

export function presentSuggestionSummary(input: SuggestionState): SuggestionSummary {
  const { refresh } = input;
  return {
    questionPoints: input.questionPoints,
    pending: input.suggestions.length,
    expectedChanges: expectedChanges(input.suggestions.map((run) => run.confidence)),
    withoutSuggestion: input.withoutSuggestion,
    savedGrades: input.savedGrades,
    upToDate: input.suggestions.filter((run) => run.examplesUsed === input.savedGrades).length,
    grader: { kind: input.grader.graderKind, provider: input.grader.provider, model: input.grader.model },
    refreshesAutomatically: input.grader.graderKind === 'builtin',
    refresh: refresh
      ? {
          status: refresh.status,
          examplesUsed: refresh.examplesUsed,
          resuggested: refresh.resuggested,
          finishedAt: refresh.finishedAt?.toISOString() ?? null,
        }
      : null,
    resuggestable: input.resuggestable,
  };
}
