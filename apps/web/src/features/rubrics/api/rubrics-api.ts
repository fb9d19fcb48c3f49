import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { GenerateRubricOutput, SaveRubricOutput, type SaveRubricInput } from '@gradewise/shared/contracts/grading';
import { QuestionDetail } from '@gradewise/shared/contracts/questions';
import { RubricTrialOutput, type RubricTrialInput } from '@gradewise/shared/contracts/review';
import { apiClient } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

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

/** The question's API path (its rubric calls hang below it). */
const questionPath = (assignmentId: string, questionId: string) =>
  `/assignments/${encodeURIComponent(assignmentId)}/questions/${encodeURIComponent(questionId)}`;

/** The question with its rubric (`autoRubric`), and its submissions when the wizard wants to try them. */
export function useRubricQuestion(assignmentId: string, questionId: string, { includeSubmissions = false } = {}) {
  return useQuery({
    queryKey: [...queryKeys.questions.views(assignmentId, questionId), { includeSubmissions, view: 'rubric' }],
    queryFn: ({ signal }) =>
      apiClient.get(
        `${questionPath(assignmentId, questionId)}${includeSubmissions ? '?includeSubmissions=1' : ''}`,
        QuestionDetail,
        {
          signal,
        },
      ),
  });
}

export function useGenerateRubric(assignmentId: string, questionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiClient.post(`${questionPath(assignmentId, questionId)}/generate-rubric`, undefined, GenerateRubricOutput),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.questions.views(assignmentId, questionId) }),
  });
}

export function useSaveRubric(assignmentId: string, questionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SaveRubricInput) =>
      apiClient.patch(`${questionPath(assignmentId, questionId)}/save-rubric`, input, SaveRubricOutput),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.questions.views(assignmentId, questionId) }),
  });
}

/**
 * After a save refused as stale: read the question again. The editor is keyed by the rubric's
 * `updatedAt`, so it starts over from the rubric that is current now.
 */
export function useReloadRubric(assignmentId: string, questionId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.questions.views(assignmentId, questionId) });
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
      apiClient.post(`${questionPath(assignmentId, questionId)}/rubric-trial`, input, RubricTrialOutput),
  });
}
