import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CreateAssignmentOutput,
  SetAnonymousGradingOutput,
  UpdateAssignmentSettingsOutput,
  type CreateAssignmentInput,
  type SetAnonymousGradingInput,
  type UpdateAssignmentSettingsInput,
} from '@gradewise/shared/contracts/assignments';
import { apiClient } from '../../../lib/api-client.ts';
import { apiPaths } from '../../../lib/api-paths.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { assignmentQueries } from '../../../lib/queries/assignments.ts';

export const ASSIGNMENT_MESSAGES = {
  fetchListFailed: 'Failed to fetch assignments.',
  fetchFailed: 'Failed to fetch assignment.',
  createFailed: 'Failed to create assignment.',
  created: 'Assignment created successfully!',
  notFound: 'Assignment not found.',
  noCourseId: 'No courseId found. Make sure you navigated from a course.',
  settingsFailed: 'Failed to change the assignment settings.',
  anonymityFailed: 'Failed to change anonymous grading.',
} as const;

/**
 * GET /api/assignments, every assignment the caller can see; with a course id, that course's only
 * (the server filters, so a course page does not download every other course's assignments).
 */
export function useAssignments(courseId?: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...assignmentQueries.list(courseId), enabled: options.enabled ?? true });
}

export function useAssignment(assignmentId: string | undefined) {
  return useQuery({ ...assignmentQueries.detail(assignmentId ?? ''), enabled: Boolean(assignmentId) });
}

/** POST /api/assignments (JSON: title, courseId, deadline as ISO 8601 or null). */
export function useCreateAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateAssignmentInput) =>
      apiClient.post(apiPaths.assignments.create, input, CreateAssignmentOutput),
    onSuccess: (result) => {
      queryClient.setQueryData(queryKeys.assignments.detail(result.assignment._id), result.assignment);
      return queryClient.invalidateQueries({ queryKey: queryKeys.assignments.lists });
    },
  });
}

/** PATCH /api/assignments/:id/settings (owning instructor): whether students may resubmit after grading. */
export function useUpdateAssignmentSettings(assignmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateAssignmentSettingsInput) =>
      apiClient.patch(apiPaths.assignments.settings(assignmentId), input, UpdateAssignmentSettingsOutput),
    onSuccess: (result) => {
      queryClient.setQueryData(queryKeys.assignments.detail(assignmentId), result.assignment);
      return queryClient.invalidateQueries({ queryKey: queryKeys.assignments.lists });
    },
  });
}

/**
 * PUT /api/assignments/:id/anonymous-grading (owning instructor). Every question's cached
 * submissions carry names or labels, so they are refreshed too.
 */
export function useSetAnonymousGrading(assignmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SetAnonymousGradingInput) =>
      apiClient.put(apiPaths.assignments.anonymousGrading(assignmentId), input, SetAnonymousGradingOutput),
    onSuccess: (result) => {
      queryClient.setQueryData(queryKeys.assignments.detail(assignmentId), result.assignment);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.assignments.lists }),
        queryClient.invalidateQueries({ queryKey: queryKeys.questions.all }),
      ]);
    },
  });
}
