import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AiCostEstimate, BatchSpend, StopGradeAllOutput, SubmissionAiRuns } from '@gradewise/shared/contracts/ai-cost';
import { GradeAllOutput } from '@gradewise/shared/contracts/grading';
import { apiClient } from '../../../lib/api-client.ts';
import { refreshAfterGrading } from './grading-api.ts';

/**
 * Issue 31 on the web: what AI work costs before, during and after a run, Stop, and the course's
 * provider and budget. Paths are built here (this feature's own routes, beside the contract's).
 */

const question = (assignmentId: string, questionId: string) => `/assignments/${assignmentId}/questions/${questionId}`;

export const aiCostKeys = {
  estimate: (questionId: string) => ['ai-cost', 'estimate', questionId] as const,
  resuggestEstimate: (questionId: string) => ['ai-cost', 'resuggest-estimate', questionId] as const,
  batchSpend: (batchId: string) => ['ai-cost', 'batch', batchId] as const,
  runs: (submissionId: string) => ['ai-cost', 'runs', submissionId] as const,
};

/** GET grade-all/estimate, only while the dialog that shows it is open (it reads every answer's text). */
export function useGradeAllEstimate(assignmentId: string, questionId: string, enabled: boolean) {
  return useQuery({
    queryKey: aiCostKeys.estimate(questionId),
    queryFn: ({ signal }) =>
      apiClient.get(`${question(assignmentId, questionId)}/grade-all/estimate`, AiCostEstimate, { signal }),
    enabled,
    staleTime: 0,
  });
}

/** GET resuggest/estimate, only while re-suggest's confirmation is open: what re-suggesting every waiting answer costs. */
export function useResuggestEstimate(assignmentId: string, questionId: string, enabled: boolean) {
  return useQuery({
    queryKey: aiCostKeys.resuggestEstimate(questionId),
    queryFn: ({ signal }) =>
      apiClient.get(`${question(assignmentId, questionId)}/resuggest/estimate`, AiCostEstimate, { signal }),
    enabled,
    staleTime: 0,
  });
}

/** POST grade-all with the estimate confirmed. */
export function useConfirmedGradeAll(assignmentId: string, questionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiClient.post(`${question(assignmentId, questionId)}/grade-all`, { confirmCost: true }, GradeAllOutput),
    onSuccess: () => refreshAfterGrading(queryClient, assignmentId, questionId),
  });
}

/** How often the spend is read while a batch runs. */
const SPEND_POLL_MS = 2000;

/** GET grade-all/spend: what a batch has spent, read again while it runs. */
export function useBatchSpend(assignmentId: string, questionId: string, batchId: string, isRunning: boolean) {
  return useQuery({
    queryKey: aiCostKeys.batchSpend(batchId),
    queryFn: ({ signal }) =>
      apiClient.get(
        `${question(assignmentId, questionId)}/grade-all/spend?batchId=${encodeURIComponent(batchId)}`,
        BatchSpend,
        { signal },
      ),
    refetchInterval: isRunning ? SPEND_POLL_MS : false,
  });
}

export function useStopGradeAll(assignmentId: string, questionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (batchId: string) =>
      apiClient.post(`${question(assignmentId, questionId)}/grade-all/stop`, { batchId }, StopGradeAllOutput),
    onSuccess: async (output) => {
      await queryClient.invalidateQueries({ queryKey: aiCostKeys.batchSpend(output.batchId) });
      await refreshAfterGrading(queryClient, assignmentId, questionId);
    },
  });
}

export function useSubmissionAiRuns(assignmentId: string, questionId: string, submissionId: string, enabled = true) {
  return useQuery({
    enabled,
    queryKey: aiCostKeys.runs(submissionId),
    queryFn: ({ signal }) =>
      apiClient.get(`${question(assignmentId, questionId)}/submissions/${submissionId}/ai-runs`, SubmissionAiRuns, {
        signal,
      }),
  });
}
