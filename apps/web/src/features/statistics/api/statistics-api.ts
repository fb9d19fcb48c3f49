import { useQuery } from '@tanstack/react-query';
import { statisticsQuery } from '../../../lib/queries/statistics.ts';

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
  return useQuery(statisticsQuery(assignmentId, questionId));
}
