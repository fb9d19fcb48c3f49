import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AddStaffOutput, StaffList } from '@gradewise/shared/contracts/staff';
import { MessageOutput } from '@gradewise/shared/errors';
import { apiClient } from '../../../lib/api-client.ts';

export const STAFF_MESSAGES = {
  fetchFailed: 'Could not load the course staff.',
  addFailed: 'Failed to add the teaching assistant.',
  removeFailed: 'Failed to remove the teaching assistant.',
} as const;

const staffKey = (courseId: string) => ['courses', 'staff', courseId] as const;
const staffPath = (courseId: string) => `/courses/${encodeURIComponent(courseId)}/staff`;

/** GET /api/courses/:id/staff (owner and TAs). */
export function useStaff(courseId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: staffKey(courseId),
    queryFn: ({ signal }) => apiClient.get(staffPath(courseId), StaffList, { signal }),
    enabled: options.enabled ?? true,
  });
}

/** POST /api/courses/:id/staff { email, role: 'ta' } (owner). */
export function useAddTa(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => apiClient.post(staffPath(courseId), { email, role: 'ta' }, AddStaffOutput),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffKey(courseId) }),
  });
}

/** DELETE /api/courses/:id/staff/:userId (owner). */
export function useRemoveTa(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      apiClient.delete(`${staffPath(courseId)}/${encodeURIComponent(userId)}`, MessageOutput),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffKey(courseId) }),
  });
}
