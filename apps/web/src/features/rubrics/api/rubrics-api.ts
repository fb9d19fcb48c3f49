import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { GenerateRubricOutput, SaveRubricOutput, type SaveRubricInput } from '@gradewise/shared/contracts/grading';
import { RubricTrialOutput, type RubricTrialInput } from '@gradewise/shared/contracts/review';
import { apiClient } from '../../../lib/api-client.ts';
import { apiPaths } from '../../../lib/api-paths.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { questionQueries } from '../../../lib/queries/questions.ts';

/** Texts of spec sections 2, 4 and 8 for rubrics. */
export const RUBRIC_MESSAGES = {
  generate: 'Generate Rubric',
  generating: 'Generating Rubric…',
  generatingDialog: 'Generating Rubric... This may take up to 3 minutes',
  generated: 'Rubric generated successfully!',
  generateFailed: 'Failed to generate rubric.',
  fetchFailed: 'Failed to fetch rubric',
  noRubric: 'No AI rubric found. Generate one from the question page.',
  save: 'Save Rubric',
  saving: 'Saving…',
  saved: 'Rubric saved successfully!',
  saveFailed: 'Failed to save rubric.',
  previewPlaceholder: '(No preview yet. Click Recompile Preview to see it here.)',
  previewFailed: 'Failed to compile rubric preview',
  trialFailed: 'Failed to try the rubric.',
} as const;

/**
 * The question with its rubric (`autoRubric`) and its submissions (the wizard tries the rubric on
 * them): the question's one cache entry, shared with the question page and the grading screen.
 */
export function useRubricQuestion(assignmentId: string, questionId: string) {
  return useQuery(questionQueries.detail(assignmentId, questionId));
}

/** After a rubric changes, the question's one entry is read again (every screen showing it follows). */
function refreshQuestion(queryClient: QueryClient, assignmentId: string, questionId: string) {
  return queryClient.invalidateQueries({ queryKey: queryKeys.questions.detail(assignmentId, questionId) });
}

export function useGenerateRubric(assignmentId: string, questionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiClient.post(apiPaths.questions.generateRubric(assignmentId, questionId), undefined, GenerateRubricOutput),
    onSuccess: () => refreshQuestion(queryClient, assignmentId, questionId),
  });
}

export function useSaveRubric(assignmentId: string, questionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SaveRubricInput) =>
      apiClient.patch(apiPaths.questions.saveRubric(assignmentId, questionId), input, SaveRubricOutput),
    onSuccess: () => refreshQuestion(queryClient, assignmentId, questionId),
  });
}

/**
 * After a save refused as stale: read the question again. The editor is keyed by the rubric's
 * `updatedAt`, so it starts over from the rubric that is current now.
 */
export function useReloadRubric(assignmentId: string, questionId: string) {
  const queryClient = useQueryClient();
  return () => refreshQuestion(queryClient, assignmentId, questionId);
}

/** The version the editor's texts came from, for save-rubric's optimistic check (null: no rubric yet). */
export function expectedVersionOf(rubric: { version?: number } | undefined): { expectedVersion?: number | null } {
  if (!rubric) return { expectedVersion: null };
  return rubric.version === undefined ? {} : { expectedVersion: rubric.version };
}

/** The wizard's "try it": grades a sample answer or up to three submissions with the unsaved rubric. */
export function useTryRubric(assignmentId: string, questionId: string) {
  return useMutation({
    mutationFn: (input: RubricTrialInput) =>
      apiClient.post(apiPaths.questions.rubricTrial(assignmentId, questionId), input, RubricTrialOutput),
  });
}
