import { useQuery } from '@tanstack/react-query';
import { StatisticsOutput } from '@gradewise/shared/contracts/statistics';
import { apiClient } from '../../../lib/api-client.ts';

export const STATISTICS_MESSAGES = {
  fetchFailed: 'Failed to fetch statistics.',
  notFound: 'Statistics not found or access denied.',
} as const;

export interface StatisticsScope {
  assignmentId: string;
  /** A question's statistics; without it, the assignment's. */
  questionId?: string;
}

/** GET .../questions/:questionId/statistics or GET /api/assignments/:assignmentId/statistics (staff). */
export function useStatistics({ assignmentId, questionId }: StatisticsScope) {
  const path = questionId
    ? `/assignments/${encodeURIComponent(assignmentId)}/questions/${encodeURIComponent(questionId)}/statistics`
    : `/assignments/${encodeURIComponent(assignmentId)}/statistics`;
  return useQuery({
    queryKey: ['statistics', assignmentId, questionId ?? null],
    queryFn: ({ signal }) => apiClient.get(path, StatisticsOutput, { signal }),
  });
}
