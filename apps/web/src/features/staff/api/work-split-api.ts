import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { WorkSplitChangeOutput } from '@gradewise/shared/contracts/work-split';
import { apiClient } from '../../../lib/api-client.ts';
import { apiPaths } from '../../../lib/api-paths.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { staffQueries } from '../../../lib/queries/staff.ts';

export const WORK_SPLIT_MESSAGES = {
  fetchFailed: 'Could not load the work split.',
  notFound: 'This course does not exist, or you are not on its staff.',
  saveFailed: 'Failed to save the work split.',
} as const;

/** GET /api/courses/:id/work-split (owner and TAs). */
export function useWorkSplit(courseId: string) {
  return useQuery(staffQueries.workSplit(courseId));
}

/**
 * Every change answers the whole split; it replaces the cached one, and the grading lists (queue,
 * question pages) are asked again since whose answers are whose changed.
 */
function useSplitChange<Input>(courseId: string, send: (input: Input) => Promise<WorkSplitChangeOutput>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (output) => {
      queryClient.setQueryData(queryKeys.courses.workSplit(courseId), output.split);
      void queryClient.invalidateQueries({ queryKey: queryKeys.grading.queues });
    },
  });
}

/** PUT /api/courses/:id/work-split/questions/:questionId (owner). */
export function useSetQuestionGraders(courseId: string) {
  return useSplitChange(courseId, ({ questionId, graderIds }: { questionId: string; graderIds: string[] }) =>
    apiClient.put(apiPaths.courses.workSplitQuestion(courseId, questionId), { graderIds }, WorkSplitChangeOutput),
  );
}

/** PUT /api/courses/:id/work-split/students (owner). */
export function useSetStudentGraders(courseId: string) {
  return useSplitChange(courseId, (students: { studentId: string; graderId: string | null }[]) =>
    apiClient.put(apiPaths.courses.workSplitStudents(courseId), { students }, WorkSplitChangeOutput),
  );
}

/**
 * Sections of about equal size in list order (by name): the first students go to the first grader,
 * and so on, so each section is a contiguous range of names an instructor can announce.
 */
export function splitEvenly(
  studentIds: readonly string[],
  graderIds: readonly string[],
): { studentId: string; graderId: string }[] {
  return studentIds.map((studentId, index) => ({
    studentId,
    graderId: graderIds[Math.floor((index * graderIds.length) / studentIds.length)]!,
  }));
}
