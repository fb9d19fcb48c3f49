import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ResuggestOutput, type SuggestionSummary } from '@gradewise/shared/contracts/suggestions';
import { apiClient } from '../../../lib/api-client.ts';
import { apiPaths } from '../../../lib/api-paths.ts';
import { gradingQueries } from '../../../lib/queries/grading.ts';
import { refreshAfterGrading } from './grading-api.ts';

export const SUGGESTION_MESSAGES = {
  summaryFailed: 'Could not load the AI suggestions of this question.',
  resuggestFailed: 'Failed to re-suggest the answers.',
} as const;

/** How often the summary asks while a background refresh is queued or running. */
const REFRESH_POLL_MS = 2000;

/** Whether the summary says a background refresh of the suggestions is queued or running. */
export const isRefreshing = (summary: SuggestionSummary | undefined) =>
  summary?.refresh?.status === 'queued' || summary?.refresh?.status === 'running';

/**
 * GET suggestion-summary: pending suggestions, the changes they are expected to need, and the
 * latest background refresh (polled while it runs). When a refresh finishes, everything showing
 * suggestions (the submissions table, the review queue) is read again, and `onRefreshed` is called
 * with the summary that says so (the grading screen reads its open answer's suggestion again).
 */
export function useSuggestionSummary(
  assignmentId: string,
  questionId: string,
  {
    enabled = true,
    onRefreshed,
  }: { enabled?: boolean; onRefreshed?: (summary: SuggestionSummary | undefined) => void } = {},
) {
  const queryClient = useQueryClient();
  const summary = useQuery({
    ...gradingQueries.suggestionSummary(assignmentId, questionId),
    enabled,
    refetchInterval: (query) => (isRefreshing(query.state.data) ? REFRESH_POLL_MS : false),
  });
  const { data } = summary;
  const refreshing = isRefreshing(data);
  const wasRefreshing = useRef(false);
  // The latest callback, called from the effect below without making it run again on every render.
  const refreshed = useRef(onRefreshed);
  useEffect(() => {
    refreshed.current = onRefreshed;
  });
  useEffect(() => {
    if (wasRefreshing.current && !refreshing) {
      void refreshAfterGrading(queryClient, assignmentId, questionId);
      refreshed.current?.(data);
    }
    wasRefreshing.current = refreshing;
  }, [refreshing, data, queryClient, assignmentId, questionId]);
  return summary;
}

/**
 * POST resuggest with the number of answers (= calls) the instructor confirmed, after its cost
 * estimate was shown: the confirmation covers an estimate above the course's amount (issue 31).
 */
export function useResuggest(assignmentId: string, questionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (answers: number) =>
      apiClient.post(
        apiPaths.questions.resuggest(assignmentId, questionId),
        { answers, confirmCost: true },
        ResuggestOutput,
      ),
    onSettled: () => refreshAfterGrading(queryClient, assignmentId, questionId),
  });
}
