import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AddStaffOutput } from '@gradewise/shared/contracts/staff';
import { MessageOutput } from '@gradewise/shared/errors';
import { apiClient } from '../../../lib/api-client.ts';
import { apiPaths } from '../../../lib/api-paths.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { staffQueries } from '../../../lib/queries/staff.ts';

export const STAFF_MESSAGES = {
  fetchFailed: 'Could not load the course staff.',
  addFailed: 'Failed to add the teaching assistant.',
  removeFailed: 'Failed to remove the teaching assistant.',
} as const;

/** GET /api/courses/:id/staff (owner and TAs). */
export function useStaff(courseId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...staffQueries.staff(courseId), enabled: options.enabled ?? true });
}

/** POST /api/courses/:id/staff { email, role: 'ta' } (owner). */
export function useAddTa(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) =>
      apiClient.post(apiPaths.courses.staff(courseId), { email, role: 'ta' }, AddStaffOutput),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.courses.staff(courseId) }),
  });
}

/** DELETE /api/courses/:id/staff/:userId (owner). */
export function useRemoveTa(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => apiClient.delete(apiPaths.courses.staffMember(courseId, userId), MessageOutput),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.courses.staff(courseId) }),
  });
}
