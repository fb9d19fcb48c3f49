import { useQuery } from '@tanstack/react-query';
import { AssignmentAiSpend } from '@gradewise/shared/contracts/ai-cost';
import { apiClient } from '../../../lib/api-client.ts';

/** GET /api/assignments/:id/ai-spend: what its course spent on AI, all time, this month and per assignment (issue 31). */
export function useAssignmentAiSpend(assignmentId: string) {
  return useQuery({
    queryKey: ['ai-cost', 'assignment-spend', assignmentId],
    queryFn: ({ signal }) => apiClient.get(`/assignments/${assignmentId}/ai-spend`, AssignmentAiSpend, { signal }),
  });
}
