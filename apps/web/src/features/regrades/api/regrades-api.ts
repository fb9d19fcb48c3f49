import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GradeReleaseOutput,
  RegradeRequestOutput,
  RegradeSettingsOutput,
  type RegradeSettingsInput,
  type ResolveRegradeInput,
} from '@gradewise/shared/contracts/regrades';
import { apiClient } from '../../../lib/api-client.ts';
import { apiPaths } from '../../../lib/api-paths.ts';
import { queryKeys, type RegradeQueueStatus } from '../../../lib/query-keys.ts';
import { regradeQueries } from '../../../lib/queries/regrades.ts';

export const REGRADE_MESSAGES = {
  queueLoading: 'Loading regrade requests…',
  queueFailed: 'Failed to fetch regrade requests.',
  resolveFailed: 'Failed to resolve the regrade request.',
  recheckFailed: 'The AI re-check failed.',
  releaseFailed: 'Failed to change the release of grades.',
  settingsFailed: 'Failed to save the regrade rules.',
} as const;

export type { RegradeQueueStatus };

/** GET /api/courses/:id/regrade-requests?status= (course staff). */
export function useRegradeQueue(courseId: string, status: RegradeQueueStatus) {
  return useQuery(regradeQueries.queue(courseId, status));
}

/**
 * Resolving changes the queue, the grade the question page shows and the student's report: every
 * view of them is refreshed (reports are keyed by submission, so all of them).
 */
export function useResolveRegrade(requestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ResolveRegradeInput) =>
      apiClient.post(apiPaths.regradeRequests.resolve(requestId), input, RegradeRequestOutput),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.regrades.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.questions.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.reports.all }),
      ]),
  });
}

export function useAiRecheck(requestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.post(apiPaths.regradeRequests.aiRecheck(requestId), {}, RegradeRequestOutput),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.regrades.all }),
  });
}

/** Hold or release the grades of an assignment (no questionId) or of one question. */
export function useGradeRelease(scope: { assignmentId: string; questionId?: string }) {
  const queryClient = useQueryClient();
  const path = apiPaths.scoped.gradeRelease(scope.assignmentId, scope.questionId);
  return useMutation({
    mutationFn: (released: boolean) => apiClient.post(path, { released }, GradeReleaseOutput),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.assignments.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.questions.all }),
      ]),
  });
}

export function useRegradeSettings(assignmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RegradeSettingsInput) =>
      apiClient.patch(apiPaths.assignments.regradeSettings(assignmentId), input, RegradeSettingsOutput),
    onSuccess: (result) => {
      queryClient.setQueryData(queryKeys.assignments.detail(assignmentId), result.assignment);
      return queryClient.invalidateQueries({ queryKey: queryKeys.assignments.lists });
    },
  });
}
