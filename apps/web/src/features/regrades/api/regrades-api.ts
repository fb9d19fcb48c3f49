import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GradeReleaseOutput,
  RegradeQueue,
  RegradeRequestOutput,
  RegradeSettingsOutput,
  type RegradeSettingsInput,
  type ResolveRegradeInput,
} from '@gradewise/shared/contracts/regrades';
import { apiClient } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const REGRADE_MESSAGES = {
  queueLoading: 'Loading regrade requests…',
  queueFailed: 'Failed to fetch regrade requests.',
  resolveFailed: 'Failed to resolve the regrade request.',
  recheckFailed: 'The AI re-check failed.',
  releaseFailed: 'Failed to change the release of grades.',
  settingsFailed: 'Failed to save the regrade rules.',
} as const;

export type RegradeQueueStatus = 'open' | 'resolved';

export const regradeKeys = {
  all: ['regrades'] as const,
  queue: (courseId: string, status: RegradeQueueStatus) => ['regrades', 'queue', courseId, status] as const,
};

/** GET /api/courses/:id/regrade-requests?status= (course staff). */
export function useRegradeQueue(courseId: string, status: RegradeQueueStatus) {
  return useQuery({
    queryKey: regradeKeys.queue(courseId, status),
    queryFn: ({ signal }) =>
      apiClient.get(`/courses/${encodeURIComponent(courseId)}/regrade-requests?status=${status}`, RegradeQueue, {
        signal,
      }),
  });
}

/**
 * Resolving changes the queue, the grade the question page shows and the student's report: every
 * view of them is refreshed (reports are keyed by submission, so all of them).
 */
export function useResolveRegrade(requestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ResolveRegradeInput) =>
      apiClient.post(`/regrade-requests/${encodeURIComponent(requestId)}/resolve`, input, RegradeRequestOutput),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: regradeKeys.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.questions.all }),
        queryClient.invalidateQueries({ queryKey: ['reports'] }),
      ]),
  });
}

export function useAiRecheck(requestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiClient.post(`/regrade-requests/${encodeURIComponent(requestId)}/ai-recheck`, {}, RegradeRequestOutput),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: regradeKeys.all }),
  });
}

/** Hold or release the grades of an assignment (no questionId) or of one question. */
export function useGradeRelease(scope: { assignmentId: string; questionId?: string }) {
  const queryClient = useQueryClient();
  const base = `/assignments/${encodeURIComponent(scope.assignmentId)}`;
  const path = scope.questionId
    ? `${base}/questions/${encodeURIComponent(scope.questionId)}/grade-release`
    : `${base}/grade-release`;
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
      apiClient.patch(
        `/assignments/${encodeURIComponent(assignmentId)}/regrade-settings`,
        input,
        RegradeSettingsOutput,
      ),
    onSuccess: (result) => {
      queryClient.setQueryData(queryKeys.assignments.detail(assignmentId), result.assignment);
      return queryClient.invalidateQueries({ queryKey: ['assignments', 'list'] });
    },
  });
}
