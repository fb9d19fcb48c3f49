import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ModelCheck,
  ModelCheckEstimate,
  ModelCheckList,
  type StartModelCheckInput,
} from '@gradewise/shared/contracts/ai-model-checks';
import { apiClient } from '../../../lib/api-client.ts';

/** Model checks before switching (issue 31, item 5): the estimate, starting one, and the course's history. */
const modelCheckKeys = {
  list: (courseId: string) => ['ai-model-checks', courseId] as const,
  estimate: (courseId: string, providerId: string, sampleSize: number) =>
    ['ai-model-checks', courseId, 'estimate', providerId, sampleSize] as const,
};

/** How often the history is read while a check is queued or running. */
const CHECK_POLL_MS = 2000;

const isRunning = (check: ModelCheck) => check.status === 'queued' || check.status === 'running';

/** GET ai-model-checks: newest first, read again while one runs (its progress). */
export function useModelChecks(courseId: string) {
  return useQuery({
    queryKey: modelCheckKeys.list(courseId),
    queryFn: ({ signal }) => apiClient.get(`/courses/${courseId}/ai-model-checks`, ModelCheckList, { signal }),
    refetchInterval: (query) => (query.state.data?.checks.some(isRunning) ? CHECK_POLL_MS : false),
  });
}

/** GET ai-model-checks/estimate, only once the owner asked for it (it reads every sampled answer's text). */
export function useModelCheckEstimate(courseId: string, request: { providerId: string; sampleSize: number } | null) {
  return useQuery({
    queryKey: modelCheckKeys.estimate(courseId, request?.providerId ?? '', request?.sampleSize ?? 0),
    queryFn: ({ signal }) =>
      apiClient.get(
        `/courses/${courseId}/ai-model-checks/estimate?providerId=${encodeURIComponent(request!.providerId)}&sampleSize=${request!.sampleSize}`,
        ModelCheckEstimate,
        { signal },
      ),
    enabled: request !== null,
    staleTime: 0,
    retry: false,
  });
}

/** POST ai-model-checks with the estimate confirmed. */
export function useStartModelCheck(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StartModelCheckInput) =>
      apiClient.post(`/courses/${courseId}/ai-model-checks`, input, ModelCheck),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: modelCheckKeys.list(courseId) }),
  });
}
