import { useQuery } from '@tanstack/react-query';
import { gradingQueries } from '../../../lib/queries/grading.ts';

export const AI_QUOTA_MESSAGES = {
  loading: 'Checking AI limits…',
  failed: 'Could not load the AI limits left.',
} as const;

/**
 * GET ai-quota: the AI calls left to the instructor on this question's course. Under the
 * suggestions key, so everything that refreshes after grading (refreshAfterGrading) reads it again;
 * read again every 30 s too, while a batch spends.
 */
export function useAiQuota(assignmentId: string, questionId: string) {
  return useQuery({ ...gradingQueries.aiQuota(assignmentId, questionId), refetchInterval: 30_000 });
}
